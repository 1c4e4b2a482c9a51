import type { DidDocument } from "../../../domain/did.js";
import { isCredkitError } from "../../../errors/credkit-error.js";
import type { PublicJwk } from "../../../ports/key-algorithm.js";
import { decodeCompactJws } from "../../../providers/jose/decode-compact-jws.js";
import type { JwsVerifier } from "../../../providers/jose/verify-jws-signature.js";
import { OAuthError } from "./oauth-error.js";

export interface KeyProofExpectations {
  /** the Credential Issuer Identifier (aud) */
  audience: string;
  now: Date;
  /** seconds tolerated on iat */
  leeway: number;
  /** oldest accepted iat, seconds before now (the nonce lifetime) */
  maxAge: number;
  verifier: JwsVerifier;
  resolveDid: (did: string) => Promise<DidDocument>;
}

export interface VerifiedKeyProof {
  holderJwk: PublicJwk;
  /** DID URL when the proof named its key by `kid` */
  kid?: string;
  nonce?: string;
}

const PRIVATE_MEMBERS = ["d", "p", "q", "dp", "dq", "qi", "k", "priv"];

/**
 * Verifies one `jwt` key proof (OpenID4VCI 1.0 Appendix F.1): typ `openid4vci-proof+jwt`, a public `jwk` or a DID URL
 * `kid` in the header, signature by that key, `aud` = credential issuer, `iat` neither in the future nor stale. The
 * caller checks and consumes the nonce. Failures are `invalid_proof` with the check that failed.
 */
export async function verifyKeyProof(jwt: string, expected: KeyProofExpectations): Promise<VerifiedKeyProof> {
  const fail = (why: string) => new OAuthError("invalid_proof", `key proof: ${why}`);
  let decoded: ReturnType<typeof decodeCompactJws>;
  try {
    decoded = decodeCompactJws(jwt, "key proof");
  } catch (error) {
    throw fail(isCredkitError(error) ? (error.detail ?? error.message) : "malformed JWT");
  }
  const { header, payload } = decoded;
  if (header.typ !== "openid4vci-proof+jwt") throw fail(`typ must be openid4vci-proof+jwt, got ${String(header.typ)}`);
  if (typeof header.alg !== "string" || !expected.verifier.algorithms.includes(header.alg)) {
    throw fail(`unsupported alg ${String(header.alg)}`);
  }
  let holderJwk: PublicJwk;
  let kid: string | undefined;
  if (header.jwk !== undefined) {
    if (typeof header.jwk !== "object" || header.jwk === null) throw fail("jwk header is not an object");
    if (PRIVATE_MEMBERS.some((m) => m in (header.jwk as object)))
      throw fail("jwk header contains private key material");
    if (header.kid !== undefined) throw fail("jwk and kid must not both be present");
    holderJwk = header.jwk as PublicJwk;
  } else if (typeof header.kid === "string" && header.kid.startsWith("did:")) {
    kid = header.kid;
    const did = kid.split("#")[0]!;
    let document: DidDocument;
    try {
      document = await expected.resolveDid(did);
    } catch (error) {
      throw fail(
        `kid ${kid} could not be resolved: ${isCredkitError(error) ? (error.detail ?? error.message) : "error"}`,
      );
    }
    const method = document.verificationMethod.find((vm) => vm.id === kid || `${did}${vm.id}` === kid);
    if (!method?.publicKeyJwk) throw fail(`kid ${kid} is not a verification method with a JWK`);
    holderJwk = method.publicKeyJwk as PublicJwk;
  } else {
    throw fail("header needs a jwk or a DID URL kid");
  }
  let valid: boolean;
  try {
    valid = expected.verifier.verify(header.alg, holderJwk, decoded.signingInput, decoded.signature);
  } catch (error) {
    throw fail(isCredkitError(error) ? (error.detail ?? error.message) : "signature could not be checked");
  }
  if (!valid) throw fail("signature invalid");
  const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
  if (!audiences.includes(expected.audience)) throw fail(`aud must be ${expected.audience}`);
  if (typeof payload.iat !== "number") throw fail("iat missing");
  const now = expected.now.getTime() / 1000;
  if (payload.iat > now + expected.leeway) throw fail("iat is in the future");
  if (payload.iat < now - expected.maxAge - expected.leeway) throw fail("iat is too old");
  if (payload.nonce !== undefined && typeof payload.nonce !== "string") throw fail("nonce must be a string");
  return {
    holderJwk: stripToPublic(holderJwk),
    ...(kid !== undefined && { kid }),
    ...(typeof payload.nonce === "string" && { nonce: payload.nonce }),
  };
}

function stripToPublic(jwk: PublicJwk): PublicJwk {
  const { kty, crv, x, y, pub, alg } = jwk;
  return Object.fromEntries(
    Object.entries({ kty, crv, x, y, pub, alg }).filter(([, v]) => v !== undefined),
  ) as PublicJwk;
}
