import { DcqlPresentationResult, DcqlQuery } from "dcql";
import { describe, expect, it } from "vitest";
import {
  checkPresentedQueries,
  type DcqlCandidate,
  parseDcqlQuery,
} from "../../../../src/providers/verification/dcql/index.js";
import { CANDIDATES, readFixture, toDcqlCredential } from "./samples.js";

function sample(id: string, presentationId = id): DcqlCandidate {
  const found = CANDIDATES.find((c) => c.id === id);
  if (found === undefined) throw new Error(`no sample ${id}`);
  return { ...found, id: presentationId };
}

describe("checkPresentedQueries", () => {
  const simple = parseDcqlQuery(readFixture("simple.json"));

  it("accepts one matching presentation for the §7.4 query", () => {
    expect(checkPresentedQueries(simple, { my_credential: [sample("pid-full")] })).toEqual({ ok: true });
  });

  it("rejects an answer to a credential query that was not asked", () => {
    expect(checkPresentedQueries(simple, { my_credential: [sample("pid-full")], other: [sample("pid-full")] })).toEqual(
      { ok: false, reason: "vp_token answers 'other', which is not a credential query of the request" },
    );
  });

  it("rejects an empty entry and a missing required answer", () => {
    expect(checkPresentedQueries(simple, { my_credential: [] })).toEqual({
      ok: false,
      reason: "vp_token entry 'my_credential' holds no presentation",
    });
    expect(checkPresentedQueries(simple, {})).toEqual({
      ok: false,
      reason: "no presentation for required credential query 'my_credential'",
    });
  });

  it("multiple: false allows exactly one presentation; multiple: true several", () => {
    expect(
      checkPresentedQueries(simple, { my_credential: [sample("pid-full", "a"), sample("pid-full", "b")] }),
    ).toEqual({
      ok: false,
      reason: "credential query 'my_credential' allows one presentation (multiple is false) but 2 were presented",
    });
    const multiple = parseDcqlQuery({
      credentials: [{ ...(readFixture("simple.json") as { credentials: object[] }).credentials[0], multiple: true }],
    });
    expect(
      checkPresentedQueries(multiple, { my_credential: [sample("pid-full", "a"), sample("pid-full", "b")] }),
    ).toEqual({ ok: true });
  });

  it("rejects a presentation lacking a requested claim, naming it", () => {
    const result = checkPresentedQueries(simple, { my_credential: [sample("pid-partial")] });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toBe(
      "the presentation for credential query 'my_credential' does not match it " +
        '(CLAIMS: missing requested claims: ["address","street_address"]: selects nothing)',
    );
  });

  it("names which of several presentations fails", () => {
    const multiple = parseDcqlQuery({
      credentials: [{ ...(readFixture("simple.json") as { credentials: object[] }).credentials[0], multiple: true }],
    });
    const result = checkPresentedQueries(multiple, { my_credential: [sample("pid-full"), sample("other-pid")] });
    expect(!result.ok && result.reason).toMatch(/^presentation 1 for credential query 'my_credential' .*\(META: /);
  });

  it("rejects a presentation without holder binding unless the query waives it", () => {
    expect(checkPresentedQueries(simple, { my_credential: [sample("pid-unbound")] })).toMatchObject({
      ok: false,
      reason: expect.stringContaining("HOLDER_BINDING"),
    });
    const waived = parseDcqlQuery({
      credentials: [
        {
          ...(readFixture("simple.json") as { credentials: object[] }).credentials[0],
          require_cryptographic_holder_binding: false,
        },
      ],
    });
    expect(checkPresentedQueries(waived, { my_credential: [sample("pid-unbound")] })).toEqual({ ok: true });
  });

  it("values are enforced by default; enforceValues: false accepts other values", () => {
    const query = parseDcqlQuery(readFixture("value_matching_simple.json"));
    const other = sample("pid-full");
    const presented = { my_credential: [{ ...other, claims: { ...other.claims, postal_code: "10115" } }] };
    expect(checkPresentedQueries(query, presented)).toMatchObject({
      ok: false,
      reason: expect.stringContaining("VALUES"),
    });
    expect(checkPresentedQueries(query, presented, { enforceValues: false })).toEqual({ ok: true });
  });

  it("claim_sets: any option disclosed is enough", () => {
    const query = parseDcqlQuery(readFixture("claims_alternatives.json"));
    const disclosedOption1: DcqlCandidate = {
      ...sample("pid-zip-only"),
      claims: { last_name: "Doe", postal_code: "90210", date_of_birth: "1940-01-01" },
    };
    expect(checkPresentedQueries(query, { pid: [disclosedOption1] })).toEqual({ ok: true });
    const tooLittle = { ...disclosedOption1, claims: { last_name: "Doe", postal_code: "90210" } };
    expect(checkPresentedQueries(query, { pid: [tooLittle] })).toMatchObject({ ok: false });
  });

  it("SD-JWT array indexes match any disclosed element (undisclosed elements are removed)", () => {
    const query = parseDcqlQuery({
      credentials: [
        {
          id: "nat",
          format: "dc+sd-jwt",
          meta: { vct_values: ["https://credentials.example.com/identity_credential"] },
          claims: [{ path: ["nationalities", 1] }],
        },
      ],
    });
    const disclosed = { ...sample("pid-full"), claims: { nationalities: ["DE"] } };
    expect(checkPresentedQueries(query, { nat: [disclosed] })).toEqual({ ok: true });
    expect(checkPresentedQueries(query, { nat: [{ ...disclosed, claims: { nationalities: [] } }] })).toMatchObject({
      ok: false,
    });
  });

  describe("credential_sets", () => {
    const alternatives = parseDcqlQuery(readFixture("credentials_alternatives.json"));

    it("accepts any one required option, with or without the optional set", () => {
      expect(checkPresentedQueries(alternatives, { pid: [sample("pid-full")] })).toEqual({ ok: true });
      expect(checkPresentedQueries(alternatives, { other_pid: [sample("other-pid")] })).toEqual({ ok: true });
      expect(
        checkPresentedQueries(alternatives, {
          pid_reduced_cred_1: [sample("reduced-pid")],
          pid_reduced_cred_2: [sample("residence")],
          nice_to_have: [sample("rewards")],
        }),
      ).toEqual({ ok: true });
    });

    it("rejects a partly presented option or only the optional set", () => {
      expect(checkPresentedQueries(alternatives, { pid_reduced_cred_1: [sample("reduced-pid")] })).toEqual({
        ok: false,
        reason:
          "required credential set 0 is not satisfied: none of the options [pid] or [other_pid] or " +
          "[pid_reduced_cred_1, pid_reduced_cred_2] was fully presented",
      });
      expect(checkPresentedQueries(alternatives, { nice_to_have: [sample("rewards")] })).toMatchObject({ ok: false });
    });

    it("complex_mdoc: the mDL answers both the ID and the address queries", () => {
      const query = parseDcqlQuery(readFixture("complex_mdoc.json"));
      expect(checkPresentedQueries(query, { "mdl-id": [sample("mdl")], "mdl-address": [sample("mdl")] })).toEqual({
        ok: true,
      });
      expect(checkPresentedQueries(query, { "photo_card-id": [sample("photoid")] })).toEqual({ ok: true });
      expect(checkPresentedQueries(query, { "mdl-address": [sample("mdl")] })).toMatchObject({ ok: false });
    });
  });
});

describe("checkPresentedQueries agrees with the dcql package's presentation check", () => {
  const cases: [string, string, Record<string, string[]>][] = [
    ["simple, full", "simple.json", { my_credential: ["pid-full"] }],
    ["simple, partial", "simple.json", { my_credential: ["pid-partial"] }],
    ["simple, unbound", "simple.json", { my_credential: ["pid-unbound"] }],
    ["simple, wrong vct", "simple.json", { my_credential: ["other-pid"] }],
    ["simple, nothing", "simple.json", {}],
    ["simple, two", "simple.json", { my_credential: ["pid-full", "pid-full"] }],
    ["alternatives, pid", "credentials_alternatives.json", { pid: ["pid-full"] }],
    ["alternatives, half", "credentials_alternatives.json", { pid_reduced_cred_1: ["reduced-pid"] }],
    [
      "alternatives, both reduced",
      "credentials_alternatives.json",
      { pid_reduced_cred_1: ["reduced-pid"], pid_reduced_cred_2: ["residence"] },
    ],
    ["alternatives, only optional", "credentials_alternatives.json", { nice_to_have: ["rewards"] }],
    ["complex mdoc, photo id", "complex_mdoc.json", { "photo_card-id": ["photoid"] }],
    ["complex mdoc, wrong doctype", "complex_mdoc.json", { "photo_card-id": ["mdl"] }],
    ["multi, both", "multi_credentials.json", { pid: ["pid-full"], mdl: ["mvrc"] }],
    ["multi, one", "multi_credentials.json", { pid: ["pid-full"] }],
    ["multi, missing element", "multi_credentials.json", { pid: ["pid-full"], mdl: ["mvrc-no-holder"] }],
    ["claim sets, option 1", "claims_alternatives.json", { pid: ["pid-zip-only"] }],
    ["values, wrong zip", "value_matching_simple.json", { my_credential: ["pid-partial"] }],
  ];

  it.each(cases)("%s", (_name, file, presentedIds) => {
    const input = readFixture(file);
    const presented = Object.fromEntries(
      Object.entries(presentedIds).map(([queryId, ids]) => [queryId, ids.map((id) => sample(id))]),
    );
    const mine = checkPresentedQueries(parseDcqlQuery(input), presented);

    const referenceQuery = DcqlQuery.parse(input as DcqlQuery.Input);
    let referenceOk: boolean;
    try {
      const result = DcqlPresentationResult.fromDcqlPresentation(
        Object.fromEntries(
          Object.entries(presented).map(([queryId, candidates]) => [queryId, candidates.map(toDcqlCredential)]),
        ),
        { dcqlQuery: referenceQuery },
      );
      referenceOk = result.can_be_satisfied;
    } catch {
      referenceOk = false;
    }
    expect(mine.ok).toBe(referenceOk);
  });
});
