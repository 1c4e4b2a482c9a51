import { inflateSync } from "node:zlib";
import { decodeBase64url } from "../../../encoding/base64url.js";
import { CredkitError } from "../../../errors/index.js";
import {
  isStatusListBits,
  MAX_STATUS_LIST_BYTES,
  type StatusList,
  type StatusListBits,
  wrapStatusListBytes,
} from "./status-list.js";

export interface DecodeStatusListOptions {
  /**
   * Largest uncompressed byte array accepted (zip-bomb guard): inflation stops and fails as soon as the output would
   * exceed it. Default MAX_STATUS_LIST_BYTES (16 MiB).
   */
  maxBytes?: number;
}

/**
 * Inflates a compressed byte array (draft-ietf-oauth-status-list §4.1 step 4; §8.3 step 5 "decompress the Status List
 * with a decompressor that is compatible with DEFLATE [RFC1951] and ZLIB [RFC1950]"). Only the ZLIB format is accepted
 * — raw DEFLATE or gzip fail the RFC 1950 header check — and nothing may follow the end of the ZLIB stream.
 */
export function decompressStatusList(
  compressed: Uint8Array,
  bits: StatusListBits,
  options: DecodeStatusListOptions = {},
): StatusList {
  if (!isStatusListBits(bits)) {
    throw new CredkitError("BR_0049", `status list bits must be 1, 2, 4 or 8, got ${String(bits)}`);
  }
  const maxBytes = options.maxBytes ?? MAX_STATUS_LIST_BYTES;
  if (!Number.isSafeInteger(maxBytes) || maxBytes <= 0) {
    throw new CredkitError("BR_0049", `maxBytes must be a positive integer, got ${String(maxBytes)}`);
  }
  if (compressed.byteLength === 0) throw new CredkitError("BR_0049", "status list: compressed byte array is empty");

  let inflated: Buffer;
  let consumed: number;
  try {
    // `info: true` exposes the engine, whose bytesWritten is the input consumed up to the end of the ZLIB stream
    const result = inflateSync(compressed, { maxOutputLength: maxBytes, info: true }) as unknown as {
      buffer: Buffer;
      engine: { bytesWritten: number };
    };
    inflated = result.buffer;
    consumed = result.engine.bytesWritten;
  } catch (error) {
    if ((error as { code?: unknown }).code === "ERR_BUFFER_TOO_LARGE") {
      throw new CredkitError(
        "BR_0049",
        `status list inflates to more than ${maxBytes} bytes; refused (decompression bomb guard)`,
        { cause: error },
      );
    }
    throw new CredkitError(
      "BR_0049",
      `status list is not a valid ZLIB/DEFLATE stream (RFC 1950/1951): ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  if (consumed !== compressed.byteLength) {
    throw new CredkitError(
      "BR_0049",
      `status list has ${compressed.byteLength - consumed} unexpected byte(s) after the end of its ZLIB stream`,
    );
  }
  if (inflated.byteLength === 0) throw new CredkitError("BR_0049", "status list inflates to an empty byte array");
  return wrapStatusListBytes(new Uint8Array(inflated.buffer, inflated.byteOffset, inflated.byteLength), bits);
}

/**
 * Decodes the JSON Status List `{bits, lst}` (§4.2) — e.g. the `status_list` claim of a Status List Token — into a
 * Status List of lst-bytes × 8 / bits entries. `encoded` is untrusted input and fully validated; unknown members
 * such as `aggregation_uri` (§4.2, §9.2) are ignored.
 */
export function decodeStatusList(encoded: unknown, options: DecodeStatusListOptions = {}): StatusList {
  if (typeof encoded !== "object" || encoded === null || Array.isArray(encoded)) {
    throw new CredkitError("BR_0049", "status_list must be a JSON object with bits and lst");
  }
  const { bits, lst } = encoded as { bits?: unknown; lst?: unknown };
  if (!isStatusListBits(bits)) {
    throw new CredkitError(
      "BR_0049",
      `status_list.bits must be 1, 2, 4 or 8, got ${JSON.stringify(bits) ?? "nothing"}`,
    );
  }
  if (typeof lst !== "string" || lst.length === 0) {
    throw new CredkitError("BR_0049", "status_list.lst must be a non-empty base64url string");
  }
  let compressed: Uint8Array;
  try {
    compressed = decodeBase64url(lst);
  } catch (error) {
    throw new CredkitError("BR_0049", "status_list.lst is not unpadded base64url (RFC 7515 §2)", { cause: error });
  }
  return decompressStatusList(compressed, bits, options);
}
