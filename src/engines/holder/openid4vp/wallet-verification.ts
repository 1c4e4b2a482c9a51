import type { CredkitConfig } from "../../../config/schema.js";
import type { Credential } from "../../../domain/credential.js";
import type { CredentialSchema } from "../../../domain/credential-schema.js";
import type { DidDocument } from "../../../domain/did.js";
import type { Interaction } from "../../../domain/interaction.js";
import type { Proof } from "../../../domain/proof.js";
import { CredkitError, isCredkitError } from "../../../errors/credkit-error.js";
import type { CredentialFormatter } from "../../../ports/credential-formatter.js";
import type { JwsVerifier } from "../../../providers/jose/verify-jws-signature.js";
import { getKeyAlgorithm } from "../../../providers/registry.js";
import {
  type CredentialQuery,
  type DcqlQuery,
  matchCredentialQuery,
  parseDcqlQuery,
} from "../../../providers/verification/dcql/index.js";
import { parsePemChain } from "../../../providers/x509/index.js";
import { type CallContext, UNSCOPED } from "../../common/call-context.js";
import type { EngineDeps } from "../../common/engine-deps.js";
import { createKeySigner } from "../../common/key-signer.js";
import { requireInScope } from "../../common/organisation-scope.js";
import { parseId } from "../../common/parse-id.js";
import { parseInput } from "../../common/parse-input.js";
import { purposesOf } from "../../common/proof-trust.js";
import { type RemoteHttp, statusError } from "../../common/remote-http.js";
import { datatypeResolver, toClaimDtos } from "../../issuer/credential-claims.js";
import {
  type HandleInvitationResult,
  type RejectPresentationInput,
  rejectPresentationInputSchema,
  type SubmitPresentationInput,
  type SubmitPresentationV1Input,
  submitPresentationInputSchema,
  submitPresentationV1InputSchema,
} from "../holder-inputs.js";
import { checkAuthorizationRequest } from "./authorization-request.js";
import { type HeldSdJwt, listHeldSdJwts, readHeldSdJwt } from "./held-credentials.js";
import { parsePresentationInvitation } from "./invitation.js";
import { failHolderProof, openHolderProof, settleHolderProof } from "./open-holder-proof.js";
import { type PresentationDefinitionV2Dto, toPresentationDefinitionV2 } from "./presentation-definition.js";
import { resolveAuthorizationRequest, SUPPORTED_CLIENT_ID_PREFIXES } from "./request-object.js";
import {
  chooseResponseEncryption,
  encryptResponse,
  SUPPORTED_ENC_VALUES,
  SUPPORTED_ENCRYPTION_ALGS,
} from "./response-encryption.js";
import { receivedTrustInformation, walletTrustAnchors } from "./verifier-trust.js";
import {
  answerDcqlQuery,
  type ClaimSelection,
  type ConcretePath,
  claimSelection,
  concretePaths,
  credentialSetsOf,
  type HeldCredential,
  isPathPrefix,
} from "./wallet-dcql.js";
import { type WalletVerificationData, walletVerificationDataSchema } from "./wallet-verification-data.js";

/** The verificationProtocol type this wallet answers (OpenID4VP 1.0: DCQL, the /v2 presentation endpoints). */
export const OPENID4VP_FINAL1 = "OPENID4VP_FINAL1";
const SD_JWT_VC_FORMAT = "dc+sd-jwt";
const DEFAULT_LEEWAY_SECONDS = 60;
/**
 * The wallet side of OpenID4VP 1.0 (reference §3.7 presentation-definition, §3.8 interaction endpoints, §8 holder
 * proof states): receive a request, show what can answer it, present (direct_post / direct_post.jwt) or refuse.
 */
export interface WalletVerification {
  /** handle-invitation for a presentation request: verifies it, opens an interaction and a REQUESTED holder proof */
  handleInvitation(
    input: { url: string; organisationId: string },
    context: CallContext,
  ): Promise<HandleInvitationResult & { interactionType: "VERIFICATION"; proofId: string }>;
  /** GET /api/proof-request/v2/{id}/presentation-definition */
  presentationDefinitionV2(proofId: string, context?: CallContext): Promise<PresentationDefinitionV2Dto>;
  /** GET /api/proof-request/v1/{id}/presentation-definition: Presentation Exchange, BR_0292 for OpenID4VP 1.0 */
  presentationDefinitionV1(proofId: string, context?: CallContext): Promise<never>;
  /** POST /api/interaction/v2/presentation-submit */
  submit(input: SubmitPresentationInput, context?: CallContext): Promise<void>;
  /** POST /api/interaction/v1/presentation-submit: BR_0292 for OpenID4VP 1.0 requests */
  submitV1(input: SubmitPresentationV1Input, context?: CallContext): Promise<never>;
  /** POST /api/interaction/v1/presentation-reject */
  reject(input: RejectPresentationInput, context?: CallContext): Promise<void>;
}

export interface WalletVerificationOptions {
  config: CredkitConfig;
  dids: { resolve(did: string): Promise<DidDocument> };
  http: RemoteHttp;
  /** the SD_JWT_VC formatter (presentations with key binding) */
  formatter: CredentialFormatter;
  jwsVerifier: JwsVerifier;
}

type ProtocolBlock = Record<string, { type: string; enabled: boolean; params: { public: Record<string, unknown> } }>;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function invalidSubmission(detail: string): CredkitError {
  return new CredkitError("BR_0291", detail);
}

export function createWalletVerification(deps: EngineDeps, options: WalletVerificationOptions): WalletVerification {
  const { storage, providers, clock } = deps;
  const { config, http, formatter } = options;
  const datatype = datatypeResolver(config);
  const registrarAnchors = walletTrustAnchors(config.certificateValidation);
  // the X.509 trust of the x509_san_dns, x509_hash and verifier_attestation prefixes (certificateValidation)
  const x509Trust = {
    trustAnchors: config.certificateValidation.trustAnchors.flatMap((pem) => parsePemChain(pem)),
    leeway: config.certificateValidation.leeway,
    now: () => clock.now(),
  };

  function protocols(): [string, ProtocolBlock[string]][] {
    return Object.entries(config.verificationProtocol as ProtocolBlock).filter(
      ([, entry]) => entry.type === OPENID4VP_FINAL1 && entry.enabled,
    );
  }

  /** The OpenID4VP 1.0 instance for an invitation: the one whose urlScheme is the URL's scheme, else the first. */
  function protocolFor(scheme: string): { name: string; leeway: number; prefixes: string[] } {
    const candidates = protocols();
    const found = candidates.find(([, entry]) => entry.params.public.urlScheme === scheme) ?? candidates[0];
    if (!found) throw new CredkitError("BR_0089", `no enabled verificationProtocol of type ${OPENID4VP_FINAL1}`);
    const [name, entry] = found;
    const leeway = entry.params.public.leeway;
    const holder = entry.params.public.holder as { supportedClientIdSchemes?: unknown } | undefined;
    const prefixes = Array.isArray(holder?.supportedClientIdSchemes)
      ? (holder.supportedClientIdSchemes as unknown[]).filter((p): p is string => typeof p === "string")
      : [...SUPPORTED_CLIENT_ID_PREFIXES];
    return { name, leeway: typeof leeway === "number" && leeway >= 0 ? leeway : DEFAULT_LEEWAY_SECONDS, prefixes };
  }

  function protocolType(proof: Proof): string | undefined {
    return (config.verificationProtocol as ProtocolBlock)[proof.protocol]?.type;
  }

  function leewayOf(proof: Proof): number {
    const leeway = (config.verificationProtocol as ProtocolBlock)[proof.protocol]?.params.public.leeway;
    return typeof leeway === "number" && leeway >= 0 ? leeway : DEFAULT_LEEWAY_SECONDS;
  }

  /** JOSE algs the wallet signs key binding JWTs with. */
  function signingAlgorithms(): string[] {
    return formatter.capabilities.signingAlgorithms;
  }

  /** `wallet_metadata` for request_uri_method=post (OpenID4VP 1.0 §10.1, §5.10); `enabled`: the prefixes enabled. */
  function walletMetadata(prefix: string, enabled: readonly string[]): Record<string, unknown> {
    const algs = signingAlgorithms();
    const prefixes = enabled.map((p) => (p === "did" ? "decentralized_identifier" : p));
    return {
      vp_formats_supported: { [SD_JWT_VC_FORMAT]: { "sd-jwt_alg_values": algs, "kb-jwt_alg_values": algs } },
      response_types_supported: ["vp_token"],
      response_modes_supported: ["direct_post", "direct_post.jwt"],
      client_id_prefixes_supported: SUPPORTED_CLIENT_ID_PREFIXES.filter((p) => prefixes.includes(p)),
      authorization_encryption_alg_values_supported: [...SUPPORTED_ENCRYPTION_ALGS],
      authorization_encryption_enc_values_supported: [...SUPPORTED_ENC_VALUES],
      // §5.10: not for prefixes whose requests are never signed
      ...(prefix !== "redirect_uri" && { request_object_signing_alg_values_supported: algs }),
    };
  }

  // --- loading -----------------------------------------------------------------------------------------------

  function walletData(interaction: Interaction | undefined): WalletVerificationData | undefined {
    if (interaction?.interactionType !== "VERIFICATION") return undefined;
    const parsed = walletVerificationDataSchema.safeParse(interaction.data);
    return parsed.success ? parsed.data : undefined;
  }

  /** A holder proof by id with its interaction; `version` is the endpoint version asked for (BR_0292 on mismatch). */
  async function loadHolderProof(id: string, context: CallContext, version: 1 | 2) {
    const proof = requireInScope(context, await storage.proofs.get(parseId(id, "BR_0012")), "BR_0012", `proof ${id}`);
    if (proof.role !== "HOLDER") {
      throw new CredkitError("BR_0198", `proof ${id} has role ${proof.role}: presentation definitions are for holders`);
    }
    checkVersion(proof, version);
    const interaction = proof.interactionId ? await storage.interactions.get(proof.interactionId) : undefined;
    const data = walletData(interaction);
    if (!interaction || !data) throw new CredkitError("BR_0257", `proof ${id} has no presentation request`);
    return { proof, interaction, data };
  }

  /**
   * The interaction of a submit / reject, its request and its REQUESTED holder proof; `version` is the endpoint
   * version of a submit (reject has one version for all protocols).
   */
  async function loadRequest(interactionId: string, context: CallContext, version?: 1 | 2) {
    const interaction = requireInScope(
      context,
      await storage.interactions.get(parseId(interactionId, "BR_0257")),
      "BR_0257",
      `interaction ${interactionId}`,
    );
    const data = walletData(interaction);
    if (!data) {
      throw new CredkitError(
        "BR_0257",
        `interaction ${interactionId} is not a presentation request received by the wallet`,
      );
    }
    const proof = await storage.proofs.get(data.walletProofId);
    if (proof?.role !== "HOLDER" || proof.interactionId !== interaction.id) {
      throw new CredkitError("BR_0094", `interaction ${interactionId} has no proof`);
    }
    if (version !== undefined) checkVersion(proof, version);
    if (proof.state !== "REQUESTED") {
      throw new CredkitError("BR_0013", `proof ${proof.id} is ${proof.state}: the request was already answered`);
    }
    return { interaction, data, proof };
  }

  /** Platform spec §9: OpenID4VP 1.0 uses the /v2 presentation endpoints, the drafts /v1. */
  function checkVersion(proof: Proof, version: 1 | 2): void {
    const type = protocolType(proof);
    if (type === OPENID4VP_FINAL1) {
      if (version === 1) {
        throw new CredkitError(
          "BR_0292",
          `proof ${proof.id} uses ${proof.protocol} (OpenID4VP 1.0, DCQL): use the /v2 presentation endpoints`,
        );
      }
      return;
    }
    if (version === 2) {
      throw new CredkitError(
        "BR_0292",
        `proof ${proof.id} uses ${proof.protocol}: the /v2 presentation endpoints are for OpenID4VP 1.0`,
      );
    }
    throw new CredkitError("BR_0112", `proof ${proof.id} uses ${proof.protocol}, which this wallet does not support`);
  }

  function parseStoredQuery(data: WalletVerificationData): DcqlQuery {
    return parseDcqlQuery(data.dcqlQuery);
  }

  // --- held credentials -----------------------------------------------------------------------------------------

  /** The DCQL view of a held SD-JWT VC. */
  function toCandidate({ credential, schema, claims, invalidReason }: HeldSdJwt): HeldCredential {
    return {
      credential,
      schema,
      candidate: {
        id: credential.id,
        format: SD_JWT_VC_FORMAT,
        ...(typeof claims.vct === "string" && { vct: claims.vct }),
        claims,
        holderBinding: isObject(claims.cnf) && isObject(claims.cnf.jwk),
      },
      ...(invalidReason !== undefined && { invalidReason }),
    };
  }

  /** The DCQL view of a held SD-JWT VC, or undefined for other formats and unreadable tokens. */
  function toHeld(credential: Credential, schema: CredentialSchema, leeway: number): HeldCredential | undefined {
    const read = readHeldSdJwt(config, credential, schema, leeway, clock.now());
    return read && toCandidate(read);
  }

  async function schemaOf(cache: Map<string, CredentialSchema | undefined>, id: string) {
    if (!cache.has(id)) cache.set(id, await storage.credentialSchemas.get(id));
    return cache.get(id);
  }

  /** The organisation's held credentials that could answer a request (ACCEPTED, and REVOKED / SUSPENDED for hints). */
  async function heldCredentials(organisationId: string, leeway: number): Promise<HeldCredential[]> {
    return (await listHeldSdJwts(deps, config, organisationId, leeway)).map(toCandidate);
  }

  // --- answering ------------------------------------------------------------------------------------------------

  interface PlannedPresentation {
    queryId: string;
    held: HeldCredential;
    disclose: ConcretePath[];
  }

  /**
   * Checks a v2 submission against the request (OpenID4VP 1.0 §6.4, §8.1) and decides what each presentation
   * discloses. BR_0291 for anything that does not answer the request, BR_0099 for revoked / suspended credentials.
   */
  async function planSubmission(
    query: DcqlQuery,
    submission: SubmitPresentationInput["submission"],
    proof: Proof,
    context: CallContext,
  ): Promise<PlannedPresentation[]> {
    const queries = new Map<string, CredentialQuery>(query.credentials.map((q) => [q.id, q]));
    const submitted = Object.keys(submission);
    if (submitted.length === 0) {
      throw new CredkitError("BR_0246", "the submission names no credential query");
    }
    for (const id of submitted) {
      if (!queries.has(id)) {
        throw invalidSubmission(`${JSON.stringify(id)} is not a credential query of the request`);
      }
    }
    // §6.4.2: every required credential set answered by one complete option; nothing outside complete options
    const sets = credentialSetsOf(query);
    const isAnswered = (option: string[]) => option.every((id) => submitted.includes(id));
    for (const set of sets) {
      if (set.required && !set.options.some(isAnswered)) {
        throw invalidSubmission(
          `missing required credential query: answer one of ${set.options.map((o) => `[${o.join(", ")}]`).join(" or ")}`,
        );
      }
    }
    for (const id of submitted) {
      if (!sets.some((set) => set.options.some((option) => option.includes(id) && isAnswered(option)))) {
        throw invalidSubmission(`credential query ${id} is not part of a complete credential set option`);
      }
    }

    const leeway = leewayOf(proof);
    const schemas = new Map<string, CredentialSchema | undefined>();
    const planned: PlannedPresentation[] = [];
    for (const [queryId, value] of Object.entries(submission)) {
      const credentialQuery = queries.get(queryId)!;
      const entries = Array.isArray(value) ? value : [value];
      if (entries.length > 1 && credentialQuery.multiple !== true) {
        throw invalidSubmission(`credential query ${queryId} allows one credential (multiple is false)`);
      }
      const seen = new Set<string>();
      for (const entry of entries) {
        if (seen.has(entry.credentialId)) {
          throw invalidSubmission(`credential ${entry.credentialId} is submitted twice for ${queryId}`);
        }
        seen.add(entry.credentialId);
        const credential = requireInScope(
          context,
          await storage.credentials.get(entry.credentialId),
          "BR_0001",
          `credential ${entry.credentialId}`,
        );
        if (credential.deletedAt !== undefined || credential.organisationId !== proof.organisationId) {
          throw new CredkitError("BR_0001", `credential ${entry.credentialId} not found`);
        }
        if (credential.role !== "HOLDER") {
          throw invalidSubmission(`credential ${credential.id} is not held by this wallet (role ${credential.role})`);
        }
        if (credential.state === "REVOKED" || credential.state === "SUSPENDED") {
          throw new CredkitError("BR_0099", `credential ${credential.id} is ${credential.state}`);
        }
        if (credential.state !== "ACCEPTED") {
          throw new CredkitError("BR_0002", `credential ${credential.id} is ${credential.state}, not ACCEPTED`);
        }
        const schema = await schemaOf(schemas, credential.credentialSchemaId);
        const held = schema ? toHeld(credential, schema, leeway) : undefined;
        if (!held) {
          throw invalidSubmission(`credential ${credential.id} cannot be presented (only SD-JWT VC credentials can)`);
        }
        if (held.invalidReason !== undefined) {
          throw invalidSubmission(`credential ${credential.id} cannot be presented: ${held.invalidReason}`);
        }
        const selection = claimSelection(credentialQuery, held.candidate);
        if (!selection) {
          const mismatch = matchCredentialQuery(credentialQuery, held.candidate);
          throw invalidSubmission(
            `credential ${credential.id} does not satisfy credential query ${queryId}${mismatch.matches ? "" : `: ${mismatch.detail}`}`,
          );
        }
        planned.push({
          queryId,
          held,
          disclose: disclosedPaths(held, selection, entry.userSelections ?? [], queryId),
        });
      }
    }
    return planned;
  }

  /** Required claims plus the optional ones the user selected (a selection outside the request is BR_0291). */
  function disclosedPaths(
    held: HeldCredential,
    selection: ClaimSelection,
    userSelections: readonly string[],
    queryId: string,
  ): ConcretePath[] {
    const document = held.candidate.claims;
    const required = selection.required.flatMap((claim) => concretePaths(document, claim));
    const optional = selection.optional.map((claim) => concretePaths(document, claim));
    const chosen = new Set<number>();
    for (const text of userSelections) {
      const segments = text.split("/");
      const related = (path: ConcretePath) => isPathPrefix(path, segments) || isPathPrefix(segments, path);
      let matched = false;
      optional.forEach((paths, index) => {
        if (paths.some(related)) {
          chosen.add(index);
          matched = true;
        }
      });
      if (!matched && !required.some(related)) {
        throw invalidSubmission(`userSelections: ${text} is not a claim credential query ${queryId} asks for`);
      }
    }
    const paths = [...required, ...[...chosen].flatMap((index) => optional[index]!)];
    const unique = new Map(paths.map((path) => [JSON.stringify(path), path]));
    return [...unique.values()];
  }

  /** The SD-JWT VC presentation of one planned credential, key-bound to the request (`aud` client_id, `nonce`). */
  async function present(plan: PlannedPresentation, data: WalletVerificationData): Promise<string> {
    const { credential } = plan.held;
    let keyBinding: Parameters<CredentialFormatter["createPresentation"]>[1]["keyBinding"];
    if (plan.held.candidate.holderBinding) {
      const key = credential.holderKeyId ? await storage.keys.get(credential.holderKeyId) : undefined;
      if (!key) throw new CredkitError("BR_0037", `the holder key of credential ${credential.id} is not in the wallet`);
      const signer = createKeySigner(providers, key);
      const accepted = kbAlgorithms(data);
      if (accepted !== undefined && !accepted.includes(getKeyAlgorithm(providers, key.keyType).jwsAlgorithm)) {
        throw invalidSubmission(
          `the verifier accepts key binding JWTs signed with ${accepted.join(", ")}; credential ${credential.id} is bound to a ${key.keyType} key`,
        );
      }
      keyBinding = { audience: data.clientId, nonce: data.nonce, issuedAt: clock.now(), signer };
    }
    return formatter.createPresentation(credential.credentialBlob!, {
      disclose: plan.disclose,
      ...(keyBinding !== undefined && { keyBinding }),
    });
  }

  /** `kb-jwt_alg_values` of the verifier's `vp_formats_supported` for dc+sd-jwt, when it lists them. */
  function kbAlgorithms(data: WalletVerificationData): string[] | undefined {
    const format = data.clientMetadata?.vp_formats_supported?.[SD_JWT_VC_FORMAT];
    const values = isObject(format) ? format["kb-jwt_alg_values"] : undefined;
    return Array.isArray(values) && values.every((v) => typeof v === "string") ? (values as string[]) : undefined;
  }

  /**
   * The form body of an Authorization Response (OpenID4VP 1.0 §8.2, §8.3): the parameters plus `state`, each JSON
   * value as JSON text for direct_post; for direct_post.jwt a single `response` holding them as an encrypted JWT.
   */
  async function responseForm(data: WalletVerificationData, parameters: Record<string, unknown>) {
    const all = { ...parameters, ...(data.state !== undefined && { state: data.state }) };
    if (data.responseMode === "direct_post.jwt") {
      return new URLSearchParams({
        response: await encryptResponse(all, chooseResponseEncryption(data.clientMetadata)),
      });
    }
    const form = new URLSearchParams();
    for (const [name, value] of Object.entries(all)) {
      form.set(name, typeof value === "string" ? value : JSON.stringify(value));
    }
    return form;
  }

  /** POSTs the response form to `response_uri`; `redirect_uri` of a JSON answer when the verifier sent one. */
  async function deliver(
    step: string,
    data: WalletVerificationData,
    form: URLSearchParams,
  ): Promise<{ delivered: true; redirectUri?: string } | { delivered: false; error: CredkitError }> {
    try {
      const response = await http.send(step, data.responseUri, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
        body: form.toString(),
      });
      if (!response.ok) return { delivered: false, error: statusError(step, response) };
      let redirectUri: string | undefined;
      try {
        const body: unknown = JSON.parse(response.text);
        if (isObject(body) && typeof body.redirect_uri === "string") redirectUri = body.redirect_uri;
      } catch {
        // §8.2 asks for JSON; a 2xx without it still means the verifier took the response
      }
      return { delivered: true, ...(redirectUri !== undefined && { redirectUri }) };
    } catch (error) {
      if (isCredkitError(error)) return { delivered: false, error };
      throw error;
    }
  }

  /** Ends a proof in ERROR (history ERRORED with the reason) and throws the delivery error. */
  const failDelivery = (proof: Proof, data: WalletVerificationData, error: CredkitError, context: CallContext) =>
    failHolderProof(deps, context, proof, data.clientId, error);
  const settle = (
    proof: Proof,
    interaction: Interaction,
    data: WalletVerificationData,
    outcome: { state: "ACCEPTED" | "REJECTED"; presentedCredentialIds?: string[]; redirectUri?: string },
    context: CallContext,
  ) =>
    settleHolderProof(
      deps,
      context,
      proof,
      interaction,
      data as unknown as { clientId: string } & Record<string, unknown>,
      outcome,
    );

  return {
    async handleInvitation(input, context) {
      const invitation = parsePresentationInvitation(input.url);
      const protocol = protocolFor(invitation.url.protocol.replace(/:$/, ""));
      const resolved = await resolveAuthorizationRequest(invitation, {
        http,
        resolveDid: (did) => options.dids.resolve(did),
        jwsVerifier: options.jwsVerifier,
        enabledPrefixes: protocol.prefixes,
        walletMetadata: (prefix) => walletMetadata(prefix, protocol.prefixes),
        x509: x509Trust,
      });
      const { request } = resolved;
      const now = clock.now();
      const { responseMode } = checkAuthorizationRequest(request, now, protocol.leeway);
      const responseUri = http.checkUrl(request.response_uri!, "response_uri").href;
      parseDcqlQuery(request.dcql_query);
      if (responseMode === "direct_post.jwt") chooseResponseEncryption(request.client_metadata);
      // verifier_info (OpenID4VP 1.0 §5.1): evaluated and kept, never a reason to refuse the request
      const trustInformation = receivedTrustInformation(request, resolved, {
        now,
        leeway: config.certificateValidation.leeway,
        trustAnchors: registrarAnchors,
      });

      const proofId = deps.newId();
      const data: WalletVerificationData = {
        role: "HOLDER",
        walletProofId: proofId,
        clientId: resolved.clientId,
        clientIdPrefix: resolved.prefix,
        ...(resolved.prefix === "decentralized_identifier" && { verifierDid: resolved.clientIdValue }),
        ...(resolved.signingKid !== undefined && { signingKid: resolved.signingKid }),
        ...(resolved.verifierCertificate !== undefined && { verifierCertificate: resolved.verifierCertificate }),
        ...(resolved.verifierAttestation !== undefined && { verifierAttestation: resolved.verifierAttestation }),
        // the response goes exactly where the request said (the checked URL may be normalised)
        responseUri: request.response_uri === responseUri ? responseUri : request.response_uri!,
        responseMode,
        nonce: request.nonce,
        ...(request.state !== undefined && { state: request.state }),
        dcqlQuery: request.dcql_query,
        ...(request.client_metadata !== undefined && { clientMetadata: request.client_metadata }),
        ...(resolved.requestUri !== undefined && { requestUri: resolved.requestUri }),
      };
      return openHolderProof(deps, context, {
        proofId,
        organisationId: input.organisationId,
        protocol: protocol.name,
        data,
        ...(request.exp !== undefined && { expiresAt: new Date(request.exp * 1000) }),
        clientId: resolved.clientId,
        ...(trustInformation !== undefined && { trustInformation }),
      });
    },

    async presentationDefinitionV2(id, context = UNSCOPED) {
      const { proof, data } = await loadHolderProof(id, context, 2);
      if (proof.state !== "REQUESTED") {
        throw new CredkitError("BR_0013", `proof ${proof.id} is ${proof.state}: the request was already answered`);
      }
      const query = parseStoredQuery(data);
      const held = await heldCredentials(proof.organisationId, leewayOf(proof));
      const outcomes = answerDcqlQuery(query, held);
      const holders = new Map<string, Awaited<ReturnType<typeof storage.identifiers.get>>>();
      for (const outcome of outcomes) {
        for (const { held: entry } of outcome.applicable) {
          const holderId = entry.credential.holderIdentifierId;
          if (holderId !== undefined && !holders.has(holderId)) {
            holders.set(holderId, await storage.identifiers.get(holderId));
          }
        }
      }
      return toPresentationDefinitionV2(
        query,
        outcomes,
        (entry) => {
          const holder = entry.credential.holderIdentifierId
            ? holders.get(entry.credential.holderIdentifierId)
            : undefined;
          return {
            claims: toClaimDtos(entry.schema.claims, entry.credential.claims, datatype),
            ...(holder !== undefined && { holder }),
          };
        },
        purposesOf(
          proof.trustInformation,
          query.credentials.map((credentialQuery) => credentialQuery.id),
        ),
      );
    },

    async presentationDefinitionV1(id, context = UNSCOPED) {
      await loadHolderProof(id, context, 1);
      throw new CredkitError("BR_0112", `proof ${id}: Presentation Exchange is not supported`);
    },

    async submit(rawInput, context = UNSCOPED) {
      const input = parseInput(submitPresentationInputSchema, rawInput);
      const { interaction, data, proof } = await loadRequest(input.interactionId, context, 2);
      const query = parseStoredQuery(data);
      const planned = await planSubmission(query, input.submission, proof, context);

      const vpToken: Record<string, string[]> = {};
      for (const plan of planned) {
        const presentation = await present(plan, data);
        const list = vpToken[plan.queryId] ?? [];
        list.push(presentation);
        vpToken[plan.queryId] = list;
      }
      const form = await responseForm(data, { vp_token: vpToken });
      const outcome = await deliver("presentation response", data, form);
      if (!outcome.delivered) return failDelivery(proof, data, outcome.error, context);
      await settle(
        proof,
        interaction,
        data,
        {
          state: "ACCEPTED",
          presentedCredentialIds: [...new Set(planned.map((plan) => plan.held.credential.id))],
          ...(outcome.redirectUri !== undefined && { redirectUri: outcome.redirectUri }),
        },
        context,
      );
    },

    async submitV1(rawInput, context = UNSCOPED) {
      const input = parseInput(submitPresentationV1InputSchema, rawInput);
      await loadRequest(input.interactionId, context, 1);
      throw new CredkitError("BR_0112", "Presentation Exchange submissions are not supported");
    },

    async reject(rawInput, context = UNSCOPED) {
      const input = parseInput(rejectPresentationInputSchema, rawInput);
      const { interaction, data, proof } = await loadRequest(input.interactionId, context);
      // §8.5 access_denied: the End-User did not consent; in the request's response mode (§5.4), so encrypted for
      // direct_post.jwt
      const form = await responseForm(data, { error: "access_denied" });
      const outcome = await deliver("presentation rejection", data, form);
      if (!outcome.delivered) return failDelivery(proof, data, outcome.error, context);
      await settle(
        proof,
        interaction,
        data,
        { state: "REJECTED", ...(outcome.redirectUri !== undefined && { redirectUri: outcome.redirectUri }) },
        context,
      );
    },
  };
}
