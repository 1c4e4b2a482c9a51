import { CredkitError } from "../../../errors/index.js";

/**
 * The uncompressed Status List of draft-ietf-oauth-status-list ("Token Status List", §4.1 "Compressed Byte Array"):
 * a byte array holding one status of `bits` bits per Referenced Token, packed from the least significant bit ("0")
 * to the most significant bit ("7") of each byte, bytes in their natural order. Index 0 therefore sits in the lowest
 * bits of byte 0; with bits=1, statuses [1,0,0,1,1,1,0,1, 1,1,0,0,0,1,0,1] are the bytes [0xB9, 0xA3] (§4.1 example).
 * Because every status fits in one byte (§4.1 step 1), endianness never applies (§11.1).
 */

/** Bits per Referenced Token: 1, 2, 4 or 8, i.e. 2, 4, 16 or 256 possible status values (§4.1 step 1). */
export type StatusListBits = 1 | 2 | 4 | 8;

/** The allowed values of `bits` (§4.1 step 1, §4.2). */
export const STATUS_LIST_BITS: readonly StatusListBits[] = [1, 2, 4, 8];

/**
 * Largest uncompressed byte array credkit creates or accepts: 16 MiB, i.e. 2^27 one-bit or 2^24 eight-bit entries —
 * far above the 10^7-entry lists of the draft's size comparison (Appendix B). Decoding refuses anything that inflates
 * beyond it, so a small `lst` cannot expand into gigabytes (zip bomb).
 */
export const MAX_STATUS_LIST_BYTES = 16 * 1024 * 1024;

/** A mutable Status List: `setStatus` writes into `bytes` in place. */
export interface StatusList {
  /** bits per entry (§4.1 step 1) */
  readonly bits: StatusListBits;
  /** number of addressable entries: valid indices are 0 … size - 1 (§4.1 step 3) */
  readonly size: number;
  /** the uncompressed byte array of §4.1 step 2, ceil(size × bits / 8) bytes */
  readonly bytes: Uint8Array;
}

export function isStatusListBits(value: unknown): value is StatusListBits {
  return value === 1 || value === 2 || value === 4 || value === 8;
}

/** The largest status value an entry of `bits` bits can hold (2^bits - 1). */
export function maxStatusValue(bits: StatusListBits): number {
  return (1 << bits) - 1;
}

/**
 * A Status List of `size` entries of `bits` bits, every entry 0x00 (VALID). Starting from the most common value keeps
 * the list compressible and hides how many indices are in use (§13.3 "Default Values and Double Allocation").
 */
export function createStatusList(size: number, bits: StatusListBits): StatusList {
  assertBits(bits);
  if (!Number.isSafeInteger(size) || size <= 0) {
    throw new CredkitError("BR_0049", `status list size must be a positive integer, got ${String(size)}`);
  }
  const byteLength = Math.ceil((size * bits) / 8);
  if (byteLength > MAX_STATUS_LIST_BYTES) {
    throw new CredkitError(
      "BR_0049",
      `status list of ${size} entries × ${bits} bit(s) needs ${byteLength} bytes, more than the ${MAX_STATUS_LIST_BYTES}-byte limit`,
    );
  }
  return { bits, size, bytes: new Uint8Array(byteLength) };
}

/**
 * A Status List over a copy of an uncompressed byte array (§4.1 step 2). Every bit is addressable, so the list has
 * bytes.length × 8 / bits entries: a list created with a size that does not fill its last byte comes back with the
 * zero padding entries included (the draft only says the array is "size × bits / 8 or greater").
 */
export function statusListFromBytes(bytes: Uint8Array, bits: StatusListBits): StatusList {
  assertBits(bits);
  if (bytes.byteLength === 0) throw new CredkitError("BR_0049", "status list byte array is empty");
  if (bytes.byteLength > MAX_STATUS_LIST_BYTES) {
    throw new CredkitError(
      "BR_0049",
      `status list byte array of ${bytes.byteLength} bytes exceeds the ${MAX_STATUS_LIST_BYTES}-byte limit`,
    );
  }
  return wrapStatusListBytes(Uint8Array.from(bytes), bits);
}

/** @internal — adopts `bytes` without copying (the decoder hands over a fresh inflate buffer). */
export function wrapStatusListBytes(bytes: Uint8Array, bits: StatusListBits): StatusList {
  return { bits, size: (bytes.byteLength * 8) / bits, bytes };
}

/** The status value at `index` (§4.1 step 3): `bits` bits starting at bit index × bits, LSB first. */
export function getStatus(list: StatusList, index: number): number {
  const { byteIndex, shift, mask } = locate(list, index);
  return (list.bytes[byteIndex]! >> shift) & mask;
}

/** Writes `value` (0 … 2^bits - 1) at `index`, leaving the other entries sharing the byte untouched. */
export function setStatus(list: StatusList, index: number, value: number): void {
  const { byteIndex, shift, mask } = locate(list, index);
  if (!Number.isInteger(value) || value < 0 || value > mask) {
    throw new CredkitError(
      "BR_0049",
      `status value ${String(value)} does not fit a ${list.bits}-bit status list entry (allowed 0…${mask})`,
    );
  }
  list.bytes[byteIndex] = (list.bytes[byteIndex]! & ~(mask << shift)) | (value << shift);
}

function locate(list: StatusList, index: number): { byteIndex: number; shift: number; mask: number } {
  if (!Number.isSafeInteger(index) || index < 0 || index >= list.size) {
    throw new CredkitError(
      "BR_0049",
      `status list index ${String(index)} is out of range: the list has ${list.size} entries (0…${list.size - 1})`,
    );
  }
  // bits ∈ {1,2,4,8} divides 8, so an entry never straddles two bytes (§4.1 step 1)
  const bitOffset = index * list.bits;
  return { byteIndex: Math.floor(bitOffset / 8), shift: bitOffset % 8, mask: maxStatusValue(list.bits) };
}

function assertBits(bits: unknown): asserts bits is StatusListBits {
  if (!isStatusListBits(bits)) {
    throw new CredkitError(
      "BR_0049",
      `status list bits must be 1, 2, 4 or 8, got ${JSON.stringify(bits) ?? String(bits)}`,
    );
  }
}
