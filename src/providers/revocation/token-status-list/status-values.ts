import { randomInt } from "node:crypto";
import { CredkitError } from "../../../errors/index.js";
import { getStatus, type StatusList, type StatusListBits } from "./status-list.js";

/**
 * Status Type values (draft-ietf-oauth-status-list §7.1) that credkit writes. credkit issues 2-bit lists so one list
 * can carry both revocation and suspension (0x02 does not fit one bit, §4.1 second example).
 */
export const TOKEN_STATUS = {
  /** 0x00 "VALID": valid, correct or legal — also the value of every unused index (§13.3) */
  VALID: 0x00,
  /** 0x01 "INVALID": revoked, annulled, taken back, recalled or cancelled */
  INVALID: 0x01,
  /** 0x02 "SUSPENDED": temporarily invalid */
  SUSPENDED: 0x02,
} as const;

export type TokenStatus = (typeof TOKEN_STATUS)[keyof typeof TOKEN_STATUS];

/** Bits per entry of the lists credkit issues. */
export const CREDKIT_STATUS_LIST_BITS: StatusListBits = 2;

export type TokenStatusName = "VALID" | "INVALID" | "SUSPENDED" | "APPLICATION_SPECIFIC" | "RESERVED";

/**
 * Names a status value read from any list (§7.1): 0x00–0x02 as registered, 0x03 and 0x0C–0x0F "permanently reserved
 * as application specific", every other value reserved for future registration.
 */
export function describeTokenStatus(value: number): TokenStatusName {
  switch (value) {
    case TOKEN_STATUS.VALID:
      return "VALID";
    case TOKEN_STATUS.INVALID:
      return "INVALID";
    case TOKEN_STATUS.SUSPENDED:
      return "SUSPENDED";
    default:
      return value === 0x03 || (value >= 0x0c && value <= 0x0f) ? "APPLICATION_SPECIFIC" : "RESERVED";
  }
}

/** Random probes before allocateRandomIndex falls back to an exhaustive (still uniform) pick. */
const RANDOM_PROBES = 64;

/**
 * Picks a uniformly random free index of `list` for a new Referenced Token. Random rather than sequential indices keep
 * the index from revealing issuance order or volume (§12.4, §12.5.1 "choose non-sequential, pseudo-random or random
 * indices"). An index is free when `isTaken(index)` is false and its entry still holds 0x00 VALID — a non-zero entry
 * has been used, and re-using uri+idx would be double allocation (§13.3).
 *
 * Rejection sampling with crypto.randomInt is exactly uniform over the free indices; after 64 misses (a nearly full
 * list) it counts the free indices and picks the r-th one with r = randomInt(count), also uniform. Throws BR_0101
 * when no index is free.
 */
export function allocateRandomIndex(list: StatusList, isTaken: (index: number) => boolean): number {
  const isFree = (index: number) => !isTaken(index) && getStatus(list, index) === TOKEN_STATUS.VALID;
  for (let probe = 0; probe < RANDOM_PROBES; probe++) {
    const index = randomInt(list.size);
    if (isFree(index)) return index;
  }
  let free = 0;
  for (let index = 0; index < list.size; index++) if (isFree(index)) free++;
  if (free === 0) {
    throw new CredkitError("BR_0101", `status list is full: all ${list.size} indices are allocated`);
  }
  let remaining = randomInt(free);
  for (let index = 0; index < list.size; index++) {
    if (isFree(index) && remaining-- === 0) return index;
  }
  // isTaken changed its answers between the two passes
  throw new CredkitError("BR_0101", "status list index allocation failed: isTaken is not stable");
}
