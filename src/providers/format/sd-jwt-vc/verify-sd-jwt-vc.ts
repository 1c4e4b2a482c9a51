/**
 * Error codes of SD-JWT VC verification (the catalogue has no "credential invalid" code, so these were chosen):
 *
 * - BR_0189 "JSON deserialization error" — the token is not well formed: no `~`, a JWS without three parts, bad
 *   base64url, a header / payload / disclosure that is not the JSON it must be.
 * - BR_0355 "JWT handling failure" — the token is well formed but fails a check: issuer signature invalid, key does not
 *   fit the alg, typ wrong, expired / not yet valid / issued in the future, disclosure not referenced / repeated /
 *   tampered, protected claim disclosed, key binding missing / invalid / wrong nonce, aud, iat or sd_hash. One code
 *   for "this credential is not acceptable", so callers switch on a single code and read `detail` for the reason.
 *
 * Errors from the issuer key resolver that already are CredkitErrors (e.g. DID resolution) pass through unchanged.
 */
import { CredkitError, isCredkitError } from "../../../errors/index.js";
import type { ParsedCredential, StatusListReference, VerifyOptions } from "../../../ports/credential-formatter.js";
import type { PublicJwk } from "../../../ports/key-algorithm.js";
import { type DecodedCompactJws, decodeCompactJws } from "../../jose/decode-compact-jws.js";
import { checkJwtTimes, dateOfNumericDate, readNumericDate } from "../../jose/jwt-claims.js";
import type { JwsVerifier } from "../../jose/verify-jws-signature.js";
import { formatClaimPath, isJsonObject } from "./claim-path.js";
import {
  type AppliedDisclosure,
  applyDisclosures,
  decodeDisclosure,
  type SdJwtParts,
  splitSdJwt,
} from "./decode-sd-jwt.js";
import { LEGACY_SD_JWT_VC_TYP, SD_JWT_VC_TYP } from "./issue-sd-jwt-vc.js";

/** Claims that SD-JWT VC §3.2.2.2 forbids to be selectively disclosed; a credential disclosing one is rejected. */
const NEVER_DISCLOSED = new Set(["iss", "nbf", "exp", "cnf", "vct", "vct#integrity", "status"]);
/** Payload members ParsedCredential carries in their own fields rather than in `claims`. */
const PARSED_SEPARATELY = ["iss", "iat", "nbf", "exp", "vct", "cnf", "status"];

/** A verified SD-JWT VC with what presentation verification still needs. */
export interface VerifiedSdJwtVc {
  credential: ParsedCredential;
  jws: DecodedCompactJws;
  applied: AppliedDisclosure[];
}

/**
 * Verify the issuer-signed part of an SD-JWT VC and apply its Disclosures (RFC 9901 §7.1, SD-JWT VC §3): typ
 * `dc+sd-jwt` (or legacy `vc+sd-jwt`), issuer signature with the key `resolveIssuerKey(iss, header)` returns,
 * Disclosures, `vct`, validity window with `leeway`. A KB-JWT in `parts` is ignored here.
 */
export async function verifySdJwtVcParts(
  parts: SdJwtParts,
  options: VerifyOptions,
  jwsVerifier: JwsVerifier,
): Promise<VerifiedSdJwtVc> {
  const jws = decodeCompactJws(parts.issuerJwt, "credential");
  const { header, payload } = jws;
  if (header.typ !== SD_JWT_VC_TYP && header.typ !== LEGACY_SD_JWT_VC_TYP) {
    throw reject(`credential typ must be "${SD_JWT_VC_TYP}", got ${JSON.stringify(header.typ ?? null)}`);
  }
  if (typeof payload.iss !== "string" || payload.iss === "") throw reject("credential iss is missing");
  const issuer = payload.iss;
  await verifyIssuerSignature(jws, issuer, options, jwsVerifier);

  const processed = applyDisclosures(payload, parts.disclosures.map(decodeDisclosure));
  for (const { path } of processed.applied) {
    if (NEVER_DISCLOSED.has(path[0] as string)) {
      throw reject(`claim ${formatClaimPath(path)} must not be selectively disclosable (SD-JWT VC §3.2.2.2)`);
    }
  }
  const claims = processed.claims;
  if (typeof claims.vct !== "string" || claims.vct === "") throw reject("credential vct is missing");
  checkJwtTimes(claims, options.now, options.leeway, "credential");

  const credential: ParsedCredential = { issuer, type: claims.vct, claims: subjectClaims(claims), header };
  const holderJwk = readHolderJwk(claims.cnf);
  if (holderJwk !== undefined) credential.holderJwk = holderJwk;
  const iat = readNumericDate(claims, "iat", "credential");
  if (iat !== undefined) credential.issuedAt = dateOfNumericDate(iat);
  const exp = readNumericDate(claims, "exp", "credential");
  if (exp !== undefined) credential.expiresAt = dateOfNumericDate(exp);
  const nbf = readNumericDate(claims, "nbf", "credential");
  if (nbf !== undefined) credential.notBefore = dateOfNumericDate(nbf);
  const status = readStatus(claims.status);
  if (status !== undefined) credential.status = status;
  return { credential, jws, applied: processed.applied };
}

async function verifyIssuerSignature(
  jws: DecodedCompactJws,
  issuer: string,
  options: VerifyOptions,
  jwsVerifier: JwsVerifier,
): Promise<void> {
  let issuerKey: PublicJwk;
  try {
    issuerKey = await options.resolveIssuerKey(issuer, jws.header);
  } catch (error) {
    if (isCredkitError(error)) throw error;
    throw reject(`issuer key of ${issuer} could not be resolved: ${messageOf(error)}`, error);
  }
  let valid: boolean;
  try {
    valid = jwsVerifier.verify(jws.header.alg as string, issuerKey, jws.signingInput, jws.signature);
  } catch (error) {
    throw reject(`issuer signature: ${messageOf(error)}`, error);
  }
  if (!valid) throw reject("issuer signature invalid");
}

/** The subject claims: the processed payload without the members ParsedCredential carries separately. */
function subjectClaims(claims: Record<string, unknown>): Record<string, unknown> {
  const subject = { ...claims };
  for (const name of PARSED_SEPARATELY) delete subject[name];
  return subject;
}

/** `cnf.jwk` (RFC 7800 §3.2) or undefined when there is no cnf; a cnf without a usable jwk leaves it undefined. */
function readHolderJwk(cnf: unknown): PublicJwk | undefined {
  if (cnf === undefined) return undefined;
  if (!isJsonObject(cnf)) throw reject("credential cnf is not an object");
  if (cnf.jwk === undefined) return undefined;
  if (!isJsonObject(cnf.jwk) || typeof cnf.jwk.kty !== "string") throw reject("credential cnf.jwk is not a JWK");
  return cnf.jwk as PublicJwk;
}

/** `status.status_list` (draft-ietf-oauth-status-list §6.1); other status mechanisms are left to their providers. */
function readStatus(status: unknown): StatusListReference | undefined {
  if (status === undefined) return undefined;
  if (!isJsonObject(status)) throw reject("credential status is not an object");
  const list = status.status_list;
  if (list === undefined) return undefined;
  if (!isJsonObject(list)) throw reject("credential status.status_list is not an object");
  const { idx, uri } = list;
  if (typeof idx !== "number" || !Number.isSafeInteger(idx) || idx < 0) {
    throw reject("credential status.status_list.idx is not a non-negative integer");
  }
  if (typeof uri !== "string" || uri === "") throw reject("credential status.status_list.uri is missing");
  return { idx, uri };
}

function messageOf(error: unknown): string {
  if (isCredkitError(error)) return error.detail ?? error.message;
  return error instanceof Error ? error.message : String(error);
}

function reject(detail: string, cause?: unknown): CredkitError {
  return new CredkitError("BR_0355", detail, cause === undefined ? undefined : { cause });
}

/**
 * Verify an issued SD-JWT VC (`<issuer-jwt>~<d1>~…~`) as a holder or verifier does before trusting it: see
 * verifySdJwtVcParts. A credential that carries a Key Binding JWT is a presentation and is rejected here.
 */
export async function verifySdJwtVc(
  credential: string,
  options: VerifyOptions,
  jwsVerifier: JwsVerifier,
): Promise<ParsedCredential> {
  const parts = splitSdJwt(credential);
  if (parts.keyBindingJwt !== undefined) {
    throw reject("credential carries a key binding JWT: it is a presentation, verify it with verifyPresentation");
  }
  return (await verifySdJwtVcParts(parts, options, jwsVerifier)).credential;
}
