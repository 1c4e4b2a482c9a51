import { describe, expect, it } from "vitest";
import {
  type CredentialQuery,
  type DcqlCandidate,
  matchCredentialQuery,
  parseDcqlQuery,
} from "../../../../src/providers/verification/dcql/index.js";
import { CANDIDATES, readFixture } from "./samples.js";

const IDENTITY = "https://credentials.example.com/identity_credential";

function candidate(id: string): DcqlCandidate {
  const found = CANDIDATES.find((c) => c.id === id);
  if (found === undefined) throw new Error(`no sample ${id}`);
  return found;
}

function firstQuery(fixtureOrQuery: string | Record<string, unknown>): CredentialQuery {
  const input = typeof fixtureOrQuery === "string" ? readFixture(fixtureOrQuery) : { credentials: [fixtureOrQuery] };
  const query = parseDcqlQuery(input).credentials[0];
  if (query === undefined) throw new Error("no credential query");
  return query;
}

const sdJwtQuery = (over: Record<string, unknown>) =>
  firstQuery({ id: "q", format: "dc+sd-jwt", meta: { vct_values: [IDENTITY] }, ...over });

describe("matchCredentialQuery: format, meta, holder binding", () => {
  it("matches the §7.4 example against a full PID and reports the requested pointers", () => {
    expect(matchCredentialQuery(firstQuery("simple.json"), candidate("pid-full"))).toEqual({
      matches: true,
      selectedPaths: [["family_name"], ["given_name"], ["address", "street_address"]],
    });
  });

  it("FORMAT: an mdoc never answers an SD-JWT VC query", () => {
    expect(matchCredentialQuery(firstQuery("simple.json"), candidate("mdl"))).toMatchObject({
      matches: false,
      reason: "FORMAT",
      detail: "format 'mso_mdoc' is not the requested 'dc+sd-jwt'",
    });
  });

  it("META: vct must be one of vct_values, doctype must equal doctype_value, type must cover a type_values set", () => {
    expect(matchCredentialQuery(firstQuery("simple.json"), candidate("other-pid"))).toMatchObject({
      matches: false,
      reason: "META",
    });
    expect(matchCredentialQuery(firstQuery("simple.json"), { ...candidate("pid-full"), vct: undefined })).toMatchObject(
      { matches: false, reason: "META", detail: "the credential has no vct" },
    );
    expect(matchCredentialQuery(firstQuery("simple_mdoc.json"), candidate("mdl"))).toMatchObject({
      matches: false,
      reason: "META",
      detail: "doctype 'org.iso.18013.5.1.mDL' is not 'org.iso.7367.1.mVRC'",
    });
    expect(matchCredentialQuery(firstQuery("dcql_jwt_vc.json"), candidate("jwt-vc"))).toMatchObject({ matches: true });
    expect(
      matchCredentialQuery(firstQuery("dcql_jwt_vc.json"), { ...candidate("jwt-vc"), type: ["VerifiableCredential"] }),
    ).toMatchObject({ matches: false, reason: "META" });
  });

  it("META: several vct_values are alternatives", () => {
    const query = sdJwtQuery({ meta: { vct_values: ["urn:other", IDENTITY] } });
    expect(matchCredentialQuery(query, candidate("pid-full"))).toMatchObject({ matches: true });
  });

  it("META: meta of an unknown format is only acceptable when empty", () => {
    const empty = firstQuery({ id: "x", format: "example_format", meta: {} });
    const constrained = firstQuery({ id: "x", format: "example_format", meta: { flavour: "vanilla" } });
    const held: DcqlCandidate = { id: "c", format: "example_format", holderBinding: true, claims: {} };
    expect(matchCredentialQuery(empty, held)).toEqual({ matches: true, selectedPaths: [] });
    expect(matchCredentialQuery(constrained, held)).toMatchObject({ matches: false, reason: "META" });
  });

  it("HOLDER_BINDING: required by default; absent counts as none; false in the query lifts it", () => {
    expect(matchCredentialQuery(firstQuery("simple.json"), candidate("pid-unbound"))).toMatchObject({
      matches: false,
      reason: "HOLDER_BINDING",
    });
    const { holderBinding: _, ...undeclared } = candidate("pid-full");
    expect(matchCredentialQuery(firstQuery("simple.json"), undeclared)).toMatchObject({
      matches: false,
      reason: "HOLDER_BINDING",
    });
    const lenient = sdJwtQuery({ require_cryptographic_holder_binding: false, claims: [{ path: ["given_name"] }] });
    expect(matchCredentialQuery(lenient, candidate("pid-unbound"))).toMatchObject({ matches: true });
  });

  it("without claims, any credential of the right format and meta matches, with no pointers", () => {
    expect(matchCredentialQuery(sdJwtQuery({}), candidate("pid-partial"))).toEqual({
      matches: true,
      selectedPaths: [],
    });
  });
});

describe("matchCredentialQuery: claims", () => {
  it("CLAIMS: every claim is needed without claim_sets; the detail names the missing pointer", () => {
    const result = matchCredentialQuery(firstQuery("simple.json"), candidate("pid-partial"));
    expect(result).toMatchObject({ matches: false, reason: "CLAIMS" });
    expect(result.matches === false && result.detail).toContain('["address","street_address"]');
  });

  it("mdoc pointers are [namespace, element]; element values of any type count", () => {
    expect(matchCredentialQuery(firstQuery("simple_mdoc.json"), candidate("mvrc"))).toEqual({
      matches: true,
      selectedPaths: [
        ["org.iso.7367.1", "vehicle_holder"],
        ["org.iso.18013.5.1", "given_name"],
      ],
    });
    expect(matchCredentialQuery(firstQuery("simple_mdoc.json"), candidate("mvrc-no-holder"))).toMatchObject({
      matches: false,
      reason: "CLAIMS",
    });
  });

  it("null in a path: one selected element is enough", () => {
    const query = sdJwtQuery({ claims: [{ path: ["degrees", null, "type"] }] });
    expect(matchCredentialQuery(query, candidate("pid-full"))).toMatchObject({ matches: true });
    expect(matchCredentialQuery(query, candidate("pid-partial"))).toMatchObject({ matches: false, reason: "CLAIMS" });
  });

  it("duplicate pointers are reported once", () => {
    const query = sdJwtQuery({ claims: [{ path: ["given_name"] }, { path: ["given_name"] }] });
    expect(matchCredentialQuery(query, candidate("pid-full"))).toEqual({
      matches: true,
      selectedPaths: [["given_name"]],
    });
  });
});

describe("matchCredentialQuery: values", () => {
  it("the §D value matching example: family_name Doe and postal_code 90210 or 90211", () => {
    const query = firstQuery("value_matching_simple.json");
    expect(matchCredentialQuery(query, candidate("pid-full"))).toMatchObject({ matches: true });
    const wrongZip = { ...candidate("pid-full"), claims: { ...candidate("pid-full").claims, postal_code: "10115" } };
    const result = matchCredentialQuery(query, wrongZip);
    expect(result).toMatchObject({ matches: false, reason: "VALUES" });
    expect(result.matches === false && result.detail).toContain(
      '["postal_code"]: no value equals one of ["90210","90211"]',
    );
    expect(result.matches === false && result.detail).not.toContain("10115");
  });

  it("a missing claim is CLAIMS even when another claim fails its values", () => {
    const query = firstQuery("value_matching_simple.json");
    expect(matchCredentialQuery(query, candidate("pid-partial"))).toMatchObject({ matches: false, reason: "CLAIMS" });
  });

  it("type and value must both match: '18' is not 18, 1 is not true", () => {
    const doc: DcqlCandidate = {
      id: "t",
      format: "dc+sd-jwt",
      vct: IDENTITY,
      holderBinding: true,
      claims: { n: 18, s: "18", b: true, one: 1 },
    };
    const q = (path: string, values: unknown[]) => sdJwtQuery({ claims: [{ path: [path], values }] });
    expect(matchCredentialQuery(q("n", [18]), doc).matches).toBe(true);
    expect(matchCredentialQuery(q("n", ["18"]), doc).matches).toBe(false);
    expect(matchCredentialQuery(q("s", [18]), doc).matches).toBe(false);
    expect(matchCredentialQuery(q("s", ["18"]), doc).matches).toBe(true);
    expect(matchCredentialQuery(q("b", [true]), doc).matches).toBe(true);
    expect(matchCredentialQuery(q("b", ["true"]), doc).matches).toBe(false);
    expect(matchCredentialQuery(q("one", [true]), doc).matches).toBe(false);
    expect(matchCredentialQuery(q("n", [17, 19, 18]), doc).matches).toBe(true);
  });

  it("objects and arrays never equal a listed value", () => {
    const query = sdJwtQuery({ claims: [{ path: ["address"], values: ["123 Main St"] }] });
    expect(matchCredentialQuery(query, candidate("pid-full"))).toMatchObject({ matches: false, reason: "VALUES" });
  });

  it("with null in the path, one of the selected values must be listed", () => {
    const de = sdJwtQuery({ claims: [{ path: ["nationalities", null], values: ["DE"] }] });
    const fr = sdJwtQuery({ claims: [{ path: ["nationalities", null], values: ["FR"] }] });
    expect(matchCredentialQuery(de, candidate("pid-full")).matches).toBe(true);
    expect(matchCredentialQuery(fr, candidate("pid-full"))).toMatchObject({ matches: false, reason: "VALUES" });
  });

  it("mdoc values: booleans as such, byte strings as base64url, big integers as numbers", () => {
    const mdoc = (values: unknown[], element: string) =>
      firstQuery({
        id: "m",
        format: "mso_mdoc",
        meta: { doctype_value: "org.iso.18013.5.1.mDL" },
        claims: [{ path: ["org.iso.18013.5.1", element], values }],
      });
    expect(matchCredentialQuery(mdoc([true], "age_over_18"), candidate("mdl")).matches).toBe(true);
    expect(matchCredentialQuery(mdoc([false], "age_over_18"), candidate("mdl")).matches).toBe(false);
    expect(matchCredentialQuery(mdoc(["_9j_"], "portrait"), candidate("mdl")).matches).toBe(true);
    const withBigint: DcqlCandidate = {
      ...candidate("mdl"),
      claims: { "org.iso.18013.5.1": { age_in_years: BigInt(42) } },
    };
    expect(matchCredentialQuery(mdoc([42], "age_in_years"), withBigint).matches).toBe(true);
  });

  it("enforceValues: false checks presence only", () => {
    const query = firstQuery("value_matching_simple.json");
    const wrongZip = { ...candidate("pid-full"), claims: { ...candidate("pid-full").claims, postal_code: "10115" } };
    expect(matchCredentialQuery(query, wrongZip, { enforceValues: false }).matches).toBe(true);
  });
});

describe("matchCredentialQuery: claim_sets (§6.4.1: the first satisfiable option wins)", () => {
  const query = firstQuery("claims_alternatives.json");

  it("option 0 [a, c, d, e] when locality and region are there", () => {
    expect(matchCredentialQuery(query, candidate("pid-full"))).toEqual({
      matches: true,
      claimSetIndex: 0,
      selectedPaths: [["last_name"], ["locality"], ["region"], ["date_of_birth"]],
    });
  });

  it("option 1 [a, b, e] when only the postal code is there", () => {
    expect(matchCredentialQuery(query, candidate("pid-zip-only"))).toEqual({
      matches: true,
      claimSetIndex: 1,
      selectedPaths: [["last_name"], ["postal_code"], ["date_of_birth"]],
    });
  });

  it("order decides, not size: reversing the options picks the other one for a full PID", () => {
    const reversed = sdJwtQuery({ claims: query.claims, claim_sets: [...(query.claim_sets ?? [])].reverse() });
    expect(matchCredentialQuery(reversed, candidate("pid-full"))).toMatchObject({
      matches: true,
      claimSetIndex: 0,
      selectedPaths: [["last_name"], ["postal_code"], ["date_of_birth"]],
    });
  });

  it("no satisfiable option: CLAIMS, naming each option's problem", () => {
    const result = matchCredentialQuery(query, { ...candidate("pid-zip-only"), claims: { last_name: "Doe" } });
    expect(result).toMatchObject({ matches: false, reason: "CLAIMS" });
    expect(result.matches === false && result.detail).toMatch(/claim set 0: .*; claim set 1: /);
  });

  it("VALUES when every option fails only on values", () => {
    const valued = sdJwtQuery({
      claims: [
        { id: "x", path: ["postal_code"], values: ["00000"] },
        { id: "y", path: ["locality"], values: ["Nowhere"] },
      ],
      claim_sets: [["x"], ["y"]],
    });
    expect(matchCredentialQuery(valued, candidate("pid-full"))).toMatchObject({ matches: false, reason: "VALUES" });
  });

  it("values narrow the option choice", () => {
    const valued = sdJwtQuery({
      claims: [
        { id: "young", path: ["age_equal_or_over", "65"], values: [true] },
        { id: "adult", path: ["age_equal_or_over", "18"], values: [true] },
      ],
      claim_sets: [["young"], ["adult"]],
    });
    expect(matchCredentialQuery(valued, candidate("pid-full"))).toMatchObject({
      matches: true,
      claimSetIndex: 1,
      selectedPaths: [["age_equal_or_over", "18"]],
    });
  });
});

describe("matchCredentialQuery: presentation mode", () => {
  it("an array index matches any disclosed element of an SD-JWT presentation", () => {
    const query = sdJwtQuery({ claims: [{ path: ["nationalities", 1] }] });
    const disclosed: DcqlCandidate = { ...candidate("pid-full"), claims: { nationalities: ["DE"] } };
    expect(matchCredentialQuery(query, disclosed).matches).toBe(false);
    expect(matchCredentialQuery(query, disclosed, { presentation: true }).matches).toBe(true);
  });

  it("not for formats without selective disclosure of array elements", () => {
    const query = firstQuery({
      id: "w",
      format: "jwt_vc_json",
      meta: { type_values: [["IDCredential"]] },
      claims: [{ path: ["type", 5] }],
    });
    expect(matchCredentialQuery(query, candidate("jwt-vc"), { presentation: true }).matches).toBe(false);
  });
});
