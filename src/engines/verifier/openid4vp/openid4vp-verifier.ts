import { randomBytes } from "node:crypto";
import type { CredkitConfig } from "../../../config/schema.js";
import type { CredentialSchema } from "../../../domain/credential-schema.js";
import type { ProofState } from "../../../domain/enums.js";
import type { Proof } from "../../../domain/proof.js";
import { CredkitError } from "../../../errors/credkit-error.js";
import type { ParsedPresentation } from "../../../ports/credential-formatter.js";
import { signCompactJws } from "../../../providers/jose/sign-compact-jws.js";
import { getFormatter } from "../../../providers/registry.js";
import { parseDcqlQuery } from "../../../providers/verification/dcql/index.js";
import type { CallContext } from "../../common/call-context.js";
import type { EngineDeps } from "../../common/engine-deps.js";
import { recordHistory } from "../../history/record-history.js";
import { resolveIssuerSigning } from "../../issuer/issuer-signing.js";
import { OAuthError } from "../../issuer/openid4vci/oauth-error.js";
import type { DidService } from "../../management/did-service.js";
import { buildDcqlQuery, type DcqlCredentialQuery } from "../build-dcql-query.js";
import { checkCredentialSets } from "../check-credential-sets.js";
import { loadProofInputs } from "../load-proof-inputs.js";
import { createPresentationChecker, PresentationRejected } from "../presentation-checks.js";
import { createResponseEncryptionKey, decryptResponse, responseKid } from "../response-decryption.js";
import { startVerifierRequest } from "../start-verifier-request.js";
import {
  CERTIFICATE_PREFIXES,
  type ClientIdentity,
  resolveClientIdentity,
  signClientRequestObject,
} from "./client-identifier.js";
import { verifierInfoParameter } from "./verifier-info.js";
import type { VerifierInteractionData } from "./verifier-interaction.js";

const FINAL = "/ssi/openid4vp/final-1.0";

export interface Openid4vpVerifier {
  /** creates the request (interaction, nonce, DCQL query) and answers the `openid4vp://` URL */
  share(
    proof: Proof,
    next: ProofState,
    params: { clientIdScheme?: string; responseMode?: "direct_post" | "direct_post.jwt" },
    context: CallContext,
  ): Promise<{ url: string; expiresAt?: Date }>;
  /** GET {FINAL}/{proofId}/client-request: the request object (JAR, `application/oauth-authz-req+jwt`) */
  requestObject(proofId: string): Promise<string>;
  /** POST {FINAL}/response: direct_post (vp_token) or direct_post.jwt (response = JWE) */
  response(form: URLSearchParams): Promise<{ redirect_uri?: string }>;
  /** pending requests past `interactionExpiresIn` → INTERACTION_EXPIRED; returns how many */
  expireRequests(): Promise<number>;
}

interface VerifierSettings {
  urlScheme: string;
  interactionExpiresIn: number;
  leeway: number;
  responseMode: "direct_post" | "direct_post.jwt";
  supportedClientIdSchemes: string[];
}

/** OpenID4VP 1.0 verifier (DCQL, direct_post and direct_post.jwt), HTTP-free. */
export function createOpenid4vpVerifier(deps: EngineDeps, config: CredkitConfig, dids: DidService): Openid4vpVerifier {
  const { storage, clock, providers } = deps;

  function settings(protocolId: string): VerifierSettings {
    const entry = config.verificationProtocol[protocolId];
    const p = { ...entry?.params.public, ...entry?.params.private } as Record<string, unknown>;
    const verifier = (p.verifier ?? {}) as Record<string, unknown>;
    return {
      urlScheme: typeof p.urlScheme === "string" ? p.urlScheme : "openid4vp",
      interactionExpiresIn: typeof verifier.interactionExpiresIn === "number" ? verifier.interactionExpiresIn : 3600,
      leeway: typeof p.leeway === "number" ? p.leeway : 60,
      responseMode: verifier.responseMode === "direct_post.jwt" ? "direct_post.jwt" : "direct_post",
      supportedClientIdSchemes: Array.isArray(verifier.supportedClientIdSchemes)
        ? (verifier.supportedClientIdSchemes as string[])
        : ["redirect_uri", "decentralized_identifier"],
    };
  }

  /**
   * PENDING/REQUESTED → INTERACTION_EXPIRED, with the reason and an INTERACTION_EXPIRED history entry; false when the
   * proof had already moved on (answered, expired, re-shared).
   */
  async function expire(proofId: string, organisationId: string, reason: string): Promise<boolean> {
    const now = clock.now();
    return storage.transaction(async (tx) => {
      const changed = await tx.proofs.update(
        proofId,
        { state: "INTERACTION_EXPIRED", errorReason: reason, lastModified: now },
        {
          where: {
            op: "and",
            conditions: [
              { op: "in", column: "state", values: ["PENDING", "REQUESTED"] },
              { op: "eq", column: "role", value: "VERIFIER" },
            ],
          },
        },
      );
      if (changed) {
        await recordHistory(
          deps,
          tx,
          {},
          { action: "INTERACTION_EXPIRED", entityType: "PROOF", entityId: proofId, name: reason, organisationId },
        );
      }
      return changed;
    });
  }

  const checks = createPresentationChecker(deps, config, dids);
  const fail = (proof: Proof, interactionId: string, reason: string) => checks.fail(proof, interactionId, reason);
  const verifyOne = (
    query: DcqlCredentialQuery,
    presentation: string,
    data: VerifierInteractionData,
    schema: CredentialSchema,
    requiredPaths: (string | null)[][],
    leeway: number,
  ) =>
    checks.verify({
      label: query.id,
      presentation,
      audience: data.clientId,
      nonce: data.nonce,
      schema,
      requiredPaths,
      leeway,
    });

  /** The authorization request parameters (OpenID4VP 1.0 §5) of a stored request. */
  function requestParameters(data: VerifierInteractionData, state: string): Record<string, unknown> {
    const algs = getFormatter(providers, "SD_JWT_VC").capabilities.signingAlgorithms;
    return {
      client_id: data.clientId,
      response_type: "vp_token",
      response_mode: data.responseMode,
      response_uri: data.responseUri,
      nonce: data.nonce,
      state,
      dcql_query: data.dcqlQuery,
      client_metadata: {
        vp_formats_supported: { "dc+sd-jwt": { "sd-jwt_alg_values": algs, "kb-jwt_alg_values": algs } },
        ...(data.encryptionJwk && {
          jwks: { keys: [data.encryptionJwk] },
          encrypted_response_enc_values_supported: ["A128GCM", "A256GCM"],
        }),
      },
    };
  }

  return {
    async share(proof, next, params, context) {
      const protocol = settings(proof.protocol);
      const { schema, inputs } = await loadProofInputs(storage, proof);
      const verifier = proof.verifierIdentifierId
        ? await storage.identifiers.get(proof.verifierIdentifierId)
        : undefined;
      const requested = params.clientIdScheme === "did" ? "decentralized_identifier" : params.clientIdScheme;
      const scheme =
        requested ??
        (verifier?.type === "DID"
          ? "decentralized_identifier"
          : verifier?.type === "CERTIFICATE"
            ? // §5.9.3; x509_hash needs nothing of the response URI (HAIP 1.0 uses it)
              (["x509_hash", "x509_san_dns"].find((p) => protocol.supportedClientIdSchemes.includes(p)) ?? "x509_hash")
            : "redirect_uri");
      if (
        !protocol.supportedClientIdSchemes.includes(scheme) &&
        !(scheme === "decentralized_identifier" && protocol.supportedClientIdSchemes.includes("did"))
      ) {
        throw new CredkitError("BR_0112", `client_id prefix ${scheme} is not enabled for ${proof.protocol}`);
      }
      const responseUri = `${deps.baseUrl}${FINAL}/response`;
      let clientId: string;
      let identity: ClientIdentity | undefined;
      if (scheme === "redirect_uri") clientId = `redirect_uri:${responseUri}`;
      else if (scheme === "decentralized_identifier") {
        if (verifier?.type !== "DID" || !verifier.didId) {
          throw new CredkitError("BR_0084", "the decentralized_identifier prefix needs a DID verifier identifier");
        }
        const did = await storage.dids.get(verifier.didId);
        clientId = `decentralized_identifier:${did!.did}`;
      } else if (scheme === "verifier_attestation" || (CERTIFICATE_PREFIXES as readonly string[]).includes(scheme)) {
        // §5.9.3 x509_san_dns / x509_hash / verifier_attestation (client-identifier.ts)
        identity = await resolveClientIdentity(deps, storage, {
          prefix: scheme as (typeof CERTIFICATE_PREFIXES)[number] | "verifier_attestation",
          verifier,
          certificateId: proof.verifierCertificateId,
          responseUri,
        });
        clientId = identity.clientId;
      } else {
        throw new CredkitError("BR_0112", `client_id prefix ${scheme} is not supported`);
      }
      const responseMode = params.responseMode ?? protocol.responseMode;
      const interactionId = deps.newId();
      let encryptionJwk: Record<string, unknown> | undefined;
      let sealedEncryptionKey: string | undefined;
      if (responseMode === "direct_post.jwt") {
        ({ encryptionJwk, sealedEncryptionKey } = await createResponseEncryptionKey(deps, interactionId));
      }
      const now = clock.now();
      const expiresAt = new Date(now.getTime() + protocol.interactionExpiresIn * 1000);
      const data: VerifierInteractionData = {
        proofId: proof.id,
        nonce: randomBytes(24).toString("base64url"),
        clientId,
        responseUri,
        responseMode,
        // the query must be valid DCQL (OpenID4VP 1.0 §6) by the same parser wallets use
        dcqlQuery: parseDcqlQuery(
          buildDcqlQuery(inputs, schema.credentialSets),
        ) as unknown as VerifierInteractionData["dcqlQuery"],
        ...(encryptionJwk && { encryptionJwk }),
        ...(sealedEncryptionKey && { sealedEncryptionKey }),
        ...(identity?.verifierCertificateId !== undefined && { verifierCertificateId: identity.verifierCertificateId }),
        ...(identity?.verifierAttestation !== undefined && { verifierAttestation: identity.verifierAttestation }),
      };
      await startVerifierRequest(deps, context, {
        proof,
        next,
        interactionId,
        data,
        expiresAt,
        name: schema.name,
        now,
      });
      if (scheme === "redirect_uri") {
        // §5.9.3: redirect_uri requests are never signed, so they travel by value in the URL (wallets refuse unsigned
        // request objects by reference); the client-request endpoint still serves them for wallets that ask
        const query = new URLSearchParams();
        for (const [name, value] of Object.entries(requestParameters(data, interactionId))) {
          query.set(name, typeof value === "string" ? value : JSON.stringify(value));
        }
        return { url: `${protocol.urlScheme}://?${query.toString()}`, expiresAt };
      }
      const requestUri = `${deps.baseUrl}${FINAL}/${proof.id}/client-request`;
      return {
        url: `${protocol.urlScheme}://?client_id=${encodeURIComponent(clientId)}&request_uri=${encodeURIComponent(requestUri)}`,
        expiresAt,
      };
    },

    async requestObject(proofId) {
      const proof = await storage.proofs.get(proofId);
      if (proof?.role !== "VERIFIER" || !proof.interactionId || !["PENDING", "REQUESTED"].includes(proof.state)) {
        throw new CredkitError("BR_0012", `proof request ${proofId} not found`);
      }
      const interaction = await storage.interactions.get(proof.interactionId);
      // an expired request is not handed out any more (a wallet could only answer it in vain)
      if (!interaction || (interaction.expiresAt && interaction.expiresAt <= clock.now())) {
        throw new CredkitError("BR_0012", `proof request ${proofId} not found`);
      }
      const data = interaction.data as VerifierInteractionData;
      const now = Math.floor(clock.now().getTime() / 1000);
      const payload = {
        ...requestParameters(data, interaction.id),
        aud: "https://self-issued.me/v2",
        iat: now,
        exp: Math.floor((interaction.expiresAt?.getTime() ?? clock.now().getTime() + 3600_000) / 1000),
      };
      if (data.clientId.startsWith("redirect_uri:")) {
        // §5.9.3: requests of the redirect_uri prefix are never signed
        const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
        return `${encode({ alg: "none", typ: "oauth-authz-req+jwt" })}.${encode(payload)}.`;
      }
      const verifier = proof.verifierIdentifierId
        ? await storage.identifiers.get(proof.verifierIdentifierId)
        : undefined;
      if (!verifier) throw new CredkitError("BR_0207", "verifier identifier not found");
      // signed requests only: registration certificates as verifier_info (OpenID4VP 1.0 §5.1, verifier-info.ts)
      Object.assign(payload, verifierInfoParameter(verifier, clock.now()));
      if (data.verifierAttestation !== undefined || data.verifierCertificateId !== undefined) {
        // x509_san_dns / x509_hash: x5c; verifier_attestation: the attestation in `jwt` (client-identifier.ts)
        return signClientRequestObject(deps, storage, verifier, data, payload);
      }
      const signing = await resolveIssuerSigning(deps, storage, verifier, { keyIssuerUrl: data.clientId });
      return signCompactJws({ typ: "oauth-authz-req+jwt" }, payload, signing.signer);
    },

    async response(form) {
      let vpTokenText = form.get("vp_token");
      let state = form.get("state");
      const encrypted = form.get("response");
      let error = form.get("error");
      let errorDescription = form.get("error_description");
      let interaction = state
        ? await storage.interactions.get(
            /^[0-9a-f-]{36}$/i.test(state) ? state : "00000000-0000-0000-0000-000000000000",
          )
        : undefined;
      if (encrypted) {
        // direct_post.jwt (§8.3): find the request by the JWE's kid, then decrypt with its ephemeral key
        const kid = responseKid(encrypted);
        if (!interaction && kid && /^[0-9a-f-]{36}$/i.test(kid)) interaction = await storage.interactions.get(kid);
        const sealed = (interaction?.data as VerifierInteractionData | undefined)?.sealedEncryptionKey;
        if (!interaction || !sealed) throw new OAuthError("invalid_request", "unknown or already answered request");
        const payload = await decryptResponse(deps, sealed, interaction.id, encrypted);
        vpTokenText =
          typeof payload.vp_token === "string" ? payload.vp_token : JSON.stringify(payload.vp_token ?? null);
        state = typeof payload.state === "string" ? payload.state : state;
        // an error response of direct_post.jwt arrives encrypted too (§8.3)
        error = typeof payload.error === "string" ? payload.error : null;
        errorDescription = typeof payload.error_description === "string" ? payload.error_description : null;
        if (state !== interaction.id) throw new OAuthError("invalid_request", "state does not match the request");
      }
      if (interaction?.interactionType !== "VERIFICATION")
        throw new OAuthError("invalid_request", "unknown or already answered request");
      const data = interaction.data as VerifierInteractionData;
      // only OpenID4VP 1.0 requests (a DCQL query) are answered here; draft-20 ones have their own endpoint
      if (!data.dcqlQuery || !Array.isArray(data.dcqlQuery.credentials)) {
        throw new OAuthError("invalid_request", "unknown or already answered request");
      }
      const proof = typeof data.proofId === "string" ? await storage.proofs.get(data.proofId) : undefined;
      if (
        proof?.role !== "VERIFIER" ||
        !["PENDING", "REQUESTED"].includes(proof.state) ||
        proof.interactionId !== interaction.id
      ) {
        throw new OAuthError("invalid_request", "unknown or already answered request");
      }
      // refused without touching the request: whoever learnt the state but not the key cannot spoil it
      if (data.responseMode === "direct_post.jwt" && !encrypted)
        throw new OAuthError("invalid_request", "the response must be encrypted (direct_post.jwt)");
      if (interaction.expiresAt && interaction.expiresAt <= clock.now()) {
        await expire(proof.id, proof.organisationId, "the request expired before the response arrived");
        throw new OAuthError("invalid_request", "the request expired");
      }
      if (error) return checks.reject(proof, interaction.id, error, errorDescription);
      let vpToken: Record<string, unknown>;
      try {
        vpToken = JSON.parse(vpTokenText ?? "");
      } catch {
        return fail(proof, interaction.id, "vp_token is not a JSON object keyed by credential query id");
      }
      if (typeof vpToken !== "object" || vpToken === null || Array.isArray(vpToken)) {
        return fail(proof, interaction.id, "vp_token is not a JSON object keyed by credential query id");
      }
      const schema = proof.proofSchemaId ? await storage.proofSchemas.get(proof.proofSchemaId) : undefined;
      if (!schema) return fail(proof, interaction.id, "proof schema no longer exists");
      const verified: { credentialSchema: CredentialSchema; parsed: ParsedPresentation; presentation: string }[] = [];
      try {
        for (const key of Object.keys(vpToken)) {
          if (!data.dcqlQuery.credentials.some((q) => q.id === key))
            throw new PresentationRejected(`vp_token answers unknown credential query ${key}`);
        }
        const answered = checkCredentialSets(data.dcqlQuery, vpToken);
        for (const input of schema.proofInputSchemas) {
          const query = data.dcqlQuery.credentials[input.order]!;
          // with credential_sets, a query of an option the wallet did not choose stays unanswered
          if (!answered.has(query.id)) continue;
          const presentations = vpToken[query.id];
          const list = Array.isArray(presentations)
            ? presentations
            : presentations === undefined
              ? []
              : [presentations];
          if (list.length === 0) throw new PresentationRejected(`no presentation for credential query ${query.id}`);
          if (list.length > 1 && !query.multiple)
            throw new PresentationRejected(`credential query ${query.id} allows one presentation`);
          const credentialSchema = await storage.credentialSchemas.get(input.credentialSchemaId);
          if (!credentialSchema) throw new PresentationRejected("a requested credential schema no longer exists");
          // the query's claims were built in the order of the proof input's claim schemas
          const requiredPaths = query.claims
            .filter((_, i) => input.claimSchemas[i]?.required === true)
            .map((c) => c.path as (string | null)[]);
          for (const presentation of list) {
            if (typeof presentation !== "string")
              throw new PresentationRejected(`${query.id}: presentation is not a string`);
            verified.push({
              credentialSchema,
              parsed: await verifyOne(
                query,
                presentation,
                data,
                credentialSchema,
                requiredPaths,
                settings(proof.protocol).leeway,
              ),
              presentation,
            });
          }
        }
      } catch (rejection) {
        if (rejection instanceof PresentationRejected) return fail(proof, interaction.id, rejection.message);
        throw rejection;
      }
      return checks.accept(proof, interaction!.id, schema, verified);
    },

    async expireRequests() {
      const now = clock.now();
      const expired = await storage.interactions.findMany({
        op: "and",
        conditions: [
          { op: "eq", column: "interactionType", value: "VERIFICATION" },
          { op: "lte", column: "expiresAt", value: now },
        ],
      });
      let count = 0;
      for (const interaction of expired) {
        const proofId = (interaction.data as VerifierInteractionData | undefined)?.proofId;
        const proof = proofId ? await storage.proofs.get(proofId) : undefined;
        if (!proof || proof.interactionId !== interaction.id) continue;
        if (await expire(proof.id, proof.organisationId, "the request expired unanswered")) count++;
      }
      return count;
    },
  };
}
