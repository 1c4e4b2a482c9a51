import { randomBytes, type X509Certificate } from "node:crypto";
import type { DidDocument } from "../../../domain/did.js";
import { CredkitError, isCredkitError } from "../../../errors/credkit-error.js";
import type { PublicJwk } from "../../../ports/key-algorithm.js";
import type { JwsVerifier } from "../../../providers/jose/verify-jws-signature.js";
import { type RemoteHttp, statusError } from "../../common/remote-http.js";
import {
  type AuthorizationRequest,
  parseAuthorizationRequest,
  requestFromParameters,
} from "./authorization-request.js";
import type { PresentationInvitation } from "./invitation.js";
import {
  type AuthenticatedAttestation,
  type AuthenticatedCertificate,
  authenticateAttestationRequest,
  authenticateCertificateRequest,
  checkAttestationRedirectUris,
  checkSanDnsResponseUri,
  type VerifierTrustOptions,
} from "./verifier-authentication.js";

/** `typ` of a Request Object (RFC 9101 §10.8; OpenID4VP 1.0 §5). */
export const REQUEST_OBJECT_TYP = "oauth-authz-req+jwt";

/** Client Identifier Prefixes this wallet can authenticate (OpenID4VP 1.0 §5.9.3). */
export const SUPPORTED_CLIENT_ID_PREFIXES = [
  "redirect_uri",
  "decentralized_identifier",
  "x509_san_dns",
  "x509_hash",
  "verifier_attestation",
] as const;
export type ClientIdPrefix = (typeof SUPPORTED_CLIENT_ID_PREFIXES)[number];

/** Prefixes defined by OpenID4VP 1.0 §5.9.3 this wallet does not support (federation; `origin` is DC API only). */
const KNOWN_UNSUPPORTED_PREFIXES = ["openid_federation", "origin"];

/** A request the wallet accepted: its parameters and who is asking. */
export interface ResolvedAuthorizationRequest {
  request: AuthorizationRequest;
  clientId: string;
  prefix: ClientIdPrefix;
  /** the client identifier without its prefix: the response URI, or the verifier's DID */
  clientIdValue: string;
  /** `decentralized_identifier`: the DID URL (`kid`) of the key that signed the request */
  signingKid?: string;
  /** `x509_san_dns` / `x509_hash`: the verifier's leaf certificate, validated up to a trust anchor */
  verifierCertificate?: AuthenticatedCertificate;
  /** `verifier_attestation`: the verified Verifier Attestation JWT (OpenID4VP 1.0 §12) */
  verifierAttestation?: AuthenticatedAttestation;
  requestUri?: string;
}

/** X.509 trust of the wallet (`certificateValidation`): anchors and leeway for the x509 and attestation prefixes. */
export interface WalletX509Trust {
  trustAnchors: readonly X509Certificate[];
  leeway: number;
  now(): Date;
}

export interface RequestObjectResolverOptions {
  http: RemoteHttp;
  resolveDid(did: string): Promise<DidDocument>;
  jwsVerifier: JwsVerifier;
  /** prefixes enabled by configuration (`verificationProtocol.*.params.public.holder.supportedClientIdSchemes`) */
  enabledPrefixes: readonly string[];
  /** `wallet_metadata` sent when `request_uri_method=post` (OpenID4VP 1.0 §5.10) */
  walletMetadata(prefix: string): Record<string, unknown>;
  /** trust anchors for `x509_san_dns`, `x509_hash` and `verifier_attestation`; without them those are refused */
  x509?: WalletX509Trust;
}

interface DecodedRequestObject {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
  signingInput: Uint8Array;
  signature: Uint8Array;
}

function invalid(detail: string, cause?: unknown): CredkitError {
  return new CredkitError("BR_0085", detail, cause === undefined ? undefined : { cause });
}

function detailOf(error: unknown): string {
  if (isCredkitError(error)) return error.detail ?? error.message;
  return error instanceof Error ? error.message : String(error);
}

function decodeJsonSegment(segment: string, part: string): Record<string, unknown> {
  const bytes = Buffer.from(segment, "base64url");
  if (segment === "" || bytes.toString("base64url") !== segment) {
    throw invalid(`request object: ${part} is not valid base64url`);
  }
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString("utf8"));
  } catch {
    throw invalid(`request object: ${part} is not JSON`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw invalid(`request object: ${part} is not a JSON object`);
  }
  return value as Record<string, unknown>;
}

/**
 * Decodes a Request Object (a JWT, RFC 9101 §4). The signature may be empty only for `alg: none` (unsigned requests
 * of the `redirect_uri` prefix). Encrypted Request Objects (JWE, five parts) are refused.
 */
export function decodeRequestObject(jwt: string): DecodedRequestObject {
  const parts = jwt.trim().split(".");
  if (parts.length === 5) throw invalid("encrypted request objects (JWE) are not supported by this wallet");
  if (parts.length !== 3) throw invalid("the request object is not a JWT (header.payload.signature)");
  const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];
  const header = decodeJsonSegment(headerPart, "header");
  const payload = decodeJsonSegment(payloadPart, "payload");
  const signature = Buffer.from(signaturePart, "base64url");
  if (signature.toString("base64url") !== signaturePart) throw invalid("request object: signature is not base64url");
  if (header.crit !== undefined) throw invalid("request object: crit header extensions are not understood");
  return {
    header,
    payload,
    signingInput: Buffer.from(`${headerPart}.${payloadPart}`, "latin1"),
    signature,
  };
}

/** `[prefix, value]` of a client identifier (§5.9.1: the prefix is the text before the first colon). */
export function splitClientId(clientId: string): [string | undefined, string] {
  const colon = clientId.indexOf(":");
  if (colon <= 0) return [undefined, clientId];
  return [clientId.slice(0, colon), clientId.slice(colon + 1)];
}

/**
 * Obtains and authenticates an Authorization Request (OpenID4VP 1.0 §5, §5.9, §5.10, RFC 9101):
 *
 * 1. the client_id prefix must be one this wallet supports and configuration enables (`redirect_uri`,
 *    `decentralized_identifier`, `x509_san_dns`, `x509_hash`, `verifier_attestation`); federation is refused;
 * 2. the Request Object is fetched from `request_uri` (GET, or POST with `wallet_metadata` and a `wallet_nonce`
 *    when `request_uri_method=post`) or taken from `request`; its `typ` must be `oauth-authz-req+jwt` and its
 *    `client_id` the URL's; with POST its `wallet_nonce` must be ours;
 * 3. `redirect_uri:` requests must be unsigned (`alg: none`, or plain URL parameters) and their `response_uri` must
 *    be the prefix value; `decentralized_identifier:` requests must be signed by a verification method of that DID,
 *    named by `kid` as a DID URL; `x509_san_dns:` / `x509_hash:` requests must be signed by the leaf of an `x5c`
 *    chain leading to a trust anchor, whose dNSName SAN (and the response_uri host) / SHA-256 hash is the prefix value;
 *    `verifier_attestation:` requests carry a trusted Verifier Attestation JWT (`jwt` header) whose `sub` is the
 *    prefix value and whose `cnf.jwk` signed the request (see verifier-authentication.ts).
 *
 * Every failure is BR_0085 naming the check (fetch failures BR_0347 / BR_0395).
 */
export async function resolveAuthorizationRequest(
  invitation: PresentationInvitation,
  options: RequestObjectResolverOptions,
): Promise<ResolvedAuthorizationRequest> {
  const clientId = invitation.clientId;
  const [prefix, clientIdValue] = splitClientId(clientId);
  if (prefix === undefined) {
    throw invalid(
      `unsupported client_id prefix: ${JSON.stringify(clientId)} has no prefix, so it names a pre-registered client (OpenID4VP 1.0 §5.9.2) this wallet does not know`,
    );
  }
  if (!(SUPPORTED_CLIENT_ID_PREFIXES as readonly string[]).includes(prefix)) {
    throw invalid(
      KNOWN_UNSUPPORTED_PREFIXES.includes(prefix)
        ? `unsupported client_id prefix: ${prefix} is not supported by this wallet yet`
        : `unsupported client_id prefix: ${prefix}`,
    );
  }
  const enabled = options.enabledPrefixes.map((p) => (p === "did" ? "decentralized_identifier" : p));
  if (!enabled.includes(prefix)) {
    throw invalid(`unsupported client_id prefix: ${prefix} is not enabled for the wallet`);
  }
  const supportedPrefix = prefix as ClientIdPrefix;
  if (clientIdValue === "") throw invalid(`client_id ${JSON.stringify(clientId)} has nothing after its prefix`);

  let requestUri: string | undefined;
  let jwt: string | undefined;
  let walletNonce: string | undefined;
  if (invitation.kind === "request-uri") {
    requestUri = options.http.checkUrl(invitation.requestUri, "request_uri").href;
    if (invitation.method === "post") {
      walletNonce = randomBytes(16).toString("base64url");
      const body = new URLSearchParams({
        wallet_metadata: JSON.stringify(options.walletMetadata(supportedPrefix)),
        wallet_nonce: walletNonce,
      });
      const response = await options.http.send("request object", requestUri, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", accept: `application/${REQUEST_OBJECT_TYP}` },
        body: body.toString(),
      });
      if (!response.ok) throw statusError("request object", response);
      jwt = response.text;
    } else {
      const response = await options.http.send("request object", requestUri, {
        headers: { accept: `application/${REQUEST_OBJECT_TYP}` },
      });
      if (!response.ok) throw statusError("request object", response);
      jwt = response.text;
    }
  } else if (invitation.kind === "request") {
    jwt = invitation.request;
  }

  let request: AuthorizationRequest;
  let signingKid: string | undefined;
  let verifierCertificate: AuthenticatedCertificate | undefined;
  let verifierAttestation: AuthenticatedAttestation | undefined;
  if (jwt === undefined) {
    // by value as URL parameters: never signed (§5.9.3 allows it for redirect_uri only)
    if (supportedPrefix !== "redirect_uri") {
      throw invalid(`a ${supportedPrefix} request must be a signed request object (request or request_uri)`);
    }
    request = parseAuthorizationRequest(requestFromParameters((invitation as { params: URLSearchParams }).params));
  } else {
    const decoded = decodeRequestObject(jwt);
    if (decoded.header.typ !== REQUEST_OBJECT_TYP) {
      throw invalid(
        `request object typ must be ${REQUEST_OBJECT_TYP}, got ${JSON.stringify(decoded.header.typ ?? null)}`,
      );
    }
    const alg = decoded.header.alg;
    if (typeof alg !== "string" || alg === "") throw invalid("request object header has no alg");
    const unsigned = alg.toLowerCase() === "none";
    if (supportedPrefix === "redirect_uri") {
      if (!unsigned)
        throw invalid("a redirect_uri request must not be signed (OpenID4VP 1.0 §5.9.3): alg must be none");
      if (decoded.signature.length !== 0) throw invalid("an unsigned (alg none) request object must have no signature");
    } else {
      if (unsigned) throw invalid(`a ${supportedPrefix} request must be signed: alg none is not accepted`);
      if (supportedPrefix === "decentralized_identifier") {
        signingKid = await verifyDidSignature(decoded, clientIdValue, options);
      } else if (supportedPrefix === "verifier_attestation") {
        verifierAttestation = authenticateAttestationRequest(decoded, clientIdValue, trustOf(options));
      } else {
        verifierCertificate = authenticateCertificateRequest(decoded, supportedPrefix, clientIdValue, trustOf(options));
      }
    }
    request = parseAuthorizationRequest(decoded.payload);
    if (walletNonce !== undefined && request.wallet_nonce !== walletNonce) {
      throw invalid("the request object does not carry the wallet_nonce the wallet sent (OpenID4VP 1.0 §5.10)");
    }
  }
  if (request.client_id !== clientId) {
    throw invalid(
      `the request's client_id ${JSON.stringify(request.client_id)} is not the invitation's ${JSON.stringify(clientId)}`,
    );
  }
  if (supportedPrefix === "redirect_uri" && request.response_uri !== clientIdValue) {
    throw invalid(
      `with the redirect_uri prefix the response_uri must equal the client identifier ${JSON.stringify(clientIdValue)}, got ${JSON.stringify(request.response_uri ?? null)}`,
    );
  }
  if (supportedPrefix === "x509_san_dns") checkSanDnsResponseUri(clientIdValue, request);
  if (verifierAttestation !== undefined) checkAttestationRedirectUris(verifierAttestation, request);
  return {
    request,
    clientId,
    prefix: supportedPrefix,
    clientIdValue,
    ...(signingKid !== undefined && { signingKid }),
    ...(verifierCertificate !== undefined && { verifierCertificate }),
    ...(verifierAttestation !== undefined && { verifierAttestation }),
    ...(requestUri !== undefined && { requestUri }),
  };
}

/** The trust the certificate and attestation prefixes are checked against (none configured: nothing is trusted). */
function trustOf(options: RequestObjectResolverOptions): VerifierTrustOptions {
  return {
    trustAnchors: options.x509?.trustAnchors ?? [],
    leeway: options.x509?.leeway ?? 60,
    now: options.x509?.now() ?? new Date(),
    jwsVerifier: options.jwsVerifier,
  };
}

/** Verifies a request signed under the `decentralized_identifier` prefix; answers the signing DID URL. */
async function verifyDidSignature(
  decoded: DecodedRequestObject,
  did: string,
  options: RequestObjectResolverOptions,
): Promise<string> {
  if (!did.startsWith("did:")) throw invalid(`client identifier ${JSON.stringify(did)} is not a DID`);
  const kid = decoded.header.kid;
  if (typeof kid !== "string" || !kid.startsWith(`${did}#`)) {
    throw invalid(
      `the request object's kid must be a DID URL of ${did} (OpenID4VP 1.0 §5.9.3), got ${JSON.stringify(kid ?? null)}`,
    );
  }
  let document: DidDocument;
  try {
    document = await options.resolveDid(did);
  } catch (error) {
    throw invalid(`the verifier DID ${did} could not be resolved: ${detailOf(error)}`, error);
  }
  const absolute = (id: string) => (id.startsWith("#") ? `${did}${id}` : id);
  const method = (document.verificationMethod ?? []).find((candidate) => absolute(candidate.id) === kid);
  if (!method) throw invalid(`the DID document of ${did} has no verification method ${kid}`);
  if (!method.publicKeyJwk) throw invalid(`verification method ${kid} has no publicKeyJwk`);
  const alg = decoded.header.alg as string;
  let valid: boolean;
  try {
    valid = options.jwsVerifier.verify(alg, method.publicKeyJwk as PublicJwk, decoded.signingInput, decoded.signature);
  } catch (error) {
    throw invalid(`the request object signature could not be checked: ${detailOf(error)}`, error);
  }
  if (!valid) throw invalid(`the request object signature does not verify with ${kid}`);
  return kid;
}
