import { DcqlQuery } from "dcql";
import { describe, expect, it } from "vitest";
import {
  type DcqlCandidate,
  evaluateDcqlQuery,
  parseDcqlQuery,
} from "../../../../src/providers/verification/dcql/index.js";
import { CANDIDATES, readFixture, SPEC_QUERY_FILES, toDcqlCredential } from "./samples.js";

const IDENTITY = "https://credentials.example.com/identity_credential";

/** Extra queries exercising what the spec examples do not: nulls, indexes, values over arrays, holder binding. */
const EXTRA_QUERIES: Record<string, unknown> = {
  "null wildcard with values": {
    credentials: [
      {
        id: "degree",
        format: "dc+sd-jwt",
        meta: { vct_values: [IDENTITY] },
        claims: [{ path: ["degrees", null, "type"], values: ["Master of Science"] }],
      },
    ],
  },
  "array index": {
    credentials: [
      {
        id: "second_nationality",
        format: "dc+sd-jwt",
        meta: { vct_values: [IDENTITY] },
        claims: [{ path: ["nationalities", 1] }],
      },
    ],
  },
  "whole credential, no binding": {
    credentials: [
      {
        id: "any_pid",
        format: "dc+sd-jwt",
        meta: { vct_values: [IDENTITY, "https://othercredentials.example/pid"] },
        require_cryptographic_holder_binding: false,
        multiple: true,
      },
    ],
  },
  "mdoc values and claim sets": {
    credentials: [
      {
        id: "adult",
        format: "mso_mdoc",
        meta: { doctype_value: "org.iso.18013.5.1.mDL" },
        claims: [
          { id: "over18", path: ["org.iso.18013.5.1", "age_over_18"], values: [true] },
          { id: "country", path: ["org.iso.18013.5.1", "resident_country"], values: ["GB", "IE"] },
          { id: "name", path: ["org.iso.18013.5.1", "family_name"] },
        ],
        claim_sets: [["over18"], ["country", "name"], ["name"]],
      },
    ],
  },
  "optional set only": {
    credentials: [
      { id: "rewards", format: "dc+sd-jwt", meta: { vct_values: ["https://company.example/company_rewards"] } },
      { id: "pid", format: "dc+sd-jwt", meta: { vct_values: ["urn:not-held"] } },
    ],
    credential_sets: [
      { options: [["rewards"]], required: false },
      { options: [["pid"]], required: false },
    ],
  },
};

const ALL_QUERIES: [string, unknown][] = [
  ...SPEC_QUERY_FILES.map((file): [string, unknown] => [file, readFixture(file)]),
  ...Object.entries(EXTRA_QUERIES),
];

describe("evaluateDcqlQuery agrees with the dcql package", () => {
  it.each(ALL_QUERIES)("%s", (_name, input) => {
    const mine = evaluateDcqlQuery(parseDcqlQuery(input), CANDIDATES);
    const referenceQuery = DcqlQuery.parse(input as DcqlQuery.Input);
    DcqlQuery.validate(referenceQuery);
    const reference = DcqlQuery.query(referenceQuery, CANDIDATES.map(toDcqlCredential));

    expect(mine.satisfiable).toBe(reference.can_be_satisfied);
    for (const credentialQuery of referenceQuery.credentials) {
      const expected = reference.credential_matches[credentialQuery.id];
      const ours = mine.credentialQueries[credentialQuery.id];
      const expectedIds = (expected?.valid_credentials ?? []).map(
        (valid) => CANDIDATES[valid.input_credential_index]?.id,
      );
      expect(ours?.matches.map((m) => m.candidateId)).toEqual(expectedIds);
      // The first claim set dcql finds valid is the option §6.4.1 says to return.
      const expectedSets = (expected?.valid_credentials ?? []).map(
        (valid) => valid.claims.valid_claim_sets[0].claim_set_index,
      );
      expect(ours?.matches.map((m) => m.claimSetIndex)).toEqual(expectedSets);
      expect(ours?.failures.map((f) => f.candidateId)).toEqual(
        CANDIDATES.map((c) => c.id).filter((id) => !expectedIds.includes(id)),
      );
    }
    expect(mine.credentialSets.map((s) => s.satisfiable)).toEqual(
      (reference.credential_sets ?? []).map((s) => s.matching_options !== undefined),
    );
  });

  it("the matrix is not trivial: each spec example has matches and non-matches", () => {
    for (const file of SPEC_QUERY_FILES) {
      const evaluation = evaluateDcqlQuery(parseDcqlQuery(readFixture(file)), CANDIDATES);
      const all = Object.values(evaluation.credentialQueries);
      expect(all.some((q) => q.matches.length > 0)).toBe(true);
      expect(all.every((q) => q.failures.length > 0)).toBe(true);
    }
  });
});

describe("evaluateDcqlQuery: credential_sets", () => {
  const only = (...ids: string[]): DcqlCandidate[] => CANDIDATES.filter((c) => ids.includes(c.id));

  it("credentials_alternatives: pid, or other_pid, or both reduced credentials; nice_to_have optional", () => {
    const query = parseDcqlQuery(readFixture("credentials_alternatives.json"));

    const pid = evaluateDcqlQuery(query, only("pid-full"));
    expect(pid.credentialSets).toEqual([
      {
        required: true,
        options: [["pid"], ["other_pid"], ["pid_reduced_cred_1", "pid_reduced_cred_2"]],
        satisfiable: true,
      },
      { required: false, options: [["nice_to_have"]], satisfiable: false },
    ]);
    expect(pid.satisfiable).toBe(true);

    expect(evaluateDcqlQuery(query, only("reduced-pid")).satisfiable).toBe(false);
    expect(evaluateDcqlQuery(query, only("reduced-pid", "residence")).satisfiable).toBe(true);
    expect(evaluateDcqlQuery(query, only("rewards")).satisfiable).toBe(false);
    const both = evaluateDcqlQuery(query, only("other-pid", "rewards"));
    expect(both.satisfiable).toBe(true);
    expect(both.credentialSets.map((s) => s.satisfiable)).toEqual([true, true]);
  });

  it("complex_mdoc: an ID from an mDL or a photo ID is required, the address is optional", () => {
    const query = parseDcqlQuery(readFixture("complex_mdoc.json"));
    const photo = evaluateDcqlQuery(query, only("photoid"));
    expect(photo.satisfiable).toBe(true);
    expect(photo.credentialQueries["photo_card-address"]?.failures[0]).toMatchObject({
      candidateId: "photoid",
      reason: "CLAIMS",
    });
    expect(photo.credentialSets.map((s) => s.satisfiable)).toEqual([true, false]);
    expect(evaluateDcqlQuery(query, only("mvrc")).satisfiable).toBe(false);
  });

  it("without credential_sets every credential query is required", () => {
    const query = parseDcqlQuery(readFixture("multi_credentials.json"));
    expect(evaluateDcqlQuery(query, only("pid-full")).satisfiable).toBe(false);
    expect(evaluateDcqlQuery(query, only("mvrc")).satisfiable).toBe(false);
    const both = evaluateDcqlQuery(query, only("pid-full", "mvrc"));
    expect(both.satisfiable).toBe(true);
    expect(both.credentialSets).toEqual([]);
  });

  it("only optional sets: satisfiable with nothing matching", () => {
    const query = parseDcqlQuery(EXTRA_QUERIES["optional set only"]);
    expect(evaluateDcqlQuery(query, []).satisfiable).toBe(true);
  });

  it("one credential can answer several credential queries", () => {
    const query = parseDcqlQuery(readFixture("complex_mdoc.json"));
    const evaluation = evaluateDcqlQuery(query, only("mdl"));
    expect(evaluation.credentialQueries["mdl-id"]?.matches.map((m) => m.candidateId)).toEqual(["mdl"]);
    expect(evaluation.credentialQueries["mdl-address"]?.matches.map((m) => m.candidateId)).toEqual(["mdl"]);
  });

  it("reports failures with reasons", () => {
    const query = parseDcqlQuery(readFixture("simple.json"));
    const evaluation = evaluateDcqlQuery(query, only("pid-full", "pid-partial", "pid-unbound", "other-pid", "mdl"));
    expect(evaluation.credentialQueries.my_credential?.failures.map((f) => [f.candidateId, f.reason])).toEqual([
      ["pid-partial", "CLAIMS"],
      ["pid-unbound", "HOLDER_BINDING"],
      ["other-pid", "META"],
      ["mdl", "FORMAT"],
    ]);
    expect(evaluation.credentialQueries.my_credential?.matches).toEqual([
      { candidateId: "pid-full", selectedPaths: [["family_name"], ["given_name"], ["address", "street_address"]] },
    ]);
  });
});
