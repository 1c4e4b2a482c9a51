import { CredkitError } from "../../../errors/index.js";
import type { PublicJwk } from "../../../ports/key-algorithm.js";
import { decodeCompactJws } from "../../jose/decode-compact-jws.js";
import { dateOfNumericDate, formatNumericDate, readNumericDate } from "../../jose/jwt-claims.js";
import type { JwsVerifier } from "../../jose/verify-jws-signature.js";
import { computeSdHash } from "./sd-hash.js";

export const KB_JWT_TYP = "kb+jwt";

export interface KeyBindingExpectation {
  /** `cnf.jwk` of the credential: the key that must have signed the KB-JWT */
  holderJwk: PublicJwk;
  /** the presented SD-JWT without the KB-JWT (`<issuer-jwt>~<d1>~…~`), whose hash `sd_hash` must be */
  sdJwt: string;
  /** expected `aud`; undefined = not compared */
  audience?: string;
  /** expected `nonce`; undefined = not compared */
  nonce?: string;
  now: Date;
  /** seconds `iat` may differ from `now`, in either direction */
  leeway: number;
}

export interface VerifiedKeyBinding {
  audience: string;
  nonce: string;
  issuedAt: Date;
}

/**
 * Verify a Key Binding JWT (RFC 9901 §7.3 step 5): typ `kb+jwt`, signature by the holder key, `sd_hash` over the
 * presented SD-JWT, `aud` and `nonce` as expected, `iat` within `leeway` seconds of now. Each failure throws
 * CredkitError BR_0355 naming the check ("key binding nonce mismatch"); a malformed JWT throws BR_0189.
 */
export function verifyKeyBindingJwt(
  keyBindingJwt: string,
  expected: KeyBindingExpectation,
  jwsVerifier: JwsVerifier,
): VerifiedKeyBinding {
  const { header, payload, signingInput, signature } = decodeCompactJws(keyBindingJwt, "key binding JWT");
  if (header.typ !== KB_JWT_TYP) {
    throw reject(`key binding JWT typ must be "${KB_JWT_TYP}", got ${JSON.stringify(header.typ ?? null)}`);
  }
  let valid: boolean;
  try {
    valid = jwsVerifier.verify(header.alg as string, expected.holderJwk, signingInput, signature);
  } catch (error) {
    const detail = error instanceof CredkitError ? (error.detail ?? error.message) : String(error);
    throw reject(`key binding signature: ${detail}`, error);
  }
  if (!valid) throw reject("key binding signature invalid (not signed by the credential's cnf.jwk)");
  if (payload.sd_hash !== computeSdHash(expected.sdJwt)) {
    throw reject("key binding sd_hash does not match the presented credential and disclosures");
  }
  const { aud, nonce } = payload;
  if (typeof aud !== "string") throw reject("key binding aud is missing");
  if (expected.audience !== undefined && aud !== expected.audience) {
    throw reject(`key binding aud mismatch: expected ${JSON.stringify(expected.audience)}, got ${JSON.stringify(aud)}`);
  }
  if (typeof nonce !== "string") throw reject("key binding nonce is missing");
  if (expected.nonce !== undefined && nonce !== expected.nonce) throw reject("key binding nonce mismatch");
  const iat = readNumericDate(payload, "iat", "key binding JWT");
  if (iat === undefined) throw reject("key binding iat is missing");
  const skew = iat - expected.now.getTime() / 1000;
  if (skew > expected.leeway) throw reject(`key binding JWT issued in the future (iat ${formatNumericDate(iat)})`);
  if (-skew > expected.leeway) {
    throw reject(
      `key binding JWT is stale: iat ${formatNumericDate(iat)} is more than ${expected.leeway} s before now`,
    );
  }
  return { audience: aud, nonce, issuedAt: dateOfNumericDate(iat) };
}

function reject(detail: string, cause?: unknown): CredkitError {
  return new CredkitError("BR_0355", detail, cause === undefined ? undefined : { cause });
}
