import { createHash } from "node:crypto";
import { CredkitError } from "../../errors/index.js";
import type { PublicJwk } from "../../ports/key-algorithm.js";

/** The required members of each key type, already in lexicographic order (RFC 7638 §3.2, §3.3). */
const REQUIRED_MEMBERS: Record<string, readonly string[]> = {
  EC: ["crv", "kty", "x", "y"],
  OKP: ["crv", "kty", "x"], // RFC 8037 §2
  RSA: ["e", "kty", "n"],
  AKP: ["alg", "kty", "pub"], // draft-ietf-cose-dilithium §5
};

/**
 * The RFC 7638 canonical form of a public JWK: only the required members, in lexicographic order. JSON.stringify of
 * the result is the thumbprint input (§3.1: no whitespace, members sorted, strings as-is). Throws BR_0096 when the key
 * type is unknown or a required member is missing.
 */
export function toThumbprintMembers(jwk: PublicJwk): Record<string, string> {
  const members = typeof jwk?.kty === "string" ? REQUIRED_MEMBERS[jwk.kty] : undefined;
  if (members === undefined) throw new CredkitError("BR_0096", "JWK kty missing or unsupported for a thumbprint");
  const canonical: Record<string, string> = {};
  for (const member of members) {
    const value = jwk[member];
    if (typeof value !== "string" || value === "") {
      throw new CredkitError("BR_0096", `JWK member "${member}" is required for a thumbprint`);
    }
    canonical[member] = value;
  }
  return canonical;
}

/** RFC 7638 JWK Thumbprint with SHA-256, base64url encoded (no padding). */
export function computeJwkThumbprint(jwk: PublicJwk): string {
  return createHash("sha256")
    .update(JSON.stringify(toThumbprintMembers(jwk)), "utf8")
    .digest("base64url");
}
