import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { CredkitError } from "../../src/errors/index.js";
import { type ListQueryBase, listQuerySchema } from "../../src/http/query/list-query.js";
import { parseQuery } from "../../src/http/query/parse-query.js";

const keyList = listQuerySchema({
  sort: ["name", "createdDate", "publicKey", "keyType", "storageType"],
  exact: ["name"],
  extra: {
    organisationId: z.uuid().optional(),
    keyTypes: z.array(z.enum(["EDDSA", "ECDSA", "ML_DSA"])).optional(),
    isRemote: z.boolean().optional(),
  },
});

const parse = (query: string) => parseQuery(new URLSearchParams(query), keyList);

function failure(fn: () => unknown): CredkitError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(CredkitError);
    expect((error as CredkitError).code).toBe("BR_0084");
    expect((error as CredkitError).status).toBe(400);
    return error as CredkitError;
  }
  throw new Error("expected a failure");
}

const ID1 = "0e4f2b5c-3a4d-4b8e-9c1f-2d3e4f5a6b7c";
const ID2 = "7d9a1e2f-6b3c-4d5e-8f9a-0b1c2d3e4f5a";

describe("parseQuery", () => {
  it("parses a minimal list query with numbers coerced", () => {
    expect(parse("page=0&pageSize=10")).toEqual({ page: 0, pageSize: 10 });
  });

  it.each([
    ["brackets", "keyTypes[]=EDDSA&keyTypes[]=ECDSA"],
    ["repeated", "keyTypes=EDDSA&keyTypes=ECDSA"],
    ["qs indexes", "keyTypes[1]=ECDSA&keyTypes[0]=EDDSA"],
    ["url-encoded brackets", "keyTypes%5B%5D=EDDSA&keyTypes%5B%5D=ECDSA"],
  ])("reads arrays in %s notation", (_, query) => {
    expect(parse(`page=0&pageSize=10&${query}`).keyTypes).toEqual(["EDDSA", "ECDSA"]);
  });

  it("reads a single value as a one-element array", () => {
    expect(parse("page=0&pageSize=10&keyTypes=ML_DSA").keyTypes).toEqual(["ML_DSA"]);
    expect(parse("page=0&pageSize=10&exact[]=name").exact).toEqual(["name"]);
  });

  it("accepts every base field", () => {
    const query = parse(
      `page=2&pageSize=1000&sort=createdDate&sortDirection=DESC&name=abc&ids[]=${ID1}&ids[]=${ID2}` +
        "&createdDateAfter=2024-01-31T12:00:00Z&createdDateBefore=2024-02-01T00:00:00.123%2B02:00" +
        "&lastModifiedAfter=2024-02-29T23:59:59-05:30&lastModifiedBefore=2024-03-01t00:00:00z" +
        `&organisationId=${ID1}&isRemote=false`,
    );
    expect(query).toEqual({
      page: 2,
      pageSize: 1000,
      sort: "createdDate",
      sortDirection: "DESC",
      name: "abc",
      ids: [ID1, ID2],
      createdDateAfter: new Date("2024-01-31T12:00:00Z"),
      createdDateBefore: new Date("2024-01-31T22:00:00.123Z"),
      lastModifiedAfter: new Date("2024-03-01T05:29:59Z"),
      lastModifiedBefore: new Date("2024-03-01T00:00:00Z"),
      organisationId: ID1,
      isRemote: false,
    });
    expectTypeOf(query).toExtend<ListQueryBase>();
    expectTypeOf(query.sort).toEqualTypeOf<
      "name" | "createdDate" | "publicKey" | "keyType" | "storageType" | undefined
    >();
    expectTypeOf(query.keyTypes).toEqualTypeOf<("EDDSA" | "ECDSA" | "ML_DSA")[] | undefined>();
    expectTypeOf(query.createdDateAfter).toEqualTypeOf<Date | undefined>();
  });

  it("coerces booleans from true/false only", () => {
    expect(parse("page=0&pageSize=1&isRemote=true").isRemote).toBe(true);
    expect(failure(() => parse("page=0&pageSize=1&isRemote=1")).detail).toBe(
      'isRemote: expected true or false, got "1"',
    );
    expect(failure(() => parse("page=0&pageSize=1&isRemote=TRUE")).detail).toContain("isRemote");
  });

  it("rejects non-numeric numbers", () => {
    for (const bad of ["abc", "", "1x", "0x10", "Infinity", " 1"]) {
      expect(failure(() => parse(`page=${encodeURIComponent(bad)}&pageSize=10`)).detail).toBe(
        `page: expected a number, got ${JSON.stringify(bad)}`,
      );
    }
    expect(failure(() => parse("page=1.5&pageSize=10")).detail).toBe("page: expected integer, received number");
    expect(failure(() => parse("page=-1&pageSize=10")).detail).toBe("page: must be >= 0");
  });

  it("enforces pageSize bounds 1..1000", () => {
    expect(parse("page=0&pageSize=1").pageSize).toBe(1);
    expect(failure(() => parse("page=0&pageSize=0")).detail).toBe("pageSize: must be >= 1");
    expect(failure(() => parse("page=0&pageSize=1001")).detail).toBe("pageSize: must be <= 1000");
  });

  it("requires page and pageSize (an empty query fails)", () => {
    expect(failure(() => parse("pageSize=10")).detail).toBe("page: required");
    expect(failure(() => parse("")).detail).toBe("page: required; pageSize: required");
  });

  it("reports unknown params, including bracketed ones, together with other problems", () => {
    expect(failure(() => parse("page=0&pageSize=10&foo=1&bar[]=2&foo=3")).detail).toBe(
      "Unknown query params: foo, bar",
    );
    expect(failure(() => parse("foo=1&page=0&pageSize=5000&sort=nope")).detail).toBe(
      "Unknown query params: foo; pageSize: must be <= 1000; sort: expected one of name, createdDate, publicKey, keyType, storageType",
    );
    expect(failure(() => parse("page=0&pageSize=10&constructor=1&__proto__=x")).detail).toBe(
      "Unknown query params: constructor, __proto__",
    );
  });

  it("refuses repeated values or array notation for single-valued fields", () => {
    expect(failure(() => parse("page=0&page=1&pageSize=10")).detail).toBe("page: expected a single value");
    expect(failure(() => parse("page[]=0&pageSize=10")).detail).toBe("page: expected a single value");
  });

  it("validates enum values, enum arrays and uuids", () => {
    expect(failure(() => parse("page=0&pageSize=10&sortDirection=asc")).detail).toBe(
      "sortDirection: expected one of ASC, DESC",
    );
    expect(failure(() => parse("page=0&pageSize=10&keyTypes[]=EDDSA&keyTypes[]=RSA")).detail).toBe(
      "keyTypes[1]: expected one of EDDSA, ECDSA, ML_DSA",
    );
    expect(failure(() => parse("page=0&pageSize=10&exact[]=did")).detail).toBe("exact[0]: expected name");
    expect(failure(() => parse("page=0&pageSize=10&ids=not-a-uuid")).detail).toBe("ids[0]: expected a UUID");
  });

  it.each([
    "2024-13-01T00:00:00Z",
    "2024-02-30T00:00:00Z",
    "2023-02-29T00:00:00Z",
    "2024-01-01T24:00:00Z",
    "2024-01-01T00:00:00", // no offset
    "2024-01-01T00:00Z", // no seconds
    "2024-01-01",
    "1704067200",
    "2024-01-01 00:00:00Z",
  ])("rejects %s as a date", (value) => {
    expect(failure(() => parse(`page=0&pageSize=10&createdDateAfter=${encodeURIComponent(value)}`)).detail).toBe(
      "createdDateAfter: expected an RFC 3339 timestamp with offset, e.g. 2024-01-31T12:00:00Z",
    );
  });

  it("omits exact when the endpoint has none", () => {
    const schema = listQuerySchema({ sort: ["name"] });
    expect(parseQuery(new URLSearchParams("page=0&pageSize=1"), schema)).toEqual({ page: 0, pageSize: 1 });
    const error = failure(() => parseQuery(new URLSearchParams("page=0&pageSize=1&exact[]=name"), schema));
    expect(error.detail).toBe("Unknown query params: exact");
  });

  it("works with any zod object, strict or not, and wrappers around fields", () => {
    const schema = z.object({
      limit: z.number().int().default(5),
      tags: z.array(z.string()).default([]),
      flag: z.boolean().nullable().optional(),
      level: z.literal([1, 2, 3]).optional(),
      when: z
        .string()
        .transform((s) => s.length)
        .optional(),
      scores: z.array(z.number()).optional(),
    });
    expect(parseQuery(new URLSearchParams(""), schema)).toEqual({ limit: 5, tags: [] });
    expect(
      parseQuery(new URLSearchParams("limit=7&tags=a&flag=true&level=2&when=abc&scores[]=1.5&scores[]=-2"), schema),
    ).toEqual({
      limit: 7,
      tags: ["a"],
      flag: true,
      level: 2,
      when: 3,
      scores: [1.5, -2],
    });
    expect(failure(() => parseQuery(new URLSearchParams("scores=1&scores=x"), schema)).detail).toBe(
      'scores: expected a number, got "x"',
    );
  });
});
