import { hash } from "node:crypto";

/**
 * `sd_hash` of a Key Binding JWT: base64url(SHA-256(ASCII(`<issuer-jwt>~<d1>~…~<dn>~`))) — the presented SD-JWT
 * without the KB-JWT, trailing `~` included (RFC 9901 §4.3.1).
 */
export function computeSdHash(sdJwt: string): string {
  return hash("sha256", sdJwt, "base64url");
}
