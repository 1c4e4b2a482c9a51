import { describe, expect, it } from "vitest";
import {
  applyDisclosures,
  createDisclosure,
  createSalt,
  decodeDisclosure,
  digestDisclosure,
  makeDisclosable,
  splitSdJwt,
} from "../../../../src/providers/format/sd-jwt-vc/index.js";
import { expectCredkitError } from "../../jose/test-keys.js";

describe("createDisclosure", () => {
  it("builds [salt, name, value] and [salt, value] with the digest of the encoded text", () => {
    const property = createDisclosure("family_name", "Möbius", "_26bc4LT-ac6q2KI6cBW5es");
    expect(JSON.parse(Buffer.from(property.encoded, "base64url").toString("utf8"))).toEqual([
      "_26bc4LT-ac6q2KI6cBW5es",
      "family_name",
      "Möbius",
    ]);
    expect(property.digest).toBe(digestDisclosure(property.encoded));
    const element = createDisclosure(undefined, "FR", "lklxF5jMYlGTPUovMNIvCA");
    expect(JSON.parse(Buffer.from(element.encoded, "base64url").toString("utf8"))).toEqual([
      "lklxF5jMYlGTPUovMNIvCA",
      "FR",
    ]);
    expect(element.name).toBeUndefined();
    expect(decodeDisclosure(property.encoded)).toEqual(property);
  });

  it("draws 128-bit random salts", () => {
    const salts = new Set(Array.from({ length: 1000 }, createSalt));
    expect(salts.size).toBe(1000);
    for (const salt of salts) expect(Buffer.from(salt, "base64url")).toHaveLength(16);
  });
});

describe("makeDisclosable", () => {
  it("hides every property and array element, recursively, with sorted _sd digests", () => {
    const { claims, disclosures } = makeDisclosable({ a: 1, b: { c: [true, { d: null }] } });
    expect(Object.keys(claims)).toEqual(["_sd"]);
    expect(claims._sd).toHaveLength(2);
    expect(disclosures).toHaveLength(6); // a, b, b.c, b.c[0], b.c[1], b.c[1].d
    const b = disclosures.find((d) => d.name === "b")!;
    expect(Object.keys(b.value as object)).toEqual(["_sd"]);
    const c = disclosures.find((d) => d.name === "c")!;
    expect(c.value).toEqual([{ "...": expect.any(String) }, { "...": expect.any(String) }]);
    expect(applyDisclosures(claims, disclosures).claims).toEqual({ a: 1, b: { c: [true, { d: null }] } });
    // digests are sorted so their order says nothing about the claim order
    const many = makeDisclosable(Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, i])));
    expect(many.claims._sd).toEqual([...(many.claims._sd as string[])].sort());
  });

  it("keeps empty objects and arrays, skips undefined members", () => {
    const { claims, disclosures } = makeDisclosable({ o: {}, a: [], u: undefined });
    expect(disclosures).toHaveLength(2);
    expect(applyDisclosures(claims, disclosures).claims).toEqual({ o: {}, a: [] });
  });

  it("round-trips a claim named __proto__ as an own property", () => {
    const input = JSON.parse('{"__proto__": {"polluted": true}}');
    const { claims, disclosures } = makeDisclosable(input);
    const result = applyDisclosures(claims, disclosures).claims;
    expect(Object.hasOwn(result, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
  });
});

describe("applyDisclosures", () => {
  it("drops undisclosed digests and array elements", () => {
    const { claims, disclosures } = makeDisclosable({ x: 1, list: ["a", "b", "c"] });
    const list = disclosures.find((d) => d.name === "list")!;
    const b = disclosures.find((d) => d.value === "b")!;
    const result = applyDisclosures(claims, [list, b]);
    expect(result.claims).toEqual({ list: ["b"] });
    expect(result.applied.map((entry) => entry.path)).toEqual([["list"], ["list", 0]]);
  });

  it("rejects a property disclosure in an array slot and an element disclosure in _sd", async () => {
    const property = createDisclosure("p", 1);
    const element = createDisclosure(undefined, 1);
    await expectCredkitError(
      () => applyDisclosures({ a: [{ "...": property.digest }] }, [property]),
      "BR_0355",
      "array element",
    );
    await expectCredkitError(() => applyDisclosures({ _sd: [element.digest] }, [element]), "BR_0355", "from _sd");
  });

  it("rejects malformed _sd members", async () => {
    await expectCredkitError(() => applyDisclosures({ _sd: "x" }, []), "BR_0355", "not an array");
    await expectCredkitError(() => applyDisclosures({ _sd: [1] }, []), "BR_0355", "non-string digest");
    await expectCredkitError(() => applyDisclosures({ a: [{ "...": 1 }] }, []), "BR_0355", "non-string digest");
  });

  it("treats an array element with more than the ... key as an ordinary object", () => {
    expect(applyDisclosures({ a: [{ "...": "x", b: 1 }] }, []).claims).toEqual({ a: [{ "...": "x", b: 1 }] });
  });
});

describe("decodeDisclosure", () => {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

  it.each([
    ["a non-array", encode({ a: 1 }), "BR_0189"],
    ["a one-element array", encode(["salt"]), "BR_0189"],
    ["four elements", encode(["s", "n", 1, 2]), "BR_0189"],
    ["a numeric salt", encode([1, "n", "v"]), "BR_0189"],
    ["a numeric claim name", encode(["s", 1, "v"]), "BR_0189"],
    ["the name ...", encode(["s", "...", "v"]), "BR_0355"],
    ["not JSON", Buffer.from("[nope").toString("base64url"), "BR_0189"],
  ])("rejects %s", async (_case, encoded, code) => {
    await expectCredkitError(() => decodeDisclosure(encoded), code);
  });
});

describe("splitSdJwt", () => {
  it("separates JWT, disclosures and KB-JWT", () => {
    expect(splitSdJwt("a.b.c~")).toEqual({ issuerJwt: "a.b.c", disclosures: [], sdJwt: "a.b.c~" });
    expect(splitSdJwt("a.b.c~d1~d2~k.b.j")).toEqual({
      issuerJwt: "a.b.c",
      disclosures: ["d1", "d2"],
      keyBindingJwt: "k.b.j",
      sdJwt: "a.b.c~d1~d2~",
    });
  });
});
