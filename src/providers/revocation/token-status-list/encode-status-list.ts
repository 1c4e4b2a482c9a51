import { constants, deflateSync } from "node:zlib";
import { encodeBase64url } from "../../../encoding/base64url.js";
import { CredkitError } from "../../../errors/index.js";
import { isStatusListBits, type StatusList, type StatusListBits } from "./status-list.js";

/** The JSON Status List object (draft-ietf-oauth-status-list §4.2), the `status_list` claim of a Status List Token. */
export interface EncodedStatusList {
  /** bits per Referenced Token: 1, 2, 4 or 8 */
  bits: StatusListBits;
  /** base64url (no padding, RFC 7515 §2) of the ZLIB-wrapped DEFLATE compressed byte array (§4.1 step 4) */
  lst: string;
}

/**
 * The compressed byte array of §4.1 step 4: DEFLATE (RFC 1951) in the ZLIB format (RFC 1950), at the highest
 * compression level as the draft recommends. Also the `lst` byte string of the CBOR form (§4.3).
 *
 * DEFLATE output is not canonical: node:zlib (Chromium's zlib) may pick different — equally valid — blocks than the
 * reference zlib that produced the draft's Appendix C `lst` strings, so only the decompressed bytes are comparable.
 */
export function compressStatusList(list: StatusList): Uint8Array {
  if (!isStatusListBits(list.bits)) {
    throw new CredkitError("BR_0049", `status list bits must be 1, 2, 4 or 8, got ${String(list.bits)}`);
  }
  const compressed = deflateSync(list.bytes, { level: constants.Z_BEST_COMPRESSION });
  return new Uint8Array(compressed.buffer, compressed.byteOffset, compressed.byteLength);
}

/** The `{bits, lst}` JSON Status List of §4.2. */
export function encodeStatusList(list: StatusList): EncodedStatusList {
  return { bits: list.bits, lst: encodeBase64url(compressStatusList(list)) };
}
