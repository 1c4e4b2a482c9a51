import { decodeBase58btc, encodeBase58btc } from "./base58.js";

/**
 * Multicodec codes of the public keys credkit puts in multibase (multiformats multicodec table). Encoded as an
 * unsigned varint prefix in front of the raw key bytes (did:key spec §2, "Multikey" in Controlled Identifiers §2.2.2).
 */
export const MULTICODEC = {
  /** ed25519-pub: 32-byte raw public key */
  ED25519_PUB: 0xed,
  /** p256-pub: 33-byte compressed SEC1 point */
  P256_PUB: 0x1200,
  /** mldsa-65-pub: 1952-byte ML-DSA-65 public key (FIPS 204) */
  MLDSA65_PUB: 0x1211,
} as const;

export interface MulticodecValue {
  codec: number;
  bytes: Uint8Array;
}

/** Encode `bytes` tagged with `codec` as a base58btc multibase string (`z…`). */
export function encodeMultibase(codec: number, bytes: Uint8Array): string {
  const prefix = encodeVarint(codec);
  const buffer = new Uint8Array(prefix.length + bytes.length);
  buffer.set(prefix, 0);
  buffer.set(bytes, prefix.length);
  return "z" + encodeBase58btc(buffer);
}

/**
 * Decode a base58btc multibase string (`z…`) into its multicodec code and payload. Throws a RangeError when the value
 * is not base58btc multibase or the varint prefix is malformed.
 */
export function decodeMultibase(value: string): MulticodecValue {
  if (value.length < 2 || value[0] !== "z") throw new RangeError("multibase value must be base58btc ('z' prefix)");
  const buffer = decodeBase58btc(value.slice(1));
  const { value: codec, length } = decodeVarint(buffer);
  return { codec, bytes: buffer.subarray(length) };
}

/** Unsigned LEB128 varint (multiformats unsigned-varint). */
function encodeVarint(value: number): Uint8Array {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError("varint must be a non-negative safe integer");
  const out: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    out.push((rest & 0x7f) | 0x80);
    rest = Math.floor(rest / 128);
  }
  out.push(rest);
  return Uint8Array.from(out);
}

function decodeVarint(bytes: Uint8Array): { value: number; length: number } {
  let value = 0;
  let factor = 1;
  // multiformats unsigned-varint allows at most 9 bytes; multicodec codes in use fit in 4
  for (let i = 0; i < Math.min(bytes.length, 4); i++) {
    const byte = bytes[i]!;
    value += (byte & 0x7f) * factor;
    if ((byte & 0x80) === 0) {
      // minimal encoding only: a trailing zero group means the value was padded
      if (i > 0 && byte === 0) throw new RangeError("non-minimal varint");
      return { value, length: i + 1 };
    }
    factor *= 128;
  }
  throw new RangeError("truncated or oversized varint");
}
