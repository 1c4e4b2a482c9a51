/**
 * Presentation Exchange 2.0 submission requirements of the draft-20 verifier and wallet: DCQL `credential_sets` (the
 * alternatives of a proof schema) as `group`s + `submission_requirements`, their evaluation against the answered input
 * descriptors, and the shape checks the wallet applies to a received definition.
 */
import { describe, expect, it } from "vitest";
import type { CredentialSchema } from "../../src/domain/credential-schema.js";
import {
  buildPresentationDefinition,
  type PexPresentationDefinition,
  submissionRequirementsOf,
  submissionRequirementsProblem,
  unmetSubmissionRequirement,
} from "../../src/engines/verifier/openid4vp-draft20/presentation-definition.js";

const now = new Date("2026-01-01T00:00:00Z");

function schema(name: string): CredentialSchema {
  return {
    id: `${name}-id`,
    organisationId: "org",
    name,
    format: "SD_JWT_VC",
    schemaId: `https://example.com/${name}`,
    importedSourceUrl: "",
    claims: [
      {
        id: `${name}-claim`,
        key: "given_name",
        datatype: "STRING",
        required: true,
        array: false,
        claims: [],
        createdDate: now,
        lastModified: now,
      },
    ],
    allowSuspension: false,
    requiresWalletInstanceAttestation: false,
    createdDate: now,
    lastModified: now,
  };
}

const inputs = ["pid", "passport", "diploma"].map((name, order) => ({
  input: {
    credentialSchemaId: `${name}-id`,
    order,
    claimSchemas: [{ claimSchemaId: `${name}-claim`, required: true, order: 0 }],
  },
  schema: schema(name),
}));

const answered = (...ids: string[]) => new Set(ids);

describe("submissionRequirementsOf: DCQL credential_sets → groups and submission_requirements", () => {
  it("nothing without credential sets (every input descriptor required)", () => {
    const { groups, requirements } = submissionRequirementsOf([]);
    expect(groups.size).toBe(0);
    expect(requirements).toEqual([]);
    const definition = buildPresentationDefinition("def", "name", inputs, ["ES256"]);
    expect(definition.submission_requirements).toBeUndefined();
    expect(definition.input_descriptors.every((d) => d.group === undefined)).toBe(true);
  });

  it("one-descriptor options: one group, pick count 1 (min 0 / max 1 when optional); a single one: all", () => {
    const { groups, requirements } = submissionRequirementsOf([
      { options: [["input_0"], ["input_1"]] },
      { options: [["input_2"]], required: false },
      { options: [["input_0"]] },
    ]);
    expect(Object.fromEntries(groups)).toEqual({
      input_0: ["set_0", "set_2"],
      input_1: ["set_0"],
      input_2: ["set_1"],
    });
    expect(requirements).toEqual([
      { rule: "pick", count: 1, from: "set_0" },
      { rule: "pick", min: 0, max: 1, from: "set_1" },
      { rule: "all", from: "set_2" },
    ]);
  });

  it("options of several descriptors: nested all requirements under pick min 1 (min 0 when optional)", () => {
    const { groups, requirements } = submissionRequirementsOf([
      { options: [["input_0", "input_2"], ["input_1"]] },
      { options: [["input_1", "input_2"]] },
    ]);
    expect(Object.fromEntries(groups)).toEqual({
      input_0: ["set_0_0"],
      input_1: ["set_0_1", "set_1_0"],
      input_2: ["set_0_0", "set_1_0"],
    });
    expect(requirements).toEqual([
      {
        rule: "pick",
        min: 1,
        from_nested: [
          { rule: "all", from: "set_0_0" },
          { rule: "all", from: "set_0_1" },
        ],
      },
      { rule: "all", from: "set_1_0" },
    ]);
  });

  it("buildPresentationDefinition carries them, and they accept exactly the alternatives", () => {
    const definition = buildPresentationDefinition(
      "def",
      "name",
      inputs,
      ["ES256"],
      [{ options: [["input_0"], ["input_1"]] }, { options: [["input_2"]], required: false }],
    );
    expect(definition.submission_requirements).toHaveLength(2);
    expect(definition.input_descriptors.map((d) => d.group)).toEqual([["set_0"], ["set_0"], ["set_1"]]);
    expect(submissionRequirementsProblem(definition)).toBeUndefined();
    expect(unmetSubmissionRequirement(definition, answered("input_0"))).toBeUndefined();
    expect(unmetSubmissionRequirement(definition, answered("input_1", "input_2"))).toBeUndefined();
    expect(unmetSubmissionRequirement(definition, answered("input_2"))).toBe(
      "submission requirement pick (count 1) from group set_0: needs exactly 1, answered 0 of 2 (input_0, input_1)",
    );
    expect(unmetSubmissionRequirement(definition, answered("input_0", "input_1"))).toMatch(/needs exactly 1/);
  });
});

describe("unmetSubmissionRequirement", () => {
  const definition = (requirements: unknown[]): PexPresentationDefinition => ({
    id: "def",
    submission_requirements: requirements as PexPresentationDefinition["submission_requirements"],
    input_descriptors: [
      { id: "a", group: ["A"], constraints: {} },
      { id: "b", group: ["A", "B"], constraints: {} },
      { id: "c", group: ["C"], constraints: {} },
    ],
  });

  it("all / pick count / min / max over a group", () => {
    expect(unmetSubmissionRequirement(definition([{ rule: "all", from: "A" }]), answered("a", "b"))).toBeUndefined();
    expect(unmetSubmissionRequirement(definition([{ rule: "all", from: "A" }]), answered("a"))).toBe(
      "submission requirement all from group A: answered 1 of 2 (a, b)",
    );
    const between = definition([{ name: "one or two", rule: "pick", min: 1, max: 1, from: "A" }]);
    expect(unmetSubmissionRequirement(between, answered())).toBe(
      'submission requirement "one or two": needs at least 1, answered 0 of 2 (a, b)',
    );
    expect(unmetSubmissionRequirement(between, answered("a", "b"))).toBe(
      'submission requirement "one or two": allows at most 1, answered 2 of 2 (a, b)',
    );
    expect(unmetSubmissionRequirement(between, answered("b", "c"))).toBeUndefined();
  });

  it("from_nested counts satisfied nested requirements; every top-level requirement must hold", () => {
    const nested = definition([
      { rule: "all", from: "C" },
      {
        rule: "pick",
        count: 1,
        from_nested: [
          { rule: "all", from: "A" },
          { rule: "all", from: "B" },
        ],
      },
    ]);
    expect(unmetSubmissionRequirement(nested, answered("c", "b"))).toBeUndefined();
    expect(unmetSubmissionRequirement(nested, answered("c", "a", "b"))).toBe(
      "submission requirement pick (count 1) from nested requirements: needs exactly 1, met 2 of 2 nested requirements",
    );
    expect(unmetSubmissionRequirement(nested, answered("b"))).toBe(
      "submission requirement all from group C: answered 0 of 1 (c)",
    );
  });

  it("refuses deeply nested or huge requirements instead of recursing into them (a verifier-controlled DoS)", () => {
    let deep: Record<string, unknown> = { rule: "all", from: "A" };
    for (let level = 0; level < 20_000; level++) deep = { rule: "all", from_nested: [deep] };
    const deepDefinition = definition([deep as never]);
    expect(() => submissionRequirementsProblem(deepDefinition)).not.toThrow();
    expect(submissionRequirementsProblem(deepDefinition)).toMatch(/nested deeper than 8 levels/);
    let eight: Record<string, unknown> = { rule: "all", from: "A" };
    for (let level = 0; level < 7; level++) eight = { rule: "all", from_nested: [eight] };
    expect(submissionRequirementsProblem(definition([eight as never]))).toBeUndefined();
    const wide = definition([
      { rule: "pick", min: 1, from_nested: Array.from({ length: 1000 }, () => ({ rule: "all", from: "A" })) },
    ] as never);
    expect(submissionRequirementsProblem(wide)).toMatch(/more than 256 submission requirements/);
  });

  it("a definition without requirements is always satisfied here (every descriptor is checked elsewhere)", () => {
    const plain: PexPresentationDefinition = { id: "def", input_descriptors: [{ id: "a", constraints: {} }] };
    expect(unmetSubmissionRequirement(plain, answered())).toBeUndefined();
    expect(submissionRequirementsProblem(plain)).toBeUndefined();
  });
});

describe("submissionRequirementsProblem", () => {
  const withRequirements = (requirements: unknown): PexPresentationDefinition =>
    ({
      id: "def",
      submission_requirements: requirements,
      input_descriptors: [{ id: "a", group: ["A"], constraints: {} }],
    }) as PexPresentationDefinition;

  it.each([
    [[], "submission_requirements must be a non-empty array"],
    [[{ rule: "some", from: "A" }], 'submission_requirements[0]: rule "some" is not all or pick'],
    [[{ rule: "all" }], "submission_requirements[0]: needs exactly one of from and from_nested"],
    [
      [{ rule: "all", from: "A", from_nested: [] }],
      "submission_requirements[0]: needs exactly one of from and from_nested",
    ],
    [[{ rule: "pick", count: -1, from: "A" }], "submission_requirements[0]: count must be a non-negative integer"],
    [[{ rule: "pick", min: 1.5, from: "A" }], "submission_requirements[0]: min must be a non-negative integer"],
    [[{ rule: "all", from: "Z" }], "submission_requirements[0]: no input descriptor is in group Z"],
    [
      [{ rule: "all", from_nested: [{ rule: "all", from: "A" }, "x"] }],
      "submission_requirements[0].from_nested[1] is not an object",
    ],
  ])("%j → %s", (requirements, problem) => {
    expect(submissionRequirementsProblem(withRequirements(requirements))).toBe(problem);
  });
});
