import { deflateRawSync, deflateSync, gzipSync, inflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { encodeBase64url } from "../../../../src/encoding/base64url.js";
import { isCredkitError } from "../../../../src/errors/index.js";
import {
  compressStatusList,
  createStatusList,
  decodeStatusList,
  decompressStatusList,
  encodeStatusList,
  getStatus,
  MAX_STATUS_LIST_BYTES,
  STATUS_LIST_BITS,
  setStatus,
  statusListFromBytes,
} from "../../../../src/providers/revocation/token-status-list/index.js";
import { DRAFT_VECTOR_FILES, loadDraftVector } from "./draft-vectors.js";

function expectBr0049(action: () => unknown, detail: RegExp) {
  try {
    action();
  } catch (error) {
    expect(isCredkitError(error) && error.code).toBe("BR_0049");
    expect((error as { detail: string }).detail).toMatch(detail);
    return;
  }
  expect.fail("expected CredkitError BR_0049");
}

describe("JSON Status List examples (draft-ietf-oauth-status-list §4.1, §4.2)", () => {
  it('encodes the 1-bit example [0xB9, 0xA3] as "eNrbuRgAAhcBXQ" and back', () => {
    const list = statusListFromBytes(Uint8Array.of(0xb9, 0xa3), 1);
    expect(encodeStatusList(list)).toEqual({ bits: 1, lst: "eNrbuRgAAhcBXQ" });
    // §4.1: compressed array (hex) 78dadbb918000217015d
    expect(Buffer.from(compressStatusList(list)).toString("hex")).toBe("78dadbb918000217015d");
    const decoded = decodeStatusList({ bits: 1, lst: "eNrbuRgAAhcBXQ" });
    expect(decoded.size).toBe(16);
    expect([...decoded.bytes]).toEqual([0xb9, 0xa3]);
    expect([...Array(16).keys()].map((index) => getStatus(decoded, index))).toEqual([
      1, 0, 0, 1, 1, 1, 0, 1, 1, 1, 0, 0, 0, 1, 0, 1,
    ]);
  });

  it('encodes the 2-bit example [0xC9, 0x44, 0xF9] as "eNo76fITAAPfAgc" and back', () => {
    const statuses = [1, 2, 0, 3, 0, 1, 0, 1, 1, 2, 3, 3];
    const list = createStatusList(12, 2);
    for (const [index, value] of statuses.entries()) setStatus(list, index, value);
    expect(encodeStatusList(list)).toEqual({ bits: 2, lst: "eNo76fITAAPfAgc" });
    expect(Buffer.from(compressStatusList(list)).toString("hex")).toBe("78da3be9f2130003df0207");
    const decoded = decodeStatusList({ bits: 2, lst: "eNo76fITAAPfAgc" });
    expect(statuses.map((_, index) => getStatus(decoded, index))).toEqual(statuses);
  });
});

describe.each(DRAFT_VECTOR_FILES.map((file) => loadDraftVector(file)))("Appendix C test vector $name", (vector) => {
  it("fixture is self-consistent: the JSON lst carries the same bytes as the CBOR lst", () => {
    const compressed = Buffer.from(vector.lst, "base64url");
    // CBOR: map(2) "bits" <bits> "lst" bstr(<len>) <compressed bytes> (§4.3); the bstr is the tail
    expect(vector.cborHex.startsWith(`a26462697473${vector.bits.toString(16).padStart(2, "0")}636c7374`)).toBe(true);
    expect(vector.cborHex.endsWith(compressed.toString("hex"))).toBe(true);
  });

  it("decodes to 2^20 entries with every listed status and 0 elsewhere", () => {
    const list = decodeStatusList({ bits: vector.bits, lst: vector.lst });
    expect(list.bits).toBe(vector.bits);
    expect(list.size).toBe(vector.size);
    const listed = [...vector.statuses].map(([index]) => [index, getStatus(list, index)]);
    expect(listed).toEqual([...vector.statuses]);
    let nonZeroElsewhere = 0;
    for (let index = 0; index < list.size; index++) {
      if (!vector.statuses.has(index) && getStatus(list, index) !== 0) nonZeroElsewhere++;
    }
    expect(nonZeroElsewhere).toBe(0);
  });

  it("encoding the listed statuses yields the draft's byte array (the lst decodes to identical bytes)", () => {
    const list = createStatusList(vector.size, vector.bits);
    for (const [index, value] of vector.statuses) setStatus(list, index, value);
    const encoded = encodeStatusList(list);
    expect(encoded.bits).toBe(vector.bits);
    // DEFLATE is not canonical: node:zlib (Chromium's zlib fork) may choose other, equally valid blocks than the
    // reference zlib behind the draft's strings, so compare what both lst strings inflate to.
    expect(
      inflateSync(Buffer.from(encoded.lst, "base64url")).equals(inflateSync(Buffer.from(vector.lst, "base64url"))),
    ).toBe(true);
    expect(Buffer.from(decodeStatusList(encoded).bytes).equals(list.bytes)).toBe(true);
  });
});

describe("round trips", () => {
  it.each(STATUS_LIST_BITS)("random %i-bit lists survive encode → decode", (bits) => {
    for (const size of [1, 7, 8, 9, 100, 4099, 100_000]) {
      const list = createStatusList(size, bits);
      const writes = Math.min(size, 2000);
      for (let write = 0; write < writes; write++) {
        setStatus(list, Math.floor(Math.random() * size), Math.floor(Math.random() * 2 ** bits));
      }
      const decoded = decodeStatusList(JSON.parse(JSON.stringify(encodeStatusList(list))));
      expect(decoded.bits).toBe(bits);
      // the decoded list exposes every bit of the last byte; the padding entries are 0
      expect(decoded.size).toBe((Math.ceil((size * bits) / 8) * 8) / bits);
      expect(Buffer.from(decoded.bytes).equals(list.bytes)).toBe(true);
      const mismatches: number[] = [];
      for (let index = 0; index < decoded.size; index++) {
        const expected = index < size ? getStatus(list, index) : 0;
        if (getStatus(decoded, index) !== expected) mismatches.push(index);
      }
      expect(mismatches).toEqual([]);
    }
  });

  it("a decoded list is mutable and re-encodes", () => {
    const list = decodeStatusList({ bits: 1, lst: "eNrbuRgAAhcBXQ" });
    setStatus(list, 1, 1);
    expect([...decodeStatusList(encodeStatusList(list)).bytes]).toEqual([0xbb, 0xa3]);
  });

  it("compresses a sparse 2^20-entry list to a few hundred bytes at level 9", () => {
    const list = createStatusList(2 ** 20, 1);
    setStatus(list, 12345, 1);
    const compressed = compressStatusList(list);
    expect(compressed.byteLength).toBeLessThan(300);
    expect(compressed[0]).toBe(0x78); // ZLIB CMF: deflate, 32K window (RFC 1950 §2.2)
    expect(compressed[1]).toBe(0xda); // FLG: FLEVEL 3 = maximum compression
  });
});

describe("decoding untrusted input", () => {
  it("refuses a list that inflates beyond the limit (zip bomb)", () => {
    // 64 MiB of zeros deflate to ~64 KB
    const bomb = deflateSync(Buffer.alloc(64 * 1024 * 1024), { level: 9 });
    expect(bomb.byteLength).toBeLessThan(100_000);
    const started = Date.now();
    expectBr0049(
      () => decodeStatusList({ bits: 1, lst: encodeBase64url(bomb) }),
      /inflates to more than 16777216 bytes; refused \(decompression bomb guard\)/,
    );
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("applies a caller-chosen maxBytes exactly", () => {
    const lst = encodeBase64url(deflateSync(Buffer.alloc(1000)));
    expect(decodeStatusList({ bits: 8, lst }, { maxBytes: 1000 }).size).toBe(1000);
    expectBr0049(() => decodeStatusList({ bits: 8, lst }, { maxBytes: 999 }), /more than 999 bytes/);
    expectBr0049(() => decodeStatusList({ bits: 8, lst }, { maxBytes: 0 }), /maxBytes must be a positive integer/);
  });

  it("accepts exactly MAX_STATUS_LIST_BYTES", () => {
    const lst = encodeBase64url(deflateSync(Buffer.alloc(MAX_STATUS_LIST_BYTES), { level: 9 }));
    expect(decodeStatusList({ bits: 1, lst }).size).toBe(MAX_STATUS_LIST_BYTES * 8);
  });

  it("rejects malformed status_list objects", () => {
    const lst = "eNrbuRgAAhcBXQ";
    expectBr0049(() => decodeStatusList(null), /must be a JSON object/);
    expectBr0049(() => decodeStatusList([1, lst]), /must be a JSON object/);
    expectBr0049(() => decodeStatusList({ lst }), /bits must be 1, 2, 4 or 8, got nothing/);
    expectBr0049(() => decodeStatusList({ bits: 3, lst }), /bits must be 1, 2, 4 or 8, got 3/);
    expectBr0049(() => decodeStatusList({ bits: "1", lst }), /got "1"/);
    expectBr0049(() => decodeStatusList({ bits: 1 }), /lst must be a non-empty base64url string/);
    expectBr0049(() => decodeStatusList({ bits: 1, lst: "" }), /lst must be a non-empty base64url string/);
    expectBr0049(() => decodeStatusList({ bits: 1, lst: 42 }), /lst must be a non-empty base64url string/);
  });

  it("rejects lst that is not strict base64url", () => {
    for (const lst of ["eNrbuRgAAhcBXQ==", "eNrbuRgAAhcBXQ ", "eNrb+RgAAhcBXQ", "eNrb/RgAAhcBXQ", "eNrbuRgAAhcBXR"]) {
      expectBr0049(() => decodeStatusList({ bits: 1, lst }), /not unpadded base64url/);
    }
  });

  it("accepts only the ZLIB format, complete, without trailing bytes", () => {
    const bytes = Buffer.from([0xb9, 0xa3]);
    const zlib = deflateSync(bytes);
    expectBr0049(
      () => decompressStatusList(deflateRawSync(bytes), 1),
      /not a valid ZLIB\/DEFLATE stream.*header check/,
    );
    expectBr0049(() => decompressStatusList(gzipSync(bytes), 1), /not a valid ZLIB\/DEFLATE stream/);
    expectBr0049(() => decompressStatusList(zlib.subarray(0, zlib.length - 2), 1), /not a valid ZLIB\/DEFLATE stream/);
    expectBr0049(
      () => decompressStatusList(Buffer.concat([zlib, Buffer.from([0])]), 1),
      /1 unexpected byte\(s\) after the end/,
    );
    expectBr0049(() => decompressStatusList(new Uint8Array(0), 1), /compressed byte array is empty/);
    expectBr0049(() => decompressStatusList(deflateSync(Buffer.alloc(0)), 1), /inflates to an empty byte array/);
    const corrupted = Buffer.from(zlib);
    corrupted[corrupted.length - 1]! ^= 0xff; // Adler-32 checksum
    expectBr0049(() => decompressStatusList(corrupted, 1), /incorrect data check/);
    expect([...decompressStatusList(zlib, 1).bytes]).toEqual([0xb9, 0xa3]);
  });
});
