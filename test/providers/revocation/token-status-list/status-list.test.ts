import { describe, expect, it } from "vitest";
import { isCredkitError } from "../../../../src/errors/index.js";
import {
  createStatusList,
  getStatus,
  MAX_STATUS_LIST_BYTES,
  STATUS_LIST_BITS,
  type StatusListBits,
  setStatus,
  statusListFromBytes,
} from "../../../../src/providers/revocation/token-status-list/index.js";

function expectCredkitError(action: () => unknown, code: string, detail: RegExp) {
  try {
    action();
  } catch (error) {
    expect(isCredkitError(error)).toBe(true);
    expect((error as { code: string }).code).toBe(code);
    expect((error as { detail: string }).detail).toMatch(detail);
    return;
  }
  expect.fail("expected a CredkitError");
}

describe("status list bit packing (draft-ietf-oauth-status-list §4.1)", () => {
  it("packs the 1-bit example LSB first into [0xB9, 0xA3]", () => {
    const statuses = [1, 0, 0, 1, 1, 1, 0, 1, 1, 1, 0, 0, 0, 1, 0, 1];
    const list = createStatusList(16, 1);
    for (const [index, value] of statuses.entries()) setStatus(list, index, value);
    expect([...list.bytes]).toEqual([0xb9, 0xa3]);
    for (const [index, value] of statuses.entries()) expect(getStatus(list, index)).toBe(value);
  });

  it("packs the 2-bit example into [0xC9, 0x44, 0xF9]", () => {
    const statuses = [0b01, 0b10, 0b00, 0b11, 0b0, 0b01, 0b00, 0b01, 0b01, 0b10, 0b11, 0b11];
    const list = createStatusList(12, 2);
    for (const [index, value] of statuses.entries()) setStatus(list, index, value);
    expect([...list.bytes]).toEqual([0xc9, 0x44, 0xf9]);
    const decoded = statusListFromBytes(Uint8Array.of(0xc9, 0x44, 0xf9), 2);
    expect(statuses.map((_, index) => getStatus(decoded, index))).toEqual(statuses);
  });

  it("puts index 0 in the least significant bits of byte 0 for every bit size", () => {
    for (const bits of STATUS_LIST_BITS) {
      const list = createStatusList(16, bits);
      setStatus(list, 0, 1);
      expect(list.bytes[0]).toBe(0x01);
      setStatus(list, 0, 0);
      setStatus(list, 8 / bits - 1, 1); // last entry of byte 0 sits in its top bits
      expect(list.bytes[0]).toBe(1 << (8 - bits));
      setStatus(list, 8 / bits, 1); // first entry of byte 1
      expect(list.bytes[1]).toBe(0x01);
    }
  });

  it("4- and 8-bit entries hold nibbles and whole bytes", () => {
    const four = createStatusList(4, 4);
    setStatus(four, 0, 0xa);
    setStatus(four, 1, 0x5);
    setStatus(four, 3, 0xf);
    expect([...four.bytes]).toEqual([0x5a, 0xf0]);
    const eight = createStatusList(3, 8);
    setStatus(eight, 1, 0xfe);
    expect([...eight.bytes]).toEqual([0x00, 0xfe, 0x00]);
  });

  it("setStatus leaves the neighbours sharing a byte untouched", () => {
    const list = createStatusList(8, 2);
    for (let index = 0; index < 8; index++) setStatus(list, index, 3);
    setStatus(list, 5, 1);
    expect([...Array(8).keys()].map((index) => getStatus(list, index))).toEqual([3, 3, 3, 3, 3, 1, 3, 3]);
  });

  it("agrees with a plain array model over random writes", () => {
    for (const bits of STATUS_LIST_BITS) {
      const size = 1000 + bits;
      const list = createStatusList(size, bits);
      const model = new Array<number>(size).fill(0);
      for (let write = 0; write < 5000; write++) {
        const index = Math.floor(Math.random() * size);
        const value = Math.floor(Math.random() * 2 ** bits);
        setStatus(list, index, value);
        model[index] = value;
      }
      expect([...Array(size).keys()].map((index) => getStatus(list, index))).toEqual(model);
    }
  });
});

describe("createStatusList", () => {
  it("allocates ceil(size × bits / 8) zeroed bytes", () => {
    const cases: [number, StatusListBits, number][] = [
      [1, 1, 1],
      [8, 1, 1],
      [9, 1, 2],
      [5, 2, 2],
      [3, 4, 2],
      [3, 8, 3],
      [1_048_576, 1, 131_072],
    ];
    for (const [size, bits, bytes] of cases) {
      const list = createStatusList(size, bits);
      expect(list.size).toBe(size);
      expect(list.bytes.byteLength).toBe(bytes);
      expect(list.bytes.every((byte) => byte === 0)).toBe(true);
    }
  });

  it("rejects bad sizes and bit counts", () => {
    for (const size of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expectCredkitError(() => createStatusList(size, 1), "BR_0049", /size must be a positive integer/);
    }
    for (const bits of [0, 3, 16, "2"]) {
      expectCredkitError(() => createStatusList(8, bits as StatusListBits), "BR_0049", /bits must be 1, 2, 4 or 8/);
    }
    expectCredkitError(
      () => createStatusList(MAX_STATUS_LIST_BYTES + 1, 8),
      "BR_0049",
      /more than the 16777216-byte limit/,
    );
    expect(createStatusList(MAX_STATUS_LIST_BYTES * 8, 1).bytes.byteLength).toBe(MAX_STATUS_LIST_BYTES);
  });

  it("statusListFromBytes copies its input and exposes every bit", () => {
    const bytes = Uint8Array.of(0xff);
    const list = statusListFromBytes(bytes, 2);
    expect(list.size).toBe(4);
    setStatus(list, 0, 0);
    expect(bytes[0]).toBe(0xff);
    expectCredkitError(() => statusListFromBytes(new Uint8Array(0), 1), "BR_0049", /empty/);
  });
});

describe("index and value checks", () => {
  it("rejects indices outside 0…size-1, including the padding of the last byte", () => {
    const list = createStatusList(10, 1); // 2 bytes, entries 10…15 are padding
    for (const index of [-1, 10, 15, 16, 1.5, Number.NaN, 2 ** 53]) {
      expectCredkitError(() => getStatus(list, index), "BR_0049", /out of range: the list has 10 entries \(0…9\)/);
      expectCredkitError(() => setStatus(list, index, 0), "BR_0049", /out of range/);
    }
    expect(getStatus(list, 9)).toBe(0);
  });

  it("rejects values that do not fit the bit size", () => {
    const cases: [StatusListBits, number][] = [
      [1, 2],
      [2, 4],
      [4, 16],
      [8, 256],
    ];
    for (const [bits, tooLarge] of cases) {
      const list = createStatusList(8, bits);
      setStatus(list, 0, tooLarge - 1);
      expect(getStatus(list, 0)).toBe(tooLarge - 1);
      for (const value of [tooLarge, -1, 0.5]) {
        expectCredkitError(() => setStatus(list, 0, value), "BR_0049", new RegExp(`${bits}-bit status list entry`));
      }
    }
  });
});
