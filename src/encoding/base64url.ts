/**
 * base64url without padding (RFC 4648 §5, as used by JOSE: RFC 7515 §2). Backed by Buffer, so both directions run in
 * native code.
 */

/** Encode bytes as unpadded base64url. */
export function encodeBase64url(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64url");
}

/** Encode a UTF-8 string as unpadded base64url. */
export function encodeBase64urlUtf8(text: string): string {
  return Buffer.from(text, "utf8").toString("base64url");
}

/**
 * Decode unpadded base64url strictly: only the base64url alphabet, no padding, no whitespace, and the canonical
 * encoding only (unused trailing bits must be zero), so one byte string has exactly one accepted text form.
 * Throws a RangeError on anything else (Buffer alone silently skips invalid characters).
 */
export function decodeBase64url(text: string): Uint8Array {
  const bytes = Buffer.from(text, "base64url");
  if (bytes.toString("base64url") !== text) throw new RangeError("invalid base64url");
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Decode base64url text that carries UTF-8 (e.g. a JOSE header); strict like decodeBase64url. */
export function decodeBase64urlUtf8(text: string): string {
  const bytes = decodeBase64url(text);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
}
