import { hash, randomBytes } from "node:crypto";

/** One SD-JWT Disclosure (RFC 9901 §4.2.1 / §4.2.2) with its digest. */
export interface Disclosure {
  /** base64url of the UTF-8 JSON array, exactly as it travels between the `~` separators */
  encoded: string;
  /** base64url(SHA-256(ASCII(encoded))) — what the issuer-signed JWT references (RFC 9901 §4.2.3) */
  digest: string;
  salt: string;
  /** the claim name of an object property; absent for an array element */
  name?: string;
  value: unknown;
}

const SALT_BYTES = 16;
const SALT_POOL_BYTES = SALT_BYTES * 256;
let saltPool = Buffer.alloc(0);
let saltOffset = 0;

/**
 * A fresh salt: 128 random bits, base64url (RFC 9901 §4.2.1 recommends 128 bits; §9.3). Drawn from a pool refilled
 * by one randomBytes call per 256 salts, so issuing a credential does not pay a CSPRNG call per claim.
 */
export function createSalt(): string {
  if (saltOffset + SALT_BYTES > saltPool.length) {
    saltPool = randomBytes(SALT_POOL_BYTES);
    saltOffset = 0;
  }
  const salt = saltPool.toString("base64url", saltOffset, saltOffset + SALT_BYTES);
  saltOffset += SALT_BYTES;
  return salt;
}

/** The SHA-256 digest of an encoded Disclosure: over its base64url text, not over the decoded JSON (RFC 9901 §4.2.3). */
export function digestDisclosure(encoded: string): string {
  // one-shot crypto.hash: a third of the cost of createHash().update().digest() for inputs this small; the text is
  // base64url, so its UTF-8 and ASCII bytes are the same
  return hash("sha256", encoded, "base64url");
}

/**
 * A Disclosure of an object property (`[salt, name, value]`, when `name` is a string) or of an array element
 * (`[salt, value]`, when `name` is undefined). `value` must already be in its issued form (nested disclosable content
 * replaced by digests).
 */
export function createDisclosure(name: string | undefined, value: unknown, salt: string = createSalt()): Disclosure {
  // built as text: one JSON.stringify per member instead of one over a temporary array
  const json =
    name === undefined
      ? `[${JSON.stringify(salt)},${JSON.stringify(value)}]`
      : `[${JSON.stringify(salt)},${JSON.stringify(name)},${JSON.stringify(value)}]`;
  const encoded = Buffer.from(json, "utf8").toString("base64url");
  const disclosure: Disclosure = { encoded, digest: digestDisclosure(encoded), salt, value };
  if (name !== undefined) disclosure.name = name;
  return disclosure;
}
