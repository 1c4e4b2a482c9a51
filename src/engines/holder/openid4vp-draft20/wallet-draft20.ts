import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { CredkitConfig } from "../../../config/schema.js";
import type { Credential } from "../../../domain/credential.js";
import type { CredentialSchema } from "../../../domain/credential-schema.js";
import type { DidDocument } from "../../../domain/did.js";
import type { Interaction } from "../../../domain/interaction.js";
import type { Proof } from "../../../domain/proof.js";
import { CredkitError, isCredkitError } from "../../../errors/credkit-error.js";
import type { CredentialFormatter } from "../../../ports/credential-formatter.js";
import type { PublicJwk } from "../../../ports/key-algorithm.js";
import { jsonDepthExceeds, MAX_JSON_DEPTH } from "../../../providers/jose/json-depth.js";
import type { JwsVerifier } from "../../../providers/jose/verify-jws-signature.js";
import { parsePemChain } from "../../../providers/x509/index.js";
import { type CallContext, UNSCOPED } from "../../common/call-context.js";
import type { EngineDeps } from "../../common/engine-deps.js";
import { createKeySigner } from "../../common/key-signer.js";
import { requireInScope } from "../../common/organisation-scope.js";
import { parseId } from "../../common/parse-id.js";
import { parseInput } from "../../common/parse-input.js";
import { type RemoteHttp, statusError } from "../../common/remote-http.js";
import { type ClaimDto, datatypeResolver, toClaimDtos } from "../../issuer/credential-claims.js";
import { type CredentialDetailDto, toCredentialDetail } from "../../issuer/credential-dto.js";
import {
  PEX_SD_JWT_FORMATS,
  type PexField,
  type PexInputDescriptor,
  type PexPresentationDefinition,
  type PexSubmissionRequirement,
  parseJsonPath,
  submissionRequirementsProblem,
  unmetSubmissionRequirement,
} from "../../verifier/openid4vp-draft20/presentation-definition.js";
import {
  type HandleInvitationResult,
  type SubmitPresentationV1Input,
  submitPresentationV1InputSchema,
} from "../holder-inputs.js";
import {
  type ClientMetadata,
  parseAuthorizationRequest,
  requestFromParameters,
} from "../openid4vp/authorization-request.js";
import { type HeldSdJwt, listHeldSdJwts, readHeldSdJwt } from "../openid4vp/held-credentials.js";
import { failHolderProof, openHolderProof, settleHolderProof } from "../openid4vp/open-holder-proof.js";
import { decodeRequestObject, REQUEST_OBJECT_TYP } from "../openid4vp/request-object.js";
import { chooseResponseEncryption, encryptResponse } from "../openid4vp/response-encryption.js";
import {
  type AuthenticatedCertificate,
  authenticateCertificateRequest,
  checkSanDnsResponseUri,
} from "../openid4vp/verifier-authentication.js";

export const OPENID4VP_DRAFT20 = "OPENID4VP_DRAFT20";
const DEFAULT_LEEWAY_SECONDS = 60;
const SUPPORTED_SCHEMES = ["redirect_uri", "did", "x509_san_dns"] as const;
type Draft20Scheme = (typeof SUPPORTED_SCHEMES)[number];

/** GET /api/proof-request/v1/{id}/presentation-definition (reference §3.7, Presentation Exchange shape). */
export interface PresentationDefinitionV1Dto {
  requestGroups: {
    id: string;
    name?: string;
    purpose?: string;
    rule: { type: "all" | "pick"; min?: number; max?: number; count?: number };
    requestedCredentials: {
      id: string;
      name?: string;
      purpose?: string;
      fields: { id: string; name?: string; purpose?: string; required: boolean; keyMap: Record<string, string> }[];
      applicableCredentials: string[];
      inapplicableCredentials: string[];
      multiple: boolean;
    }[];
  }[];
  credentials: (CredentialDetailDto & { claims: ClaimDto[] })[];
}

/**
 * `Interaction.data` of a draft-20 request received by the wallet. It carries the members the OpenID4VP 1.0 wallet
 * reads (role, walletProofId, clientId, clientIdPrefix, responseUri, responseMode, nonce, state), so that
 * presentation-reject and the BR_0292 version check work for it unchanged.
 */
export interface WalletDraft20Data {
  role: "HOLDER";
  version: "draft-20";
  walletProofId: string;
  clientId: string;
  clientIdScheme: Draft20Scheme;
  clientIdPrefix: "redirect_uri" | "decentralized_identifier" | "x509_san_dns";
  verifierDid?: string;
  signingKid?: string;
  /** x509_san_dns: the verifier's leaf certificate, validated up to a trust anchor (verifier-authentication.ts) */
  verifierCertificate?: AuthenticatedCertificate;
  responseUri: string;
  /** direct_post.jwt (draft 20 §6.3): the response travels as a JWE to a key of `clientMetadata.jwks` */
  responseMode: "direct_post" | "direct_post.jwt";
  nonce: string;
  state?: string;
  presentationDefinition: PexPresentationDefinition;
  /** where the definition was fetched from, when the request passed it by reference (draft 20 §5.1) */
  presentationDefinitionUri?: string;
  /** always null: a draft-20 request has no DCQL query (present so the OpenID4VP 1.0 wallet reads the data) */
  dcqlQuery: null;
  /**
   * the request's `client_metadata`; for direct_post.jwt its `authorization_encrypted_response_enc` is also listed as
   * `encrypted_response_enc_values_supported`, so that the shared encryption helpers (and presentation-reject) use it
   */
  clientMetadata?: Record<string, unknown>;
  requestUri?: string;
  verifierRedirectUri?: string;
}

export interface WalletDraft20Options {
  config: CredkitConfig;
  dids: { resolve(did: string): Promise<DidDocument> };
  http: RemoteHttp;
  formatter: CredentialFormatter;
  jwsVerifier: JwsVerifier;
}

export interface WalletDraft20 {
  handleInvitation(
    input: { url: string; organisationId: string },
    context: CallContext,
  ): Promise<HandleInvitationResult & { interactionType: "VERIFICATION"; proofId: string }>;
  /** whether a proof is a draft-20 holder proof (the /v1 presentation endpoints answer it) */
  ownsProof(proofId: string): Promise<boolean>;
  /** whether an interaction is a draft-20 request received by the wallet */
  ownsInteraction(interactionId: string): Promise<boolean>;
  presentationDefinitionV1(proofId: string, context?: CallContext): Promise<PresentationDefinitionV1Dto>;
  submitV1(input: SubmitPresentationV1Input, context?: CallContext): Promise<void>;
}

function invalid(detail: string): CredkitError {
  return new CredkitError("BR_0085", detail);
}

function invalidSubmission(detail: string): CredkitError {
  return new CredkitError("BR_0291", detail);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function detailOf(error: unknown): string {
  if (isCredkitError(error)) return error.detail ?? error.message;
  return error instanceof Error ? error.message : String(error);
}

function isDraft20WalletData(data: unknown): data is WalletDraft20Data {
  return isObject(data) && data.role === "HOLDER" && data.version === "draft-20";
}

/** Whether an invitation is an OpenID4VP draft-20 request: the draft-20 URL scheme or a `client_id_scheme` parameter. */
export function isDraft20Invitation(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.searchParams.has("credential_offer") || parsed.searchParams.has("credential_offer_uri")) return false;
  // a request with a prefixed client_id and no client_id_scheme is OpenID4VP 1.0 (which refuses Presentation Exchange)
  return parsed.protocol === "openid4vp-draft20:" || parsed.searchParams.has("client_id_scheme");
}

type PathSegment = string | number | null;
type ConcretePath = (string | number)[];

/** Concrete paths (`["nationalities", 0]`) a path with wildcards reaches in a document, with their values. */
function resolvePath(document: unknown, path: readonly PathSegment[]): { path: ConcretePath; value: unknown }[] {
  let current: { path: ConcretePath; value: unknown }[] = [{ path: [], value: document }];
  for (const segment of path) {
    const next: { path: ConcretePath; value: unknown }[] = [];
    for (const { path: at, value } of current) {
      if (segment === null) {
        if (Array.isArray(value)) for (const [i, item] of value.entries()) next.push({ path: [...at, i], value: item });
      } else if (typeof segment === "number") {
        if (Array.isArray(value) && segment < value.length)
          next.push({ path: [...at, segment], value: value[segment] });
      } else if (isObject(value) && Object.hasOwn(value, segment)) {
        next.push({ path: [...at, segment], value: value[segment] });
      }
    }
    current = next;
  }
  return current;
}

/** The JSON Schema subset of PEX filters: type, const, enum, pattern. */
function matchesFilter(value: unknown, filter: Record<string, unknown>): boolean {
  if (filter.type === "string" && typeof value !== "string") return false;
  if (filter.type === "number" && typeof value !== "number") return false;
  if (filter.type === "boolean" && typeof value !== "boolean") return false;
  if ("const" in filter && filter.const !== value) return false;
  if (Array.isArray(filter.enum) && !filter.enum.includes(value)) return false;
  if (typeof filter.pattern === "string" && (typeof value !== "string" || !new RegExp(filter.pattern).test(value)))
    return false;
  return true;
}

/** The first path of a field that reaches something in the document (PEX 2.0 §5.1.1.1: paths are alternatives). */
function fieldMatches(document: unknown, field: PexField): { path: PathSegment[]; hits: ConcretePath[] } | undefined {
  for (const text of field.path) {
    const path = parseJsonPath(text);
    if (!path) continue;
    const hits = resolvePath(document, path).filter(
      (hit) => field.filter === undefined || matchesFilter(hit.value, field.filter),
    );
    if (hits.length > 0)
      return {
        path,
        hits: hits.map((h) => h.path),
      };
  }
  return undefined;
}

/** Why a claims document does not answer an input descriptor, or undefined when it does. */
function descriptorMismatch(descriptor: PexInputDescriptor, document: unknown): string | undefined {
  for (const field of descriptor.constraints.fields ?? []) {
    if (field.optional === true) continue;
    if (!fieldMatches(document, field))
      return field.filter !== undefined
        ? `${field.path.join(" | ")} does not match the filter`
        : `${field.path.join(" | ")} is missing`;
  }
  return undefined;
}

/** Whether a descriptor is a `vct` / type constraint of the credential (not a claim to disclose). */
function isClaimField(field: PexField): boolean {
  return field.filter === undefined;
}

function fieldIdOf(descriptor: PexInputDescriptor, field: PexField, index: number): string {
  return field.id ?? `${descriptor.id}.${index}`;
}

function slashPath(path: readonly PathSegment[]): string {
  return path.filter((s): s is string | number => s !== null).join("/");
}

/**
 * The `client_metadata` of a direct_post.jwt request (draft 20 §6.3, JARM): the key comes from `jwks`, the algorithms
 * from `authorization_encrypted_response_alg` (ECDH-ES, the default when absent) and `authorization_encrypted_response_enc`
 * (A128GCM when absent, as the OpenID4VP 1.0 helper does). The `enc` is copied to `encrypted_response_enc_values_supported`
 * so the shared helper picks it; BR_0085 when nothing this wallet supports fits.
 */
function encryptionMetadata(metadata: ClientMetadata | undefined): Record<string, unknown> {
  const alg = metadata?.authorization_encrypted_response_alg;
  if (alg !== undefined && alg !== "ECDH-ES")
    throw invalid(`authorization_encrypted_response_alg ${JSON.stringify(alg)} is not supported (ECDH-ES)`);
  const enc = metadata?.authorization_encrypted_response_enc;
  const normalised: ClientMetadata = {
    ...metadata,
    ...(typeof enc === "string" &&
      metadata?.encrypted_response_enc_values_supported === undefined && {
        encrypted_response_enc_values_supported: [enc],
      }),
  };
  chooseResponseEncryption(normalised);
  return normalised;
}

/** A /v1 request group: one per top-level submission requirement, or the whole definition when it has none. */
interface RequestGroup {
  id: string;
  name?: string;
  purpose?: string;
  rule: PresentationDefinitionV1Dto["requestGroups"][number]["rule"];
  descriptorIds: string[];
}

/**
 * The request groups of a definition (GET /api/proof-request/v1/{id}/presentation-definition): without submission
 * requirements one group `all` of every input descriptor; with them one group per top-level requirement, holding the
 * descriptors of its `from` group (of every group below it for `from_nested`, whose rule then counts the nested
 * requirements), its rule with `count` / `min` / `max`.
 */
function requestGroupsOf(definition: PexPresentationDefinition): RequestGroup[] {
  const requirements = definition.submission_requirements;
  if (requirements === undefined) {
    return [
      {
        id: definition.id,
        ...(definition.name !== undefined && { name: definition.name }),
        ...(definition.purpose !== undefined && { purpose: definition.purpose }),
        rule: { type: "all" },
        descriptorIds: definition.input_descriptors.map((d) => d.id),
      },
    ];
  }
  const groupsBelow = (requirement: PexSubmissionRequirement): string[] =>
    requirement.from !== undefined ? [requirement.from] : (requirement.from_nested ?? []).flatMap(groupsBelow);
  const used = new Set<string>();
  return requirements.map((requirement, index) => {
    const groups = groupsBelow(requirement);
    let id = requirement.from ?? requirement.name ?? `requirement_${index}`;
    if (used.has(id)) id = `${id}_${index}`;
    used.add(id);
    return {
      id,
      ...(requirement.name !== undefined && { name: requirement.name }),
      ...(requirement.purpose !== undefined && { purpose: requirement.purpose }),
      rule: {
        type: requirement.rule,
        ...(requirement.count !== undefined && { count: requirement.count }),
        ...(requirement.min !== undefined && { min: requirement.min }),
        ...(requirement.max !== undefined && { max: requirement.max }),
      },
      descriptorIds: definition.input_descriptors
        .filter((d) => (d.group ?? []).some((g) => groups.includes(g)))
        .map((d) => d.id),
    };
  });
}

/** The wallet side of OpenID4VP draft 20 with Presentation Exchange (the /v1 presentation endpoints). */
export function createWalletDraft20(deps: EngineDeps, options: WalletDraft20Options): WalletDraft20 {
  const { storage, providers, clock } = deps;
  const { config, http, formatter } = options;
  const datatype = datatypeResolver(config);
  // the X.509 trust of client_id_scheme x509_san_dns (certificateValidation)
  const x509Trust = {
    trustAnchors: config.certificateValidation.trustAnchors.flatMap((pem) => parsePemChain(pem)),
    leeway: config.certificateValidation.leeway,
  };
  type ProtocolBlock = Record<string, { type: string; enabled: boolean; params: { public: Record<string, unknown> } }>;
  const protocolBlock = () => config.verificationProtocol as ProtocolBlock;

  function protocolFor(scheme: string): { name: string; leeway: number; schemes: string[] } {
    const candidates = Object.entries(protocolBlock()).filter(
      ([, entry]) => entry.type === OPENID4VP_DRAFT20 && entry.enabled,
    );
    const found = candidates.find(([, entry]) => entry.params.public.urlScheme === scheme) ?? candidates[0];
    if (!found) throw new CredkitError("BR_0089", `no enabled verificationProtocol of type ${OPENID4VP_DRAFT20}`);
    const [name, entry] = found;
    const leeway = entry.params.public.leeway;
    const holder = entry.params.public.holder as { supportedClientIdSchemes?: unknown } | undefined;
    const schemes = Array.isArray(holder?.supportedClientIdSchemes)
      ? (holder.supportedClientIdSchemes as unknown[]).filter((p): p is string => typeof p === "string")
      : [...SUPPORTED_SCHEMES];
    return { name, leeway: typeof leeway === "number" && leeway >= 0 ? leeway : DEFAULT_LEEWAY_SECONDS, schemes };
  }

  function leewayOf(proof: Proof): number {
    const leeway = protocolBlock()[proof.protocol]?.params.public.leeway;
    return typeof leeway === "number" && leeway >= 0 ? leeway : DEFAULT_LEEWAY_SECONDS;
  }

  async function verifyDidSignature(decoded: ReturnType<typeof decodeRequestObject>, did: string): Promise<string> {
    if (!did.startsWith("did:")) throw invalid(`client_id ${JSON.stringify(did)} is not a DID`);
    const kid = decoded.header.kid;
    if (typeof kid !== "string" || !kid.startsWith(`${did}#`)) {
      throw invalid(`the request object's kid must be a DID URL of ${did}, got ${JSON.stringify(kid ?? null)}`);
    }
    let document: DidDocument;
    try {
      document = await options.dids.resolve(did);
    } catch (error) {
      throw invalid(`the verifier DID ${did} could not be resolved: ${detailOf(error)}`);
    }
    const absolute = (id: string) => (id.startsWith("#") ? `${did}${id}` : id);
    const method = (document.verificationMethod ?? []).find((candidate) => absolute(candidate.id) === kid);
    if (!method?.publicKeyJwk) throw invalid(`the DID document of ${did} has no usable verification method ${kid}`);
    let valid: boolean;
    try {
      valid = options.jwsVerifier.verify(
        decoded.header.alg as string,
        method.publicKeyJwk as PublicJwk,
        decoded.signingInput,
        decoded.signature,
      );
    } catch (error) {
      throw invalid(`the request object signature could not be checked: ${detailOf(error)}`);
    }
    if (!valid) throw invalid(`the request object signature does not verify with ${kid}`);
    return kid;
  }

  /** Fetches and authenticates a draft-20 request (client_id_scheme redirect_uri or did). */
  async function resolveRequest(url: URL, enabled: string[]) {
    const params = url.searchParams;
    const clientId = params.get("client_id");
    if (!clientId) throw invalid("the presentation request has no client_id");
    const scheme = params.get("client_id_scheme") ?? "redirect_uri";
    const normalised = scheme === "decentralized_identifier" ? "did" : scheme;
    if (!(SUPPORTED_SCHEMES as readonly string[]).includes(normalised))
      throw invalid(`unsupported client_id_scheme: ${scheme}`);
    if (!enabled.map((s) => (s === "decentralized_identifier" ? "did" : s)).includes(normalised))
      throw invalid(`client_id_scheme ${scheme} is not enabled for the wallet`);
    const clientIdScheme = normalised as Draft20Scheme;
    const requestUriParam = params.get("request_uri");
    const requestParam = params.get("request");
    if (requestUriParam !== null && requestParam !== null)
      throw invalid("the request carries both request and request_uri");
    let jwt: string | undefined;
    let requestUri: string | undefined;
    if (requestUriParam !== null) {
      requestUri = http.checkUrl(requestUriParam, "request_uri").href;
      const response = await http.send("request object", requestUri, {
        headers: { accept: `application/${REQUEST_OBJECT_TYP}` },
      });
      if (!response.ok) throw statusError("request object", response);
      jwt = response.text;
    } else if (requestParam !== null) jwt = requestParam;

    let raw: Record<string, unknown>;
    let signingKid: string | undefined;
    let verifierCertificate: AuthenticatedCertificate | undefined;
    if (jwt === undefined) {
      if (clientIdScheme !== "redirect_uri")
        throw invalid(`a ${clientIdScheme} request must be a signed request object`);
      raw = requestFromParameters(params);
    } else {
      const decoded = decodeRequestObject(jwt);
      if (decoded.header.typ !== undefined && decoded.header.typ !== REQUEST_OBJECT_TYP && decoded.header.typ !== "JWT")
        throw invalid(`request object typ ${JSON.stringify(decoded.header.typ)} is not ${REQUEST_OBJECT_TYP}`);
      const alg = decoded.header.alg;
      if (typeof alg !== "string" || alg === "") throw invalid("request object header has no alg");
      const unsigned = alg.toLowerCase() === "none";
      if (clientIdScheme === "redirect_uri") {
        if (!unsigned) throw invalid("a redirect_uri request must not be signed: alg must be none");
        if (decoded.signature.length !== 0)
          throw invalid("an unsigned (alg none) request object must have no signature");
      } else {
        if (unsigned) throw invalid(`a ${clientIdScheme} request must be signed: alg none is not accepted`);
        if (clientIdScheme === "x509_san_dns") {
          // as OpenID4VP 1.0 §5.9.3: x5c chain to a trust anchor, client_id a dNSName SAN of the leaf, signed by it
          verifierCertificate = authenticateCertificateRequest(decoded, "x509_san_dns", clientId, {
            ...x509Trust,
            now: clock.now(),
            jwsVerifier: options.jwsVerifier,
          });
        } else signingKid = await verifyDidSignature(decoded, clientId);
      }
      raw = decoded.payload;
    }
    const request = parseAuthorizationRequest(raw);
    if (request.client_id !== clientId)
      throw invalid(`the request's client_id ${JSON.stringify(request.client_id)} is not the invitation's`);
    const claimedScheme = raw.client_id_scheme;
    if (claimedScheme !== undefined && claimedScheme !== scheme)
      throw invalid(`the request's client_id_scheme ${JSON.stringify(claimedScheme)} is not the invitation's`);
    if (request.response_type !== "vp_token") throw invalid(`response_type ${request.response_type} is not vp_token`);
    const responseMode = request.response_mode;
    if (responseMode !== "direct_post" && responseMode !== "direct_post.jwt")
      throw invalid(
        `response_mode ${JSON.stringify(responseMode ?? null)} is not supported (direct_post, direct_post.jwt)`,
      );
    if (request.response_uri === undefined) throw invalid(`response_uri is required with ${responseMode}`);
    const clientMetadata =
      responseMode === "direct_post.jwt"
        ? encryptionMetadata(request.client_metadata)
        : (request.client_metadata as Record<string, unknown> | undefined);
    if (clientIdScheme === "redirect_uri" && request.response_uri !== clientId)
      throw invalid("with client_id_scheme redirect_uri the response_uri must equal the client_id");
    if (clientIdScheme === "x509_san_dns") checkSanDnsResponseUri(clientId, request);
    let definition = request.presentation_definition;
    let presentationDefinitionUri: string | undefined;
    if (request.presentation_definition_uri !== undefined) {
      // draft 20 §5.1: by reference, fetched with GET; exactly one of the two may be present
      if (definition !== undefined)
        throw invalid("the request carries both presentation_definition and presentation_definition_uri");
      presentationDefinitionUri = http.checkUrl(
        request.presentation_definition_uri,
        "presentation_definition_uri",
      ).href;
      definition = await http.getJson(
        "presentation definition",
        presentationDefinitionUri,
        z.record(z.string(), z.unknown()),
        "BR_0085",
      );
      if (jsonDepthExceeds(definition))
        throw invalid(`the presentation definition is nested deeper than ${MAX_JSON_DEPTH} levels`);
    }
    if (
      !isObject(definition) ||
      typeof definition.id !== "string" ||
      !Array.isArray(definition.input_descriptors) ||
      definition.input_descriptors.length === 0
    )
      throw invalid("the request has no presentation_definition with input_descriptors");
    for (const descriptor of definition.input_descriptors) {
      if (!isObject(descriptor) || typeof descriptor.id !== "string")
        throw invalid("every input descriptor needs an id");
      const fields = isObject(descriptor.constraints) ? descriptor.constraints.fields : undefined;
      if (
        fields !== undefined &&
        (!Array.isArray(fields) || fields.some((f) => !isObject(f) || !Array.isArray(f.path)))
      )
        throw invalid(`input descriptor ${descriptor.id}: every field needs a path array`);
      if (
        descriptor.group !== undefined &&
        (!Array.isArray(descriptor.group) || descriptor.group.some((g) => typeof g !== "string"))
      )
        throw invalid(`input descriptor ${descriptor.id}: group must be an array of strings`);
    }
    const requirementsProblem = submissionRequirementsProblem(definition as unknown as PexPresentationDefinition);
    if (requirementsProblem !== undefined) throw invalid(`presentation_definition: ${requirementsProblem}`);
    const now = clock.now().getTime() / 1000;
    return {
      request,
      clientId,
      clientIdScheme,
      responseMode: responseMode as WalletDraft20Data["responseMode"],
      ...(clientMetadata !== undefined && { clientMetadata }),
      definition: definition as unknown as PexPresentationDefinition,
      ...(presentationDefinitionUri !== undefined && { presentationDefinitionUri }),
      ...(signingKid !== undefined && { signingKid }),
      ...(verifierCertificate !== undefined && { verifierCertificate }),
      ...(requestUri !== undefined && { requestUri }),
      now,
    };
  }

  async function loadProof(id: string, context: CallContext) {
    const proof = requireInScope(context, await storage.proofs.get(parseId(id, "BR_0012")), "BR_0012", `proof ${id}`);
    if (proof.role !== "HOLDER")
      throw new CredkitError("BR_0198", `proof ${id} has role ${proof.role}: presentation definitions are for holders`);
    const interaction = proof.interactionId ? await storage.interactions.get(proof.interactionId) : undefined;
    if (!interaction || !isDraft20WalletData(interaction.data))
      throw new CredkitError("BR_0257", `proof ${id} has no presentation request`);
    return { proof, interaction, data: interaction.data };
  }

  interface Held {
    credential: Credential;
    schema: CredentialSchema;
    document: Record<string, unknown>;
    invalidReason?: string;
  }

  const asHeld = ({ credential, schema, claims, invalidReason }: HeldSdJwt): Held => ({
    credential,
    schema,
    document: claims,
    ...(invalidReason !== undefined && { invalidReason }),
  });

  function toHeld(credential: Credential, schema: CredentialSchema, leeway: number): Held | undefined {
    const read = readHeldSdJwt(config, credential, schema, leeway, clock.now());
    return read && asHeld(read);
  }

  async function heldCredentials(organisationId: string, leeway: number): Promise<Held[]> {
    return (await listHeldSdJwts(deps, config, organisationId, leeway)).map(asHeld);
  }

  function formatAccepted(descriptor: PexInputDescriptor, definition: PexPresentationDefinition): boolean {
    const format = descriptor.format ?? (definition as { format?: Record<string, unknown> }).format;
    return format === undefined || PEX_SD_JWT_FORMATS.some((f) => f in format);
  }

  async function deliver(step: string, data: WalletDraft20Data, form: URLSearchParams) {
    try {
      const response = await http.send(step, data.responseUri, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
        body: form.toString(),
      });
      if (!response.ok) return { delivered: false as const, error: statusError(step, response) };
      let redirectUri: string | undefined;
      try {
        const body: unknown = JSON.parse(response.text);
        if (isObject(body) && typeof body.redirect_uri === "string") redirectUri = body.redirect_uri;
      } catch {
        // a 2xx without JSON still means the verifier took the response
      }
      return { delivered: true as const, ...(redirectUri !== undefined && { redirectUri }) };
    } catch (error) {
      if (isCredkitError(error)) return { delivered: false as const, error };
      throw error;
    }
  }

  const failDelivery = (proof: Proof, data: WalletDraft20Data, error: CredkitError, context: CallContext) =>
    failHolderProof(deps, context, proof, data.clientId, error);
  const settle = (
    proof: Proof,
    interaction: Interaction,
    data: WalletDraft20Data,
    presentedCredentialIds: string[],
    redirectUri: string | undefined,
    context: CallContext,
  ) =>
    settleHolderProof(
      deps,
      context,
      proof,
      interaction,
      data as unknown as { clientId: string } & Record<string, unknown>,
      {
        state: "ACCEPTED",
        presentedCredentialIds,
        ...(redirectUri !== undefined && { redirectUri }),
      },
    );

  return {
    async handleInvitation(input, context) {
      const url = new URL(input.url);
      const protocol = protocolFor(url.protocol.replace(/:$/, ""));
      const resolved = await resolveRequest(url, protocol.schemes);
      const { request } = resolved;
      if (request.exp !== undefined && request.exp + protocol.leeway < resolved.now)
        throw invalid(`the request object expired at ${new Date(request.exp * 1000).toISOString()}`);
      if (request.nbf !== undefined && request.nbf - protocol.leeway > resolved.now)
        throw invalid("the request object is not valid yet");
      const responseUri = http.checkUrl(request.response_uri!, "response_uri").href;
      const proofId = deps.newId();
      const data: WalletDraft20Data = {
        role: "HOLDER",
        version: "draft-20",
        walletProofId: proofId,
        clientId: resolved.clientId,
        clientIdScheme: resolved.clientIdScheme,
        clientIdPrefix: resolved.clientIdScheme === "did" ? "decentralized_identifier" : resolved.clientIdScheme,
        ...(resolved.verifierCertificate !== undefined && { verifierCertificate: resolved.verifierCertificate }),
        ...(resolved.clientIdScheme === "did" && { verifierDid: resolved.clientId }),
        ...(resolved.signingKid !== undefined && { signingKid: resolved.signingKid }),
        responseUri: request.response_uri === responseUri ? responseUri : request.response_uri!,
        responseMode: resolved.responseMode,
        nonce: request.nonce,
        ...(request.state !== undefined && { state: request.state }),
        presentationDefinition: resolved.definition,
        ...(resolved.presentationDefinitionUri !== undefined && {
          presentationDefinitionUri: resolved.presentationDefinitionUri,
        }),
        dcqlQuery: null,
        ...(resolved.clientMetadata !== undefined && { clientMetadata: resolved.clientMetadata }),
        ...(resolved.requestUri !== undefined && { requestUri: resolved.requestUri }),
      };
      return openHolderProof(deps, context, {
        proofId,
        organisationId: input.organisationId,
        protocol: protocol.name,
        data,
        ...(request.exp !== undefined && { expiresAt: new Date(request.exp * 1000) }),
        clientId: resolved.clientId,
      });
    },

    async ownsProof(proofId) {
      if (!/^[0-9a-f-]{36}$/i.test(proofId)) return false;
      const proof = await storage.proofs.get(proofId);
      if (proof?.role !== "HOLDER" || !proof.interactionId) return false;
      return protocolBlock()[proof.protocol]?.type === OPENID4VP_DRAFT20;
    },

    async ownsInteraction(interactionId) {
      if (!/^[0-9a-f-]{36}$/i.test(interactionId)) return false;
      const interaction = await storage.interactions.get(interactionId);
      return isDraft20WalletData(interaction?.data);
    },

    async presentationDefinitionV1(id, context = UNSCOPED) {
      const { proof, data } = await loadProof(id, context);
      if (proof.state !== "REQUESTED")
        throw new CredkitError("BR_0013", `proof ${proof.id} is ${proof.state}: the request was already answered`);
      const definition = data.presentationDefinition;
      const held = await heldCredentials(proof.organisationId, leewayOf(proof));
      const mentioned = new Map<string, Held>();
      const requestedCredentials = definition.input_descriptors.map((descriptor) => {
        const applicable: Held[] = [];
        const inapplicable: Held[] = [];
        if (formatAccepted(descriptor, definition)) {
          for (const entry of held) {
            const filters = (descriptor.constraints.fields ?? []).filter((f) => !isClaimField(f));
            const sameKind = filters.every((f) => f.optional === true || fieldMatches(entry.document, f));
            if (!sameKind) continue;
            if (entry.invalidReason === undefined && descriptorMismatch(descriptor, entry.document) === undefined)
              applicable.push(entry);
            else inapplicable.push(entry);
          }
        }
        for (const entry of [...applicable, ...inapplicable]) mentioned.set(entry.credential.id, entry);
        const fields = (descriptor.constraints.fields ?? []).flatMap((field, index) => {
          if (!isClaimField(field)) return [];
          const keyMap: Record<string, string> = {};
          for (const entry of [...applicable, ...inapplicable]) {
            const match = fieldMatches(entry.document, field);
            if (match) keyMap[entry.credential.id] = slashPath(match.path);
          }
          const firstPath = parseJsonPath(field.path[0] ?? "");
          return [
            {
              id: fieldIdOf(descriptor, field, index),
              name: field.name ?? (firstPath ? slashPath(firstPath) : field.path[0]!),
              ...(field.purpose !== undefined && { purpose: field.purpose }),
              required: field.optional !== true,
              keyMap,
            },
          ];
        });
        return {
          id: descriptor.id,
          ...(descriptor.name !== undefined && { name: descriptor.name }),
          ...(descriptor.purpose !== undefined && { purpose: descriptor.purpose }),
          fields,
          applicableCredentials: applicable.map((e) => e.credential.id),
          inapplicableCredentials: inapplicable.map((e) => e.credential.id),
          multiple: false,
        };
      });
      const credentials = [];
      for (const entry of mentioned.values()) {
        const holderId = entry.credential.holderIdentifierId;
        const holder = holderId !== undefined ? await storage.identifiers.get(holderId) : undefined;
        const claims = toClaimDtos(entry.schema.claims, entry.credential.claims, datatype);
        credentials.push(
          toCredentialDetail(
            entry.credential,
            { schema: entry.schema, ...(holder !== undefined && { holder }) },
            claims,
          ),
        );
      }
      const byId = new Map(requestedCredentials.map((r) => [r.id, r]));
      return {
        requestGroups: requestGroupsOf(definition).map(({ descriptorIds, ...group }) => ({
          ...group,
          requestedCredentials: descriptorIds.map((id) => byId.get(id)!),
        })),
        credentials: credentials as PresentationDefinitionV1Dto["credentials"],
      };
    },

    async submitV1(rawInput, context = UNSCOPED) {
      const input = parseInput(submitPresentationV1InputSchema, rawInput);
      const interaction = requireInScope(
        context,
        await storage.interactions.get(parseId(input.interactionId, "BR_0257")),
        "BR_0257",
        `interaction ${input.interactionId}`,
      );
      if (!isDraft20WalletData(interaction.data))
        throw new CredkitError("BR_0257", `interaction ${input.interactionId} is not a draft-20 presentation request`);
      const data = interaction.data;
      const proof = await storage.proofs.get(data.walletProofId);
      if (proof?.role !== "HOLDER" || proof.interactionId !== interaction.id)
        throw new CredkitError("BR_0094", `interaction ${input.interactionId} has no proof`);
      if (proof.state !== "REQUESTED")
        throw new CredkitError("BR_0013", `proof ${proof.id} is ${proof.state}: the request was already answered`);

      const definition = data.presentationDefinition;
      const descriptors = new Map(definition.input_descriptors.map((d) => [d.id, d]));
      const submitted = input.submitCredentials;
      if (Object.keys(submitted).length === 0) throw new CredkitError("BR_0246", "the submission names no credential");
      for (const id of Object.keys(submitted))
        if (!descriptors.has(id))
          throw invalidSubmission(`${JSON.stringify(id)} is not an input descriptor of the request`);
      // with submission requirements (PEX 2.0) only what they ask for is presented; without, every descriptor
      const requirements = definition.submission_requirements !== undefined;
      if (requirements) {
        const unmet = unmetSubmissionRequirement(definition, new Set(Object.keys(submitted)));
        if (unmet !== undefined) throw invalidSubmission(`the submission does not satisfy the request: ${unmet}`);
      }
      const leeway = leewayOf(proof);
      const planned: {
        descriptor: PexInputDescriptor;
        credential: Credential;
        disclose: ConcretePath[];
        bound: boolean;
      }[] = [];
      for (const descriptor of definition.input_descriptors) {
        const value = submitted[descriptor.id];
        if (value === undefined) {
          if (requirements) continue;
          throw invalidSubmission(`missing a credential for input descriptor ${descriptor.id}`);
        }
        const entries = Array.isArray(value) ? value : [value];
        if (entries.length > 1) throw invalidSubmission(`input descriptor ${descriptor.id} allows one credential`);
        const entry = entries[0]!;
        const credential = requireInScope(
          context,
          await storage.credentials.get(parseId(entry.credentialId, "BR_0001")),
          "BR_0001",
          `credential ${entry.credentialId}`,
        );
        if (credential.deletedAt !== undefined || credential.organisationId !== proof.organisationId)
          throw new CredkitError("BR_0001", `credential ${entry.credentialId} not found`);
        if (credential.role !== "HOLDER")
          throw invalidSubmission(`credential ${credential.id} is not held by this wallet (role ${credential.role})`);
        if (credential.state === "REVOKED" || credential.state === "SUSPENDED")
          throw new CredkitError("BR_0099", `credential ${credential.id} is ${credential.state}`);
        if (credential.state !== "ACCEPTED")
          throw new CredkitError("BR_0002", `credential ${credential.id} is ${credential.state}, not ACCEPTED`);
        const schema = await storage.credentialSchemas.get(credential.credentialSchemaId);
        const held = schema ? toHeld(credential, schema, leeway) : undefined;
        if (!held)
          throw invalidSubmission(`credential ${credential.id} cannot be presented (only SD-JWT VC credentials can)`);
        if (held.invalidReason !== undefined)
          throw invalidSubmission(`credential ${credential.id} cannot be presented: ${held.invalidReason}`);
        if (!formatAccepted(descriptor, definition))
          throw invalidSubmission(`input descriptor ${descriptor.id} asks for a format other than SD-JWT VC`);
        const mismatch = descriptorMismatch(descriptor, held.document);
        if (mismatch !== undefined)
          throw invalidSubmission(
            `credential ${credential.id} does not satisfy input descriptor ${descriptor.id}: ${mismatch}`,
          );
        const fields = (descriptor.constraints.fields ?? []).map((field, index) => ({
          field,
          id: fieldIdOf(descriptor, field, index),
        }));
        for (const claim of entry.submitClaims) {
          if (!fields.some((f) => f.id === claim && isClaimField(f.field)))
            throw invalidSubmission(`submitClaims: ${claim} is not a field of input descriptor ${descriptor.id}`);
        }
        const disclose: ConcretePath[] = [];
        for (const { field, id } of fields) {
          if (!isClaimField(field)) continue;
          if (field.optional === true && !entry.submitClaims.includes(id)) continue;
          const match = fieldMatches(held.document, field);
          if (match) disclose.push(...match.hits);
        }
        const cnf = held.document.cnf;
        planned.push({
          descriptor,
          credential,
          disclose: [...new Map(disclose.map((p) => [JSON.stringify(p), p])).values()],
          bound: isObject(cnf) && isObject(cnf.jwk),
        });
      }

      const presentations: string[] = [];
      for (const plan of planned) {
        let keyBinding: Parameters<CredentialFormatter["createPresentation"]>[1]["keyBinding"];
        if (plan.bound) {
          const key = plan.credential.holderKeyId ? await storage.keys.get(plan.credential.holderKeyId) : undefined;
          if (!key)
            throw new CredkitError(
              "BR_0037",
              `the holder key of credential ${plan.credential.id} is not in the wallet`,
            );
          keyBinding = {
            audience: data.clientId,
            nonce: data.nonce,
            issuedAt: clock.now(),
            signer: createKeySigner(providers, key),
          };
        }
        presentations.push(
          await formatter.createPresentation(plan.credential.credentialBlob!, {
            disclose: plan.disclose,
            ...(keyBinding !== undefined && { keyBinding }),
          }),
        );
      }
      const single = presentations.length === 1;
      const submission = {
        id: randomUUID(),
        definition_id: definition.id,
        descriptor_map: planned.map((plan, index) => ({
          id: plan.descriptor.id,
          format: "vc+sd-jwt",
          path: single ? "$" : `$[${index}]`,
        })),
      };
      let form: URLSearchParams;
      if (data.responseMode === "direct_post.jwt") {
        // draft 20 §6.3: the response parameters (JSON values as such) in one JWE, posted as `response`
        const parameters = {
          vp_token: single ? presentations[0]! : presentations,
          presentation_submission: submission,
          ...(data.state !== undefined && { state: data.state }),
        };
        form = new URLSearchParams({
          response: await encryptResponse(
            parameters,
            chooseResponseEncryption(data.clientMetadata as ClientMetadata | undefined),
          ),
        });
      } else {
        form = new URLSearchParams({
          vp_token: single ? presentations[0]! : JSON.stringify(presentations),
          presentation_submission: JSON.stringify(submission),
          ...(data.state !== undefined && { state: data.state }),
        });
      }
      const outcome = await deliver("presentation response", data, form);
      if (!outcome.delivered) return failDelivery(proof, data, outcome.error, context);
      await settle(
        proof,
        interaction,
        data,
        [...new Set(planned.map((plan) => plan.credential.id))],
        outcome.redirectUri,
        context,
      );
    },
  };
}
