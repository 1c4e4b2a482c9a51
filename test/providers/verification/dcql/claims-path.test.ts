import { describe, expect, it } from "vitest";
import {
  processClaimsPath,
  processMdocClaimsPath,
  selectByClaimsPath,
} from "../../../../src/providers/verification/dcql/index.js";
import { readFixture } from "./samples.js";

describe("selectByClaimsPath: the §7.3 examples", () => {
  const credential = readFixture("claims_path_pointer_credential.json");

  it('["name"] selects the claim name', () => {
    expect(selectByClaimsPath(credential, ["name"])).toEqual(["Arthur Dent"]);
  });

  it('["address"] selects the address with its sub-claims', () => {
    expect(selectByClaimsPath(credential, ["address"])).toEqual([
      { street_address: "42 Market Street", locality: "Milliways", postal_code: "12345" },
    ]);
  });

  it('["address", "street_address"] selects the street address', () => {
    expect(selectByClaimsPath(credential, ["address", "street_address"])).toEqual(["42 Market Street"]);
  });

  it('["degrees", null, "type"] selects every type in degrees', () => {
    expect(selectByClaimsPath(credential, ["degrees", null, "type"])).toEqual([
      "Bachelor of Science",
      "Master of Science",
    ]);
  });

  it('["nationalities", 1] selects the second nationality', () => {
    expect(selectByClaimsPath(credential, ["nationalities", 1])).toEqual(["Betelgeusian"]);
  });
});

describe("selectByClaimsPath: edge cases of §7.1", () => {
  it("null selects every element; over a non-array it selects nothing (error)", () => {
    expect(selectByClaimsPath({ a: [1, 2, 3] }, ["a", null])).toEqual([1, 2, 3]);
    expect(selectByClaimsPath({ a: { x: 1 } }, ["a", null])).toEqual([]);
    expect(selectByClaimsPath({ a: "abc" }, ["a", null])).toEqual([]);
    expect(processClaimsPath({ a: { x: 1 } }, ["a", null])).toEqual({
      ok: false,
      error: '["a",null]: null applied to an object',
    });
  });

  it("an integer over an object selects nothing, even when the object has that key", () => {
    expect(selectByClaimsPath({ a: { "0": "zero" } }, ["a", 0])).toEqual([]);
    expect(processClaimsPath({ a: { "0": "zero" } }, ["a", 0])).toMatchObject({ ok: false });
  });

  it("a string over an array selects nothing, even when the key is a valid index", () => {
    expect(selectByClaimsPath({ a: ["x", "y"] }, ["a", "0"])).toEqual([]);
    expect(selectByClaimsPath({ a: ["x", "y"] }, ["a", "length"])).toEqual([]);
  });

  it("an index past the end drops the array; nothing left is an error", () => {
    expect(selectByClaimsPath({ a: ["x"] }, ["a", 1])).toEqual([]);
    expect(processClaimsPath({ a: ["x"] }, ["a", 1])).toEqual({ ok: false, error: '["a",1]: selects nothing' });
    expect(selectByClaimsPath({ a: [["x"], ["y", "z"]] }, ["a", null, 1])).toEqual(["z"]);
  });

  it("nested nulls flatten level by level", () => {
    const doc = {
      m: [
        [1, 2],
        [3, [4]],
      ],
    };
    expect(selectByClaimsPath(doc, ["m", null, null])).toEqual([1, 2, 3, [4]]);
    expect(selectByClaimsPath(doc, ["m", null, 1])).toEqual([2, [4]]);
    expect(selectByClaimsPath({ m: [[1], 2] }, ["m", null, null])).toEqual([]);
  });

  it("null over an empty array selects nothing", () => {
    expect(selectByClaimsPath({ a: [] }, ["a", null])).toEqual([]);
    expect(selectByClaimsPath({ a: [] }, ["a", null, "b"])).toEqual([]);
  });

  it("elements lacking a key drop out; an element that is not an object aborts everything", () => {
    const doc = { d: [{ type: "BSc" }, { university: "U" }, { type: "MSc" }] };
    expect(selectByClaimsPath(doc, ["d", null, "type"])).toEqual(["BSc", "MSc"]);
    expect(selectByClaimsPath({ d: [{ type: "BSc" }, "junk"] }, ["d", null, "type"])).toEqual([]);
    expect(selectByClaimsPath({ d: [{ type: "BSc" }, null] }, ["d", null, "type"])).toEqual([]);
    expect(selectByClaimsPath({ d: [{ type: "BSc" }, ["x"]] }, ["d", null, "type"])).toEqual([]);
  });

  it("a key whose value is JSON null exists: null is selected", () => {
    expect(selectByClaimsPath({ a: null }, ["a"])).toEqual([null]);
    expect(selectByClaimsPath({ a: null }, ["a", "b"])).toEqual([]);
    expect(selectByClaimsPath({ a: [null, 1] }, ["a", null])).toEqual([null, 1]);
  });

  it("selects falsy leaves and whole objects", () => {
    expect(selectByClaimsPath({ a: false, b: 0, c: "" }, ["a"])).toEqual([false]);
    expect(selectByClaimsPath({ a: false, b: 0, c: "" }, ["b"])).toEqual([0]);
    expect(selectByClaimsPath({ a: false, b: 0, c: "" }, ["c"])).toEqual([""]);
    expect(selectByClaimsPath({ a: { b: [1] } }, ["a"])).toEqual([{ b: [1] }]);
  });

  it("only own keys count", () => {
    expect(selectByClaimsPath({}, ["toString"])).toEqual([]);
    expect(selectByClaimsPath({}, ["__proto__"])).toEqual([]);
    expect(selectByClaimsPath(JSON.parse('{"__proto__": 1}'), ["__proto__"])).toEqual([1]);
  });

  it("keys apply to JSON objects only: not to strings, nor to class instances", () => {
    expect(selectByClaimsPath([{ a: 1 }], ["a"])).toEqual([]);
    expect(selectByClaimsPath("text", ["length"])).toEqual([]);
    expect(selectByClaimsPath({ d: new Date(0) }, ["d", "getTime"])).toEqual([]);
    expect(selectByClaimsPath({ b: new Uint8Array([7]) }, ["b", 0])).toEqual([]);
  });

  it("rejects empty pointers and components §7 does not define", () => {
    expect(selectByClaimsPath({ a: 1 }, [])).toEqual([]);
    expect(selectByClaimsPath({ a: [1, 2] }, ["a", -1])).toEqual([]);
    expect(selectByClaimsPath({ a: [1, 2] }, ["a", 0.5])).toEqual([]);
    expect(selectByClaimsPath({ a: [1, 2] }, ["a", true as unknown as string])).toEqual([]);
  });

  it("indexMatchesAnyElement lets an index select every element (SD-JWT presentations)", () => {
    expect(processClaimsPath({ a: ["x", "y"] }, ["a", 5], { indexMatchesAnyElement: true })).toEqual({
      ok: true,
      selected: ["x", "y"],
    });
    expect(processClaimsPath({ a: { x: 1 } }, ["a", 0], { indexMatchesAnyElement: true })).toMatchObject({
      ok: false,
    });
  });
});

describe("processMdocClaimsPath: §7.2", () => {
  const namespaces = { "org.iso.18013.5.1": { given_name: "Ada", age_over_18: false, portrait: new Uint8Array([1]) } };

  it("selects the data element value, whatever it is", () => {
    expect(processMdocClaimsPath(namespaces, ["org.iso.18013.5.1", "given_name"])).toEqual({
      ok: true,
      selected: ["Ada"],
    });
    expect(processMdocClaimsPath(namespaces, ["org.iso.18013.5.1", "age_over_18"])).toEqual({
      ok: true,
      selected: [false],
    });
    expect(processMdocClaimsPath(namespaces, ["org.iso.18013.5.1", "portrait"])).toMatchObject({ ok: true });
  });

  it("errors on a missing namespace or element, or a pointer that is not two strings", () => {
    expect(processMdocClaimsPath(namespaces, ["org.iso.7367.1", "vehicle_holder"])).toMatchObject({
      ok: false,
      error: expect.stringContaining("namespace 'org.iso.7367.1' not present"),
    });
    expect(processMdocClaimsPath(namespaces, ["org.iso.18013.5.1", "family_name"])).toMatchObject({
      ok: false,
      error: expect.stringContaining("data element 'family_name' not present"),
    });
    expect(processMdocClaimsPath(namespaces, ["org.iso.18013.5.1"])).toMatchObject({ ok: false });
    expect(processMdocClaimsPath(namespaces, ["org.iso.18013.5.1", "given_name", "x"])).toMatchObject({ ok: false });
    expect(processMdocClaimsPath(namespaces, ["org.iso.18013.5.1", null])).toMatchObject({ ok: false });
  });
});
