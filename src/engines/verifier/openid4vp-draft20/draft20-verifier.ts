import { randomBytes } from "node:crypto";
import type { CredkitConfig } from "../../../config/schema.js";
import type { CredentialSchema } from "../../../domain/credential-schema.js";
import type { ProofState } from "../../../domain/enums.js";
import type { Interaction } from "../../../domain/interaction.js";
import type { Proof } from "../../../domain/proof.js";
import { CredkitError } from "../../../errors/credkit-error.js";
import type { ParsedPresentation } from "../../../ports/credential-formatter.js";
import { signCompactJws } from "../../../providers/jose/sign-compact-jws.js";
import { getFormatter } from "../../../providers/registry.js";
import type { CallContext } from "../../common/call-context.js";
import type { EngineDeps } from "../../common/engine-deps.js";
import { recordHistory } from "../../history/record-history.js";
import { resolveIssuerSigning } from "../../issuer/issuer-signing.js";
import { OAuthError } from "../../issuer/openid4vci/oauth-error.js";
import { createDidService } from "../../management/did-service.js";
import { buildCredentialSets } from "../build-dcql-query.js";
import { loadProofInputs } from "../load-proof-inputs.js";
import { resolveClientIdentity, signClientRequestObject } from "../openid4vp/client-identifier.js";
import { createPresentationChecker, openProofCondition, PresentationRejected } from "../presentation-checks.js";
import { createResponseEncryptionKey, decryptResponse, responseKid } from "../response-decryption.js";
import { startVerifierRequest } from "../start-verifier-request.js";
import {
  buildPresentationDefinition,
  PEX_SD_JWT_FORMATS,
  type PexInputDescriptor,
  type PexPresentationDefinition,
  parseJsonPath,
  unmetSubmissionRequirement,
} from "./presentation-definition.js";

/** Path prefix of the draft-20 verifier endpoints (reference §4.2). */
export const DRAFT20_PATH = "/ssi/openid4vp/draft-20";
export const OPENID4VP_DRAFT20 = "OPENID4VP_DRAFT20";

/** State of one draft-20 request, kept in the interaction (its id is the `state` parameter). */
export interface Draft20InteractionData {
  /** tells draft-20 interactions apart from OpenID4VP 1.0 ones in the shared table */
  version: "draft-20";
  proofId: string;
  nonce: string;
  clientId: string;
  clientIdScheme: "redirect_uri" | "did" | "x509_san_dns";
  /** x509_san_dns: the certificate of the CERTIFICATE verifier that signs the request object (with x5c) */
  verifierCertificateId?: string;
  responseUri: string;
  responseMode: Draft20ResponseMode;
  presentationDefinition: PexPresentationDefinition;
  /** set when the request passes the definition by reference (draft 20 §5.1 `presentation_definition_uri`) */
  presentationDefinitionUri?: string;
  /** direct_post.jwt: public ECDH-ES key (kid = interaction id) the wallet encrypts its response to */
  encryptionJwk?: Record<string, unknown>;
  /** its private half, sealed with the kit's secret sealer (never leaves the verifier) */
  sealedEncryptionKey?: string;
}

export type Draft20ResponseMode = "direct_post" | "direct_post.jwt";

/** JWE algorithms of draft-20 encrypted responses (JARM client metadata, draft 20 §6.3). */
export const DRAFT20_RESPONSE_ENCRYPTION = { alg: "ECDH-ES", enc: "A128GCM" } as const;

/** OpenID4VP draft 20 verifier with Presentation Exchange 2.0 (reference §4.2 draft-20 row), HTTP-free. */
export interface Draft20Verifier {
  share(
    proof: Proof,
    next: ProofState,
    params: { clientIdScheme?: string; responseMode?: string },
    context: CallContext,
  ): Promise<{ url: string; expiresAt?: Date }>;
  /** GET …/{proofId}/client-request: signed (did) or unsigned (`alg: none`, redirect_uri) request object */
  requestObject(proofId: string): Promise<string>;
  /** GET …/{proofId}/client-metadata */
  clientMetadata(proofId: string): Promise<Record<string, unknown>>;
  /** GET …/{proofId}/presentation-definition */
  presentationDefinition(proofId: string): Promise<PexPresentationDefinition>;
  /**
   * POST …/response: `vp_token` + `presentation_submission` (+ `state`), an error response, or (direct_post.jwt)
   * `response` = those parameters as a JWE
   */
  response(form: URLSearchParams): Promise<{ redirect_uri?: string }>;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function isDraft20Data(data: unknown): data is Draft20InteractionData {
  return isObject(data) && data.version === "draft-20" && typeof data.proofId === "string";
}

interface DescriptorMapEntry {
  id: string;
  format: string;
  path: string;
}

/** Reads `presentation_submission` (PEX 2.0 §6): `{id, definition_id, descriptor_map: [{id, format, path}]}`. */
function parseSubmission(text: string | null, definitionId: string): DescriptorMapEntry[] {
  if (text === null) throw new PresentationRejected("presentation_submission is missing");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new PresentationRejected("presentation_submission is not JSON");
  }
  if (!isObject(value) || !Array.isArray(value.descriptor_map))
    throw new PresentationRejected("presentation_submission has no descriptor_map");
  if (value.definition_id !== definitionId)
    throw new PresentationRejected(
      `presentation_submission answers definition ${JSON.stringify(value.definition_id ?? null)}, not ${definitionId}`,
    );
  return value.descriptor_map.map((entry, index) => {
    if (!isObject(entry) || typeof entry.id !== "string" || typeof entry.path !== "string")
      throw new PresentationRejected(`descriptor_map[${index}] needs an id and a path`);
    if (entry.path_nested !== undefined)
      throw new PresentationRejected(`descriptor_map[${index}]: path_nested is not supported for SD-JWT VC`);
    return { id: entry.id, format: typeof entry.format === "string" ? entry.format : "", path: entry.path };
  });
}

/** The presentations of `vp_token`: one string (path `$`) or a JSON array of strings (paths `$[i]`). */
function parseVpToken(text: string | null): { single: boolean; tokens: unknown[] } {
  if (text === null || text === "") throw new PresentationRejected("vp_token is missing");
  if (text.trimStart().startsWith("[")) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new PresentationRejected("vp_token is not a JSON array");
    }
    if (!Array.isArray(value)) throw new PresentationRejected("vp_token is not a JSON array");
    return { single: false, tokens: value };
  }
  // a JSON string is accepted too (some wallets quote a single presentation)
  if (text.startsWith('"')) {
    try {
      const value = JSON.parse(text);
      if (typeof value === "string") return { single: true, tokens: [value] };
    } catch {
      // not JSON: the presentation itself
    }
  }
  return { single: true, tokens: [text] };
}

function tokenAt(path: string, vp: { single: boolean; tokens: unknown[] }, descriptorId: string): string {
  let token: unknown;
  if (path === "$") {
    if (!vp.single) throw new PresentationRejected(`${descriptorId}: path $ needs a single vp_token, got an array`);
    token = vp.tokens[0];
  } else {
    const match = /^\$\[(\d+)\]$/.exec(path);
    if (!match) throw new PresentationRejected(`${descriptorId}: descriptor path ${path} is not $ or $[i]`);
    if (vp.single) throw new PresentationRejected(`${descriptorId}: path ${path} needs vp_token to be an array`);
    const index = Number(match[1]);
    if (index >= vp.tokens.length)
      throw new PresentationRejected(`${descriptorId}: path ${path} is outside vp_token (${vp.tokens.length})`);
    token = vp.tokens[index];
  }
  if (typeof token !== "string") throw new PresentationRejected(`${descriptorId}: presentation is not a string`);
  return token;
}

/** Required claim paths of an input descriptor: its non-optional fields other than the `vct` filter. */
function requiredPaths(descriptor: PexInputDescriptor): (string | number | null)[][] {
  const out: (string | number | null)[][] = [];
  for (const field of descriptor.constraints.fields ?? []) {
    if (field.optional === true || field.filter !== undefined) continue;
    const path = parseJsonPath(field.path[0] ?? "");
    if (path) out.push(path);
  }
  return out;
}

/**
 * The parameters of a decrypted direct_post.jwt response as the form of a direct_post one: strings as they are, JSON
 * values (a `vp_token` array, a `presentation_submission` object) as JSON text.
 */
function decryptedForm(payload: Record<string, unknown>): URLSearchParams {
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(payload)) {
    if (value === undefined) continue;
    form.set(name, typeof value === "string" ? value : JSON.stringify(value));
  }
  return form;
}

export function createDraft20Verifier(deps: EngineDeps, config: CredkitConfig): Draft20Verifier {
  const { storage, clock, providers } = deps;
  const dids = createDidService(deps);

  function settings(protocolId: string) {
    const entry = config.verificationProtocol[protocolId];
    const p = { ...entry?.params.public, ...entry?.params.private } as Record<string, unknown>;
    const verifier = (p.verifier ?? {}) as Record<string, unknown>;
    return {
      urlScheme: typeof p.urlScheme === "string" ? p.urlScheme : "openid4vp-draft20",
      interactionExpiresIn: typeof verifier.interactionExpiresIn === "number" ? verifier.interactionExpiresIn : 3600,
      leeway: typeof p.leeway === "number" ? p.leeway : 60,
      supportedClientIdSchemes: Array.isArray(verifier.supportedClientIdSchemes)
        ? (verifier.supportedClientIdSchemes as string[])
        : ["redirect_uri", "did"],
      responseMode: (verifier.responseMode === "direct_post.jwt"
        ? "direct_post.jwt"
        : "direct_post") as Draft20ResponseMode,
      presentationDefinitionByReference: verifier.presentationDefinitionByReference === true,
    };
  }

  function algorithms(): string[] {
    return getFormatter(providers, "SD_JWT_VC").capabilities.signingAlgorithms;
  }

  /** `client_metadata` of a request (draft 20 §5.1, §6.3): formats, and the encryption key for direct_post.jwt */
  function clientMetadataOf(data: Draft20InteractionData): Record<string, unknown> {
    const algs = algorithms();
    const format = { "sd-jwt_alg_values": algs, "kb-jwt_alg_values": algs };
    return {
      vp_formats: { "vc+sd-jwt": format, "dc+sd-jwt": format },
      ...(data.encryptionJwk && {
        jwks: { keys: [data.encryptionJwk] },
        authorization_encrypted_response_alg: DRAFT20_RESPONSE_ENCRYPTION.alg,
        authorization_encrypted_response_enc: DRAFT20_RESPONSE_ENCRYPTION.enc,
      }),
    };
  }

  function requestParameters(data: Draft20InteractionData, state: string): Record<string, unknown> {
    return {
      client_id: data.clientId,
      client_id_scheme: data.clientIdScheme,
      response_type: "vp_token",
      response_mode: data.responseMode,
      response_uri: data.responseUri,
      nonce: data.nonce,
      state,
      ...(data.presentationDefinitionUri !== undefined
        ? { presentation_definition_uri: data.presentationDefinitionUri }
        : { presentation_definition: data.presentationDefinition }),
      client_metadata: clientMetadataOf(data),
    };
  }

  /** The open request of a verifier proof (PENDING / REQUESTED, not expired); BR_0012 otherwise. */
  async function openRequest(proofId: string): Promise<{ proof: Proof; interaction: Interaction }> {
    const proof = /^[0-9a-f-]{36}$/i.test(proofId) ? await storage.proofs.get(proofId) : undefined;
    if (proof?.role !== "VERIFIER" || !proof.interactionId || !["PENDING", "REQUESTED"].includes(proof.state)) {
      throw new CredkitError("BR_0012", `proof request ${proofId} not found`);
    }
    const interaction = await storage.interactions.get(proof.interactionId);
    if (
      !interaction ||
      !isDraft20Data(interaction.data) ||
      (interaction.expiresAt && interaction.expiresAt <= clock.now())
    ) {
      throw new CredkitError("BR_0012", `proof request ${proofId} not found`);
    }
    return { proof, interaction };
  }

  const checks = createPresentationChecker(deps, config, dids);
  const fail = (proof: Proof, interactionId: string, reason: string) => checks.fail(proof, interactionId, reason);
  const verifyOne = (
    descriptorId: string,
    presentation: string,
    data: Draft20InteractionData,
    schema: CredentialSchema,
    required: (string | number | null)[][],
    leeway: number,
  ) =>
    checks.verify({
      label: descriptorId,
      presentation,
      audience: data.clientId,
      nonce: data.nonce,
      schema,
      requiredPaths: required,
      leeway,
    });

  return {
    async share(proof, next, params, context) {
      const protocol = settings(proof.protocol);
      if (
        params.responseMode !== undefined &&
        params.responseMode !== "direct_post" &&
        params.responseMode !== "direct_post.jwt"
      ) {
        throw new CredkitError("BR_0112", `${proof.protocol} answers with direct_post or direct_post.jwt only`);
      }
      const responseMode = (params.responseMode as Draft20ResponseMode | undefined) ?? protocol.responseMode;
      const { schema, inputs } = await loadProofInputs(storage, proof);
      const verifier = proof.verifierIdentifierId
        ? await storage.identifiers.get(proof.verifierIdentifierId)
        : undefined;
      const requested = params.clientIdScheme === "decentralized_identifier" ? "did" : params.clientIdScheme;
      const scheme = requested ?? (verifier?.type === "DID" ? "did" : "redirect_uri");
      if (
        !protocol.supportedClientIdSchemes.includes(scheme) &&
        !(scheme === "did" && protocol.supportedClientIdSchemes.includes("decentralized_identifier"))
      ) {
        throw new CredkitError("BR_0112", `client_id_scheme ${scheme} is not enabled for ${proof.protocol}`);
      }
      const responseUri = `${deps.baseUrl}${DRAFT20_PATH}/response`;
      let clientId: string;
      let verifierCertificateId: string | undefined;
      if (scheme === "redirect_uri") clientId = responseUri;
      else if (scheme === "did") {
        if (verifier?.type !== "DID" || !verifier.didId) {
          throw new CredkitError("BR_0084", "the did client_id_scheme needs a DID verifier identifier");
        }
        const did = await storage.dids.get(verifier.didId);
        clientId = did!.did;
      } else if (scheme === "x509_san_dns") {
        // as OpenID4VP 1.0 §5.9.3 (client-identifier.ts): a dNSName SAN of the leaf, the request signed with x5c; in
        // draft 20 the client_id is the bare name and the scheme travels in client_id_scheme
        const identity = await resolveClientIdentity(deps, storage, {
          prefix: "x509_san_dns",
          verifier,
          certificateId: proof.verifierCertificateId,
          responseUri,
        });
        clientId = identity.clientId.slice("x509_san_dns:".length);
        verifierCertificateId = identity.verifierCertificateId;
      } else {
        throw new CredkitError(
          "BR_0112",
          `client_id_scheme ${scheme} needs X.509 certificates, which this build does not provide yet`,
        );
      }
      const interactionId = deps.newId();
      const now = clock.now();
      const expiresAt = new Date(now.getTime() + protocol.interactionExpiresIn * 1000);
      const data: Draft20InteractionData = {
        version: "draft-20",
        proofId: proof.id,
        nonce: randomBytes(24).toString("base64url"),
        clientId,
        clientIdScheme: scheme as Draft20InteractionData["clientIdScheme"],
        ...(verifierCertificateId !== undefined && { verifierCertificateId }),
        responseUri,
        responseMode,
        // alternatives between inputs are the ones the DCQL query of the same proof schema offers (credential_sets)
        presentationDefinition: buildPresentationDefinition(
          interactionId,
          schema.name,
          inputs,
          algorithms(),
          buildCredentialSets(inputs, schema.credentialSets),
        ),
        ...(protocol.presentationDefinitionByReference && {
          presentationDefinitionUri: `${deps.baseUrl}${DRAFT20_PATH}/${proof.id}/presentation-definition`,
        }),
        ...(responseMode === "direct_post.jwt" && (await createResponseEncryptionKey(deps, interactionId))),
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
      const requestUri = `${deps.baseUrl}${DRAFT20_PATH}/${proof.id}/client-request`;
      const query = new URLSearchParams({ client_id: clientId, client_id_scheme: scheme, request_uri: requestUri });
      return { url: `${protocol.urlScheme}://?${query.toString()}`, expiresAt };
    },

    async requestObject(proofId) {
      const { proof, interaction } = await openRequest(proofId);
      const data = interaction.data as Draft20InteractionData;
      const now = Math.floor(clock.now().getTime() / 1000);
      const payload = {
        ...requestParameters(data, interaction.id),
        aud: "https://self-issued.me/v2",
        iat: now,
        exp: Math.floor((interaction.expiresAt?.getTime() ?? clock.now().getTime() + 3600_000) / 1000),
      };
      if (data.clientIdScheme === "redirect_uri") {
        const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
        return `${encode({ alg: "none", typ: "oauth-authz-req+jwt" })}.${encode(payload)}.`;
      }
      const verifier = proof.verifierIdentifierId
        ? await storage.identifiers.get(proof.verifierIdentifierId)
        : undefined;
      if (!verifier) throw new CredkitError("BR_0207", "verifier identifier not found");
      if (data.clientIdScheme === "x509_san_dns") {
        return signClientRequestObject(deps, storage, verifier, data, payload);
      }
      const signing = await resolveIssuerSigning(deps, storage, verifier, { keyIssuerUrl: data.clientId });
      return signCompactJws({ typ: "oauth-authz-req+jwt" }, payload, signing.signer);
    },

    async clientMetadata(proofId) {
      const { interaction } = await openRequest(proofId);
      return clientMetadataOf(interaction.data as Draft20InteractionData);
    },

    async presentationDefinition(proofId) {
      const { interaction } = await openRequest(proofId);
      return (interaction.data as Draft20InteractionData).presentationDefinition;
    },

    async response(received) {
      let form = received;
      const encrypted = received.get("response");
      let interaction: Interaction | undefined;
      const byId = async (id: string | null | undefined) =>
        id && /^[0-9a-f-]{36}$/i.test(id) ? storage.interactions.get(id) : undefined;
      if (encrypted) {
        // direct_post.jwt (draft 20 §6.3): the JWE's kid names the request (its state may be absent outside the JWE)
        interaction = (await byId(received.get("state"))) ?? (await byId(responseKid(encrypted)));
        const sealed = isDraft20Data(interaction?.data) ? interaction.data.sealedEncryptionKey : undefined;
        if (!interaction || !sealed) throw new OAuthError("invalid_request", "unknown or already answered request");
        form = decryptedForm(await decryptResponse(deps, sealed, interaction.id, encrypted));
        if (form.get("state") !== interaction.id)
          throw new OAuthError("invalid_request", "state does not match the request");
      } else {
        interaction = await byId(received.get("state"));
      }
      if (interaction?.interactionType !== "VERIFICATION" || !isDraft20Data(interaction.data))
        throw new OAuthError("invalid_request", "unknown or already answered request");
      const data = interaction.data;
      const proof = await storage.proofs.get(data.proofId);
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
        const now = clock.now();
        await storage.transaction(async (tx) => {
          const changed = await tx.proofs.update(
            proof.id,
            { state: "INTERACTION_EXPIRED", errorReason: "the request expired", lastModified: now },
            { where: openProofCondition(interaction.id) },
          );
          if (changed)
            await recordHistory(
              deps,
              tx,
              {},
              {
                action: "INTERACTION_EXPIRED",
                entityType: "PROOF",
                entityId: proof.id,
                name: "the request expired before the response arrived",
                organisationId: proof.organisationId,
              },
            );
        });
        throw new OAuthError("invalid_request", "the request expired");
      }
      const error = form.get("error");
      if (error) return checks.reject(proof, interaction.id, error, form.get("error_description"));
      const schema = proof.proofSchemaId ? await storage.proofSchemas.get(proof.proofSchemaId) : undefined;
      if (!schema) return fail(proof, interaction.id, "proof schema no longer exists");
      const definition = data.presentationDefinition;
      const verified: { credentialSchema: CredentialSchema; parsed: ParsedPresentation }[] = [];
      try {
        const vp = parseVpToken(form.get("vp_token"));
        const entries = parseSubmission(form.get("presentation_submission"), definition.id);
        const descriptors = new Map(definition.input_descriptors.map((d) => [d.id, d]));
        const requirements = definition.submission_requirements !== undefined;
        const answered = new Set<string>();
        const usedPaths = new Set<string>();
        for (const entry of entries) {
          if (!descriptors.has(entry.id))
            throw new PresentationRejected(`descriptor_map names unknown input descriptor ${entry.id}`);
          if (answered.has(entry.id))
            throw new PresentationRejected(`input descriptor ${entry.id} is answered more than once`);
          if (!(PEX_SD_JWT_FORMATS as readonly string[]).includes(entry.format))
            throw new PresentationRejected(`${entry.id}: format ${JSON.stringify(entry.format)} is not vc+sd-jwt`);
          if (usedPaths.has(entry.path))
            throw new PresentationRejected(`${entry.id}: path ${entry.path} is used twice`);
          answered.add(entry.id);
          usedPaths.add(entry.path);
        }
        for (const input of schema.proofInputSchemas) {
          const descriptor = definition.input_descriptors[input.order];
          if (!descriptor) throw new PresentationRejected("the proof schema changed since the request");
          const entry = entries.find((e) => e.id === descriptor.id);
          if (!entry) {
            // with submission requirements a descriptor may stay unanswered; they are checked below
            if (requirements) continue;
            throw new PresentationRejected(`no presentation for input descriptor ${descriptor.id}`);
          }
          const credentialSchema = await storage.credentialSchemas.get(input.credentialSchemaId);
          if (!credentialSchema) throw new PresentationRejected("a requested credential schema no longer exists");
          const presentation = tokenAt(entry.path, vp, descriptor.id);
          verified.push({
            credentialSchema,
            parsed: await verifyOne(
              descriptor.id,
              presentation,
              data,
              credentialSchema,
              requiredPaths(descriptor),
              settings(proof.protocol).leeway,
            ),
          });
        }
        if (requirements) {
          const unmet = unmetSubmissionRequirement(definition, answered);
          if (unmet !== undefined) throw new PresentationRejected(`presentation_submission: ${unmet}`);
        }
      } catch (rejection) {
        if (rejection instanceof PresentationRejected) return fail(proof, interaction.id, rejection.message);
        throw rejection;
      }
      return checks.accept(proof, interaction.id, schema, verified);
    },
  };
}
