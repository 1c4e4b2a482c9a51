import { describe, expect, it } from "vitest";
import { isCredkitError } from "../../../../src/errors/index.js";
import {
  allocateRandomIndex,
  CREDKIT_STATUS_LIST_BITS,
  createStatusClaim,
  createStatusList,
  describeTokenStatus,
  parseStatusClaim,
  setStatus,
  TOKEN_STATUS,
} from "../../../../src/providers/revocation/token-status-list/index.js";

function thrown(action: () => unknown): { code: string; detail: string } {
  try {
    action();
  } catch (error) {
    expect(isCredkitError(error)).toBe(true);
    return error as { code: string; detail: string };
  }
  return expect.fail("expected a CredkitError");
}

describe("status values (draft-ietf-oauth-status-list §7.1)", () => {
  it("uses the registered values with 2-bit lists", () => {
    expect(TOKEN_STATUS).toEqual({ VALID: 0, INVALID: 1, SUSPENDED: 2 });
    expect(CREDKIT_STATUS_LIST_BITS).toBe(2);
  });

  it("names registered, application-specific and reserved values", () => {
    expect([0, 1, 2, 3].map(describeTokenStatus)).toEqual(["VALID", "INVALID", "SUSPENDED", "APPLICATION_SPECIFIC"]);
    expect([0x0c, 0x0f].map(describeTokenStatus)).toEqual(["APPLICATION_SPECIFIC", "APPLICATION_SPECIFIC"]);
    expect([0x04, 0x0b, 0x10, 0xff].map(describeTokenStatus)).toEqual(["RESERVED", "RESERVED", "RESERVED", "RESERVED"]);
  });
});

describe("allocateRandomIndex", () => {
  it("never returns a taken index", () => {
    const list = createStatusList(1000, 2);
    const taken = new Set<number>();
    for (let index = 0; index < 1000; index += 3) taken.add(index);
    for (let draw = 0; draw < 2000; draw++) {
      const index = allocateRandomIndex(list, (candidate) => taken.has(candidate));
      expect(taken.has(index)).toBe(false);
      expect(index).toBeGreaterThanOrEqual(0);
      expect(index).toBeLessThan(1000);
    }
  });

  it("fills a list with distinct indices, then reports it full", () => {
    const list = createStatusList(64, 2);
    const taken = new Set<number>();
    for (let allocation = 0; allocation < 64; allocation++) {
      const index = allocateRandomIndex(list, (candidate) => taken.has(candidate));
      expect(taken.has(index)).toBe(false);
      taken.add(index);
    }
    expect(taken.size).toBe(64);
    const error = thrown(() => allocateRandomIndex(list, (candidate) => taken.has(candidate)));
    expect(error.code).toBe("BR_0101");
    expect(error.detail).toBe("status list is full: all 64 indices are allocated");
  });

  it("finds the last free index of a large, nearly full list", () => {
    const list = createStatusList(100_000, 1);
    for (let draw = 0; draw < 5; draw++) {
      expect(allocateRandomIndex(list, (candidate) => candidate !== 77_777)).toBe(77_777);
    }
  });

  it("treats entries that are no longer VALID as taken (no double allocation, §13.3)", () => {
    const list = createStatusList(4, 2);
    setStatus(list, 0, TOKEN_STATUS.INVALID);
    setStatus(list, 1, TOKEN_STATUS.SUSPENDED);
    setStatus(list, 3, TOKEN_STATUS.INVALID);
    for (let draw = 0; draw < 50; draw++) expect(allocateRandomIndex(list, () => false)).toBe(2);
    setStatus(list, 2, TOKEN_STATUS.INVALID);
    expect(thrown(() => allocateRandomIndex(list, () => false)).detail).toMatch(/full/);
  });

  it("spreads picks uniformly over the free indices", () => {
    const list = createStatusList(8, 1);
    const counts = new Map<number, number>();
    const draws = 8000;
    for (let draw = 0; draw < draws; draw++) {
      const index = allocateRandomIndex(list, (candidate) => candidate % 2 === 0);
      counts.set(index, (counts.get(index) ?? 0) + 1);
    }
    expect([...counts.keys()].sort()).toEqual([1, 3, 5, 7]);
    // expected 2000 each; ±250 is > 5 standard deviations
    for (const count of counts.values()) expect(Math.abs(count - draws / 4)).toBeLessThan(250);
  });
});

describe("Referenced Token status claim (§6.2)", () => {
  it("builds and reads status.status_list {idx, uri}", () => {
    const claim = createStatusClaim({ idx: 412, uri: "https://example.com/statuslists/1" });
    expect(claim).toEqual({ status_list: { idx: 412, uri: "https://example.com/statuslists/1" } });
    expect(parseStatusClaim({ ...claim, other_mechanism: {} })).toEqual({
      idx: 412,
      uri: "https://example.com/statuslists/1",
    });
  });

  it("rejects missing or malformed references", () => {
    const uri = "https://example.com/statuslists/1";
    const cases: [unknown, RegExp][] = [
      [undefined, /status claim must be a JSON object/],
      [{}, /no status_list object/],
      [{ status_list: { uri } }, /idx must be a non-negative integer/],
      [{ status_list: { idx: -1, uri } }, /idx must be a non-negative integer/],
      [{ status_list: { idx: 1.5, uri } }, /idx must be a non-negative integer/],
      [{ status_list: { idx: "3", uri } }, /idx must be a non-negative integer/],
      [{ status_list: { idx: 3 } }, /uri must be a URI/],
      [{ status_list: { idx: 3, uri: "statuslists/1" } }, /uri must be a URI/],
    ];
    for (const [status, detail] of cases) {
      const error = thrown(() => parseStatusClaim(status));
      expect(error.code).toBe("BR_0101");
      expect(error.detail).toMatch(detail);
    }
    expect(thrown(() => createStatusClaim({ idx: -1, uri })).code).toBe("BR_0101");
  });
});
