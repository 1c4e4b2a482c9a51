import { DcqlQuery } from "dcql";
import { describe, expect, it } from "vitest";
import {
  type DcqlCandidate,
  evaluateDcqlQuery,
  parseDcqlQuery,
} from "../../../../src/providers/verification/dcql/index.js";
import { toDcqlCredential } from "./samples.js";

/**
 * Where this implementation and the dcql package (3.0.0) disagree. Each case pins both behaviours; the comment cites
 * the OpenID4VP 1.0 text this implementation follows.
 */

const VCT = "https://credentials.example.com/identity_credential";

function bothSatisfied(claims: Record<string, unknown>, path: (string | number | null)[]) {
  const input = {
    credentials: [{ id: "q", format: "dc+sd-jwt", meta: { vct_values: [VCT] }, claims: [{ path }] }],
  };
  const candidate: DcqlCandidate = { id: "c", format: "dc+sd-jwt", vct: VCT, holderBinding: true, claims };
  const mine = evaluateDcqlQuery(parseDcqlQuery(input), [candidate]).satisfiable;
  const reference = DcqlQuery.query(DcqlQuery.parse(input as DcqlQuery.Input), [toDcqlCredential(candidate)]);
  return { mine, dcql: reference.can_be_satisfied };
}

describe("claims path pointer processing (§7.1)", () => {
  it("a claim whose value is JSON null exists", () => {
    // §7.1: "If the key does not exist in any element currently selected, remove that element" — the key exists,
    // so its value (null) is selected and the set is not empty. dcql treats null like an absent claim.
    expect(bothSatisfied({ middle_name: null }, ["middle_name"])).toEqual({ mine: true, dcql: false });
  });

  it("a string component applied to an array aborts", () => {
    // §7.1: "If any of the currently selected element(s) is not an object, abort processing and return an error."
    // dcql (valibot `object`) accepts the array and reads its "0" property.
    expect(bothSatisfied({ nationalities: ["DE", "FR"] }, ["nationalities", "0"])).toEqual({
      mine: false,
      dcql: true,
    });
  });

  it("null over an array with an element that is not an object, followed by a key, aborts", () => {
    // Same rule: after `null` selects every element, the next string component meets "junk", which is not an
    // object. dcql succeeds as soon as one element matches.
    expect(bothSatisfied({ degrees: [{ type: "BSc" }, "junk"] }, ["degrees", null, "type"])).toEqual({
      mine: false,
      dcql: true,
    });
  });

  it("null over an empty array selects nothing", () => {
    // §7.1 step 3: "If the set of elements currently selected is empty, abort processing and return an error."
    // dcql maps over the empty array and, finding no failing element, reports success.
    expect(bothSatisfied({ nationalities: [] }, ["nationalities", null])).toEqual({ mine: false, dcql: true });
  });
});

describe("mdoc data elements (§7.2)", () => {
  it("a data element whose value is null exists", () => {
    // §7.2 step 3 errors only when "the data element does not exist"; dcql requires a non-null value.
    const input = {
      credentials: [
        { id: "m", format: "mso_mdoc", meta: { doctype_value: "d" }, claims: [{ path: ["ns", "nickname"] }] },
      ],
    };
    const candidate: DcqlCandidate = {
      id: "c",
      format: "mso_mdoc",
      doctype: "d",
      holderBinding: true,
      claims: { ns: { nickname: null } },
    };
    expect(evaluateDcqlQuery(parseDcqlQuery(input), [candidate]).satisfiable).toBe(true);
    expect(
      DcqlQuery.query(DcqlQuery.parse(input as DcqlQuery.Input), [toDcqlCredential(candidate)]).can_be_satisfied,
    ).toBe(false);
  });
});

describe("query structure (§6, Appendix B)", () => {
  const accepted = (input: unknown) => {
    try {
      DcqlQuery.validate(DcqlQuery.parse(input as DcqlQuery.Input));
      return true;
    } catch {
      return false;
    }
  };
  const rejectedByMine = (input: unknown) => {
    expect(() => parseDcqlQuery(input)).toThrow(expect.objectContaining({ code: "BR_0083" }));
  };

  it("meta is REQUIRED (§6.1); dcql treats it as optional", () => {
    const input = { credentials: [{ id: "q", format: "dc+sd-jwt" }] };
    rejectedByMine(input);
    expect(accepted(input)).toBe(true);
  });

  it("vct_values is REQUIRED and non-empty for dc+sd-jwt (B.3.5); dcql accepts it absent or empty", () => {
    for (const meta of [{}, { vct_values: [] }]) {
      const input = { credentials: [{ id: "q", format: "dc+sd-jwt", meta }] };
      rejectedByMine(input);
      expect(accepted(input)).toBe(true);
    }
  });

  it("doctype_value is REQUIRED for mso_mdoc (B.2.3); dcql accepts it absent", () => {
    const input = { credentials: [{ id: "q", format: "mso_mdoc", meta: {} }] };
    rejectedByMine(input);
    expect(accepted(input)).toBe(true);
  });

  it("values is a non-empty array (§6.3); dcql accepts []", () => {
    const input = {
      credentials: [
        { id: "q", format: "dc+sd-jwt", meta: { vct_values: [VCT] }, claims: [{ path: ["a"], values: [] }] },
      ],
    };
    rejectedByMine(input);
    expect(accepted(input)).toBe(true);
  });
});

describe("not evaluated here", () => {
  it("trusted_authorities: candidates carry no issuer trust data, so the constraint is not checked", () => {
    // §6.1.1: a Wallet SHOULD only return matching credentials; a Verifier "must verify that the issuer of a
    // received presentation is trusted on their own". dcql matches it against a credential's `authority`.
    const input = {
      credentials: [
        {
          id: "q",
          format: "dc+sd-jwt",
          meta: { vct_values: [VCT] },
          trusted_authorities: [{ type: "aki", values: ["s9tIpPmhxdiuNkHMEWNpYim8S8Y"] }],
        },
      ],
    };
    const candidate: DcqlCandidate = { id: "c", format: "dc+sd-jwt", vct: VCT, holderBinding: true, claims: {} };
    expect(evaluateDcqlQuery(parseDcqlQuery(input), [candidate]).satisfiable).toBe(true);
    expect(
      DcqlQuery.query(DcqlQuery.parse(input as DcqlQuery.Input), [toDcqlCredential(candidate)]).can_be_satisfied,
    ).toBe(false);
  });
});
