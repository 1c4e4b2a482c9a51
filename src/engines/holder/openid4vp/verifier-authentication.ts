import type { X509Certificate } from "node:crypto";
import { CredkitError, isCredkitError } from "../../../errors/credkit-error.js";
import type { PublicJwk } from "../../../ports/key-algorithm.js";
import { decodeCompactJws as decodeJws } from "../../../providers/jose/decode-compact-jws.js";
import type { JwsVerifier } from "../../../providers/jose/verify-jws-signature.js";
import {
  certificateHash,
  certificatePublicJwk,
  DNS_NAME,
  notAfter,
  parseX5c,
  subjectAltNames,
  validateCertificateChain,
} from "../../../providers/x509/index.js";
import type { VerifierCertificateDto } from "../../common/verifier-authentication-dto.js";

// Wallet-side authentication of verifiers under the certificate- and attestation-based Client Identifier Prefixes of
// OpenID4VP 1.0 §5.9.3: `x509_san_dns`, `x509_hash` and `verifier_attestation` (with the Verifier Attestation JWT of
// §12). Trust is anchored in `certificateValidation.trustAnchors`: a request (or an attestation) whose x5c chain does
// not lead to one of them is refused. Every refusal is BR_0085 with a reason naming the check.

/** `typ` of a Verifier Attestation JWT (OpenID4VP 1.0 §12). */
export const VERIFIER_ATTESTATION_TYP = "verifier-attestation+jwt";

export type CertificatePrefix = "x509_san_dns" | "x509_hash";

/** What the wallet needs to authenticate certificate-signed requests. */
export interface VerifierTrustOptions {
  /** trusted roots / intermediates (`certificateValidation.trustAnchors`) */
  trustAnchors: readonly X509Certificate[];
  /** seconds of clock skew on certificate validity and attestation exp / nbf / iat (`certificateValidation.leeway`) */
  leeway: number;
  now: Date;
  jwsVerifier: JwsVerifier;
}

/** A decoded, not yet verified compact JWS. */
export interface DecodedJws {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
  signingInput: Uint8Array;
  signature: Uint8Array;
}

/** The certificate a verifier was authenticated with (kept on the holder proof, shown as the proof detail shows it). */
export type AuthenticatedCertificate = VerifierCertificateDto;

/** A verified Verifier Attestation JWT (OpenID4VP 1.0 §12). */
export interface AuthenticatedAttestation {
  /** `iss` of the attestation */
  issuer: string;
  /** `sub`: the client identifier without its prefix */
  subject: string;
  /** ISO date of `exp` */
  expiresAt: string;
  /** `redirect_uris` the attestation restricts the verifier to, when it has them */
  redirectUris?: string[];
  /** the certificate (x5c leaf) that signed the attestation */
  signedBy: AuthenticatedCertificate;
}

function refuse(detail: string, cause?: unknown): CredkitError {
  return new CredkitError("BR_0085", detail, cause === undefined ? undefined : { cause });
}

function detailOf(error: unknown): string {
  if (isCredkitError(error)) return error.detail ?? error.message;
  return error instanceof Error ? error.message : String(error);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Decodes a compact JWS (three parts, signed, no `crit`, bounded nesting); BR_0085 naming `what` when it is not one. */
export function decodeCompactJws(jws: string, what: string): DecodedJws {
  return decodeJws(jws, what, { code: "BR_0085", limitDepth: true });
}

function describeCertificate(certificate: X509Certificate): string {
  return JSON.stringify(certificate.subject.replace(/\n/g, ", "));
}

/**
 * Parses an `x5c` header (leaf first) and validates it against the trust anchors (RFC 5280 path validation: each
 * certificate signed by the next, issuers are CAs, every certificate inside its validity period). Refused when the
 * chain is malformed, broken, expired, or does not lead to a configured trust anchor.
 */
export function trustedCertificateChain(
  x5c: unknown,
  what: string,
  options: VerifierTrustOptions,
): { leaf: X509Certificate; certificate: AuthenticatedCertificate } {
  if (x5c === undefined) throw refuse(`${what} has no x5c header: the verifier's certificate chain is required`);
  let chain: X509Certificate[];
  try {
    chain = parseX5c(x5c);
  } catch (error) {
    throw refuse(`${what}: x5c is not a certificate chain: ${detailOf(error)}`, error);
  }
  let validation: ReturnType<typeof validateCertificateChain>;
  try {
    validation = validateCertificateChain(chain, {
      now: options.now,
      leeway: options.leeway,
      trustAnchors: options.trustAnchors,
    });
  } catch (error) {
    throw refuse(`${what}: the x5c certificate chain is not valid: ${detailOf(error)}`, error);
  }
  const { leaf } = validation;
  if (!validation.trusted || !validation.anchor) {
    throw refuse(
      options.trustAnchors.length === 0
        ? `${what}: the x5c certificate chain (leaf ${describeCertificate(leaf)}) is not trusted: no trust anchors are configured (certificateValidation.trustAnchors)`
        : `${what}: the x5c certificate chain (leaf ${describeCertificate(leaf)}) does not lead to a trust anchor of certificateValidation.trustAnchors`,
    );
  }
  return {
    leaf,
    certificate: {
      subject: leaf.subject.replace(/\n/g, ", "),
      issuer: leaf.issuer.replace(/\n/g, ", "),
      dnsNames: subjectAltNames(leaf, "DNS"),
      x509Hash: certificateHash(leaf),
      notAfter: notAfter(leaf).toISOString(),
      trustAnchor: validation.anchor.subject.replace(/\n/g, ", "),
    },
  };
}

/** The public JWK of a certificate (EC / OKP keys). */
function certificateJwk(certificate: X509Certificate, what: string): PublicJwk {
  try {
    return certificatePublicJwk(certificate);
  } catch (error) {
    throw refuse(`${what}: the public key of certificate ${describeCertificate(certificate)} is not usable`, error);
  }
}

/** Verifies the JWS with `jwk`; refused when its alg is none / unknown or the signature does not verify. */
function verifySignature(jws: DecodedJws, jwk: PublicJwk, what: string, signer: string, verifier: JwsVerifier): void {
  const alg = jws.header.alg;
  if (typeof alg !== "string" || alg === "" || alg.toLowerCase() === "none") {
    throw refuse(`${what} must be signed: alg ${JSON.stringify(alg ?? null)} is not accepted`);
  }
  let valid: boolean;
  try {
    valid = verifier.verify(alg, jwk, jws.signingInput, jws.signature);
  } catch (error) {
    throw refuse(`${what}: the signature could not be checked with ${signer}: ${detailOf(error)}`, error);
  }
  if (!valid) throw refuse(`${what}: the signature does not verify with ${signer}`);
}

/**
 * `x509_san_dns` / `x509_hash` (OpenID4VP 1.0 §5.9.3): the request object carries the verifier's chain in `x5c`; the
 * chain must lead to a trust anchor, the request must be signed by the leaf's key, and the client identifier value
 * must be a dNSName SAN of the leaf (`x509_san_dns`) or the base64url SHA-256 of the leaf's DER (`x509_hash`).
 */
export function authenticateCertificateRequest(
  requestObject: DecodedJws,
  prefix: CertificatePrefix,
  clientIdValue: string,
  options: VerifierTrustOptions,
): AuthenticatedCertificate {
  const what = "the request object";
  if (prefix === "x509_san_dns" && !DNS_NAME.test(clientIdValue)) {
    throw refuse(
      `with the x509_san_dns prefix the client identifier must be a DNS name, got ${JSON.stringify(clientIdValue)}`,
    );
  }
  const { leaf, certificate } = trustedCertificateChain(requestObject.header.x5c, what, options);
  if (prefix === "x509_san_dns") {
    const wanted = clientIdValue.toLowerCase();
    if (!certificate.dnsNames.some((name) => name.toLowerCase() === wanted)) {
      throw refuse(
        `the client identifier ${JSON.stringify(clientIdValue)} is not a dNSName SAN of the request's leaf certificate (${
          certificate.dnsNames.length > 0 ? certificate.dnsNames.map((name) => JSON.stringify(name)).join(", ") : "none"
        }) (OpenID4VP 1.0 §5.9.3 x509_san_dns)`,
      );
    }
  } else if (certificate.x509Hash !== clientIdValue) {
    throw refuse(
      `the client identifier ${JSON.stringify(clientIdValue)} is not the SHA-256 hash of the request's leaf certificate (${certificate.x509Hash}) (OpenID4VP 1.0 §5.9.3 x509_hash)`,
    );
  }
  verifySignature(
    requestObject,
    certificateJwk(leaf, what),
    what,
    `the key of the x5c leaf certificate ${describeCertificate(leaf)}`,
    options.jwsVerifier,
  );
  return certificate;
}

/**
 * `x509_san_dns` (OpenID4VP 1.0 §5.9.3): unless the wallet trusts the client identifier otherwise, the FQDN of the
 * `redirect_uri` — with direct_post, the `response_uri` — must be the client identifier. This wallet keeps no list
 * of trusted client identifiers, so the rule always applies. A request without either URI is left to the general
 * checks (it is refused there).
 */
export function checkSanDnsResponseUri(
  clientIdValue: string,
  request: { response_uri?: string; redirect_uri?: string },
): void {
  for (const [name, uri] of [
    ["response_uri", request.response_uri],
    ["redirect_uri", request.redirect_uri],
  ] as const) {
    if (uri === undefined) continue;
    let host: string;
    try {
      host = new URL(uri).hostname;
    } catch {
      throw refuse(`${name} ${JSON.stringify(uri)} is not a URL`);
    }
    if (host.toLowerCase() !== clientIdValue.toLowerCase()) {
      throw refuse(
        `with the x509_san_dns prefix the host of the ${name} must be the client identifier ${JSON.stringify(clientIdValue)} (OpenID4VP 1.0 §5.9.3), got ${JSON.stringify(host)}`,
      );
    }
  }
}

function numericClaim(payload: Record<string, unknown>, name: string, required: boolean): number | undefined {
  const value = payload[name];
  if (value === undefined && !required) return undefined;
  if (typeof value !== "number" || !Number.isFinite(value)) {
    throw refuse(`the verifier attestation ${value === undefined ? "has no" : "has an invalid"} ${name} claim`);
  }
  return value;
}

/**
 * `verifier_attestation` (OpenID4VP 1.0 §5.9.3, §12): the request object's `jwt` header is a Verifier Attestation JWT
 * (`typ` verifier-attestation+jwt) signed by a party the wallet trusts — here: its x5c chain leads to a trust anchor;
 * its `sub` is the client identifier value; it is within `exp` / `nbf` / `iat` (with leeway); and the request object
 * is signed by the key in its `cnf.jwk` (proof of possession). `redirect_uris`, when present, is checked by
 * {@link checkAttestationRedirectUris} once the request parameters are known.
 */
export function authenticateAttestationRequest(
  requestObject: DecodedJws,
  clientIdValue: string,
  options: VerifierTrustOptions,
): AuthenticatedAttestation {
  const jwt = requestObject.header.jwt;
  if (typeof jwt !== "string" || jwt === "") {
    throw refuse(
      "a verifier_attestation request object must carry the Verifier Attestation JWT in its jwt header (OpenID4VP 1.0 §12)",
    );
  }
  const what = "the verifier attestation";
  const attestation = decodeCompactJws(jwt, what);
  if (attestation.header.typ !== VERIFIER_ATTESTATION_TYP) {
    throw refuse(
      `the verifier attestation typ must be ${VERIFIER_ATTESTATION_TYP}, got ${JSON.stringify(attestation.header.typ ?? null)}`,
    );
  }
  const { leaf, certificate } = trustedCertificateChain(attestation.header.x5c, what, options);
  verifySignature(
    attestation,
    certificateJwk(leaf, what),
    what,
    `the key of its x5c leaf certificate ${describeCertificate(leaf)}`,
    options.jwsVerifier,
  );
  const claims = attestation.payload;
  if (typeof claims.iss !== "string" || claims.iss === "") throw refuse("the verifier attestation has no iss claim");
  if (claims.sub !== clientIdValue) {
    throw refuse(
      `the verifier attestation's sub ${JSON.stringify(claims.sub ?? null)} is not the client identifier ${JSON.stringify(clientIdValue)} (OpenID4VP 1.0 §5.9.3)`,
    );
  }
  const seconds = options.now.getTime() / 1000;
  const exp = numericClaim(claims, "exp", true)!;
  if (exp + options.leeway <= seconds) {
    throw refuse(`the verifier attestation expired at ${new Date(exp * 1000).toISOString()}`);
  }
  const nbf = numericClaim(claims, "nbf", false);
  if (nbf !== undefined && nbf - options.leeway > seconds) {
    throw refuse(`the verifier attestation is not valid before ${new Date(nbf * 1000).toISOString()}`);
  }
  const iat = numericClaim(claims, "iat", false);
  if (iat !== undefined && iat - options.leeway > seconds) {
    throw refuse(`the verifier attestation was issued in the future (${new Date(iat * 1000).toISOString()})`);
  }
  const cnf = claims.cnf;
  if (!isObject(cnf) || !isObject(cnf.jwk)) {
    throw refuse("the verifier attestation has no cnf.jwk: the key the verifier must prove possession of (RFC 7800)");
  }
  let redirectUris: string[] | undefined;
  if (claims.redirect_uris !== undefined) {
    if (!Array.isArray(claims.redirect_uris) || !claims.redirect_uris.every((uri) => typeof uri === "string")) {
      throw refuse("the verifier attestation's redirect_uris is not an array of strings");
    }
    redirectUris = claims.redirect_uris as string[];
  }
  verifySignature(
    requestObject,
    cnf.jwk as PublicJwk,
    "the request object",
    "the verifier attestation's cnf.jwk",
    options.jwsVerifier,
  );
  return {
    issuer: claims.iss,
    subject: clientIdValue,
    expiresAt: new Date(exp * 1000).toISOString(),
    ...(redirectUris !== undefined && { redirectUris }),
    signedBy: certificate,
  };
}

/**
 * OpenID4VP 1.0 §5.9.3 `verifier_attestation`: when the attestation has `redirect_uris`, the request's redirect URI
 * must be one of them exactly. With direct_post the response goes to `response_uri`, which takes that role (as with
 * the redirect_uri prefix), so both are checked.
 */
export function checkAttestationRedirectUris(
  attestation: AuthenticatedAttestation,
  request: { response_uri?: string; redirect_uri?: string },
): void {
  if (attestation.redirectUris === undefined) return;
  for (const [name, uri] of [
    ["response_uri", request.response_uri],
    ["redirect_uri", request.redirect_uri],
  ] as const) {
    if (uri !== undefined && !attestation.redirectUris.includes(uri)) {
      throw refuse(
        `the request's ${name} ${JSON.stringify(uri)} is not one of the verifier attestation's redirect_uris (OpenID4VP 1.0 §5.9.3)`,
      );
    }
  }
}
