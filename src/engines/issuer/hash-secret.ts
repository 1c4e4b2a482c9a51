import { createHash, timingSafeEqual } from "node:crypto";

/** SHA-256 (base64url) of a bearer secret: codes and tokens are stored only as hashes. */
export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("base64url");
}

/** Constant-time comparison of a presented secret with a stored hash. */
export function matchesSecretHash(secret: string, hash: string): boolean {
  const a = Buffer.from(hashSecret(secret));
  const b = Buffer.from(hash);
  return a.length === b.length && timingSafeEqual(a, b);
}
