import { decodeBase64url } from "../../encoding/base64url.js";
import { CredkitError } from "../../errors/index.js";
import type { CoseKey } from "../../ports/key-algorithm.js";

/**
 * Strict readers for key material arriving as JWK or COSE_Key. Everything they reject surfaces as CredkitError BR_0096
 * ("Invalid key") with a detail naming the offending member, never as a TypeError from node:crypto.
 */

export function invalidKey(detail: string, cause?: unknown): CredkitError {
  return new CredkitError("BR_0096", detail, cause === undefined ? undefined : { cause });
}

export interface JwkExpectation {
  kty: string;
  crv?: string;
  /** accepted values of an optional `alg` member */
  algs: readonly string[];
  /** the `alg` member must be present (AKP keys, draft-ietf-cose-dilithium §5) */
  algRequired?: boolean;
}

/** Check the type members of a JWK (RFC 7517 §4) and return it as a plain record. */
export function checkJwkType(jwk: unknown, expected: JwkExpectation): Record<string, unknown> {
  if (typeof jwk !== "object" || jwk === null || Array.isArray(jwk)) throw invalidKey("JWK must be a JSON object");
  const record = jwk as Record<string, unknown>;
  if (record.kty !== expected.kty) throw invalidKey(`JWK kty must be "${expected.kty}"`);
  if (expected.crv === undefined) {
    if (record.crv !== undefined) throw invalidKey(`JWK crv is not defined for kty "${expected.kty}"`);
  } else if (record.crv !== expected.crv) {
    throw invalidKey(`JWK crv must be "${expected.crv}"`);
  }
  if (record.alg === undefined) {
    if (expected.algRequired) throw invalidKey(`JWK alg is required (${expected.algs.join(" or ")})`);
  } else if (typeof record.alg !== "string" || !expected.algs.includes(record.alg)) {
    throw invalidKey(`JWK alg must be ${expected.algs.join(" or ")}`);
  }
  // RFC 7517 §4.2: a signature key is "sig"; an "enc" key must not be used to verify signatures
  if (record.use !== undefined && record.use !== "sig") throw invalidKey('JWK use must be "sig"');
  return record;
}

/** Reject private members in a JWK that is supposed to be public. */
export function checkNoPrivateMembers(jwk: Record<string, unknown>, members: readonly string[]): void {
  for (const member of members) {
    if (jwk[member] !== undefined) throw invalidKey(`public JWK must not contain the private member "${member}"`);
  }
}

/** Read a base64url member of exactly `length` bytes. */
export function readJwkBytes(jwk: Record<string, unknown>, member: string, length: number): Uint8Array {
  const value = jwk[member];
  if (typeof value !== "string") throw invalidKey(`JWK member "${member}" is missing or not a string`);
  let bytes: Uint8Array;
  try {
    bytes = decodeBase64url(value);
  } catch (error) {
    throw invalidKey(`JWK member "${member}" is not base64url`, error);
  }
  if (bytes.length !== length) throw invalidKey(`JWK member "${member}" must be ${length} bytes, got ${bytes.length}`);
  return bytes;
}

/** Check that a COSE_Key label carries an exact integer value (RFC 9052 §7.1). */
export function checkCoseValue(coseKey: CoseKey, label: number, expected: number, name: string): void {
  if (!(coseKey instanceof Map)) throw invalidKey("COSE_Key must be a Map");
  if (coseKey.get(label) !== expected) throw invalidKey(`COSE_Key ${name} (${label}) must be ${expected}`);
}

/** Check an optional COSE_Key `alg` (label 3) against the accepted algorithm identifiers. */
export function checkCoseAlg(coseKey: CoseKey, accepted: readonly number[]): void {
  const alg = coseKey.get(3);
  if (alg !== undefined && (typeof alg !== "number" || !accepted.includes(alg))) {
    throw invalidKey(`COSE_Key alg (3) must be ${accepted.join(" or ")}`);
  }
}

/** Read a byte-string COSE_Key parameter of exactly `length` bytes. */
export function readCoseBytes(coseKey: CoseKey, label: number, length: number, name: string): Uint8Array {
  const value = coseKey.get(label);
  if (!(value instanceof Uint8Array)) throw invalidKey(`COSE_Key ${name} (${label}) must be a byte string`);
  if (value.length !== length) throw invalidKey(`COSE_Key ${name} (${label}) must be ${length} bytes`);
  return value;
}

/** Exact byte length check of raw key bytes handed to an algorithm. */
export function checkKeyLength(bytes: Uint8Array, length: number, what: string): void {
  if (!(bytes instanceof Uint8Array) || bytes.length !== length) throw invalidKey(`${what} must be ${length} bytes`);
}

/** Constant-time-enough equality for public values (public keys). */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

/** A plain Uint8Array view of a Buffer (no copy), so callers comparing with toEqual see one byte type. */
export function asBytes(buffer: Buffer): Uint8Array {
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}
