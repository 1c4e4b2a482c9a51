/**
 * base58btc (the Bitcoin alphabet; multibase prefix `z`, draft-msporny-base58 §2). Keys are a few dozen bytes, so the
 * quadratic big-number conversion is fast enough and needs no BigInt.
 */

const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
const INDEX = (() => {
  const index = new Int8Array(128).fill(-1);
  for (let i = 0; i < ALPHABET.length; i++) index[ALPHABET.charCodeAt(i)] = i;
  return index;
})();

/** Encode bytes as base58btc (no multibase prefix). */
export function encodeBase58btc(bytes: Uint8Array): string {
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++;
  // log(256) / log(58) ≈ 1.366 digits per byte
  const digits = new Uint8Array(Math.ceil(((bytes.length - zeros) * 138) / 100) + 1);
  let length = 0;
  for (let i = zeros; i < bytes.length; i++) {
    let carry = bytes[i]!;
    let j = 0;
    for (let k = digits.length - 1; (carry !== 0 || j < length) && k >= 0; k--, j++) {
      carry += 256 * digits[k]!;
      digits[k] = carry % 58;
      carry = Math.floor(carry / 58);
    }
    length = j;
  }
  let start = digits.length - length;
  while (start < digits.length && digits[start] === 0) start++;
  let out = "1".repeat(zeros);
  for (let i = start; i < digits.length; i++) out += ALPHABET[digits[i]!];
  return out;
}

/** Decode base58btc text (no multibase prefix). Throws a RangeError on a character outside the alphabet. */
export function decodeBase58btc(text: string): Uint8Array {
  let zeros = 0;
  while (zeros < text.length && text.charCodeAt(zeros) === 49 /* "1" */) zeros++;
  // log(58) / log(256) ≈ 0.733 bytes per digit
  const bytes = new Uint8Array(Math.ceil(((text.length - zeros) * 733) / 1000) + 1);
  let length = 0;
  for (let i = zeros; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const value = code < 128 ? INDEX[code]! : -1;
    if (value < 0) throw new RangeError(`invalid base58btc character at ${i}`);
    let carry = value;
    let j = 0;
    for (let k = bytes.length - 1; (carry !== 0 || j < length) && k >= 0; k--, j++) {
      carry += 58 * bytes[k]!;
      bytes[k] = carry & 0xff;
      carry >>= 8;
    }
    length = j;
  }
  let start = bytes.length - length;
  while (start < bytes.length && bytes[start] === 0) start++;
  const out = new Uint8Array(zeros + bytes.length - start);
  out.set(bytes.subarray(start), zeros);
  return out;
}
