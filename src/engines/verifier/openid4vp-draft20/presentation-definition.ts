import type { CredentialSchema } from "../../../domain/credential-schema.js";
import type { ProofInputSchema } from "../../../domain/proof-schema.js";
import { flattenClaimSchemas } from "../../issuer/credential-schema-dto.js";
import { claimsPathOf, credentialQueryId } from "../build-dcql-query.js";

/** SD-JWT VC format identifiers of Presentation Exchange (`vc+sd-jwt` in draft 20, `dc+sd-jwt` later). */
export const PEX_SD_JWT_FORMATS = ["vc+sd-jwt", "dc+sd-jwt"] as const;

export interface PexField {
  id?: string;
  name?: string;
  purpose?: string;
  path: string[];
  filter?: Record<string, unknown>;
  optional?: boolean;
  intent_to_retain?: boolean;
}

export interface PexInputDescriptor {
  id: string;
  name?: string;
  purpose?: string;
  /** the submission-requirement groups the descriptor belongs to (PEX 2.0 §"Submission Requirement Feature") */
  group?: string[];
  format?: Record<string, unknown>;
  constraints: { limit_disclosure?: "required" | "preferred"; fields?: PexField[] };
}

/**
 * A submission requirement (PEX 2.0 §"Submission Requirements"): `all` descriptors of a group (or all nested
 * requirements), or `pick` exactly `count` / at least `min` / at most `max` of them.
 */
export interface PexSubmissionRequirement {
  name?: string;
  purpose?: string;
  rule: "all" | "pick";
  count?: number;
  min?: number;
  max?: number;
  from?: string;
  from_nested?: PexSubmissionRequirement[];
}

/** A Presentation Exchange 2.0 presentation definition (the subset credkit writes and reads). */
export interface PexPresentationDefinition {
  id: string;
  name?: string;
  purpose?: string;
  submission_requirements?: PexSubmissionRequirement[];
  input_descriptors: PexInputDescriptor[];
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The JSONPath (`$.address.street`, `$.nationalities[*]`) of an OpenID4VP claims path. */
export function jsonPathOf(path: readonly (string | number | null)[]): string {
  let out = "$";
  for (const segment of path) {
    if (segment === null) out += "[*]";
    else if (typeof segment === "number") out += `[${segment}]`;
    else out += IDENTIFIER.test(segment) ? `.${segment}` : `['${segment.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}']`;
  }
  return out;
}

/**
 * Parses the JSONPath subset Presentation Exchange field paths use in practice: `$`, `.name`, `['name']` /
 * `["name"]`, `[n]` and `[*]` (→ null). Undefined for anything else (filters, recursive descent …).
 */
export function parseJsonPath(text: string): (string | number | null)[] | undefined {
  if (!text.startsWith("$")) return undefined;
  const out: (string | number | null)[] = [];
  let i = 1;
  while (i < text.length) {
    const rest = text.slice(i);
    let match = /^\.([A-Za-z_$][A-Za-z0-9_$-]*)/.exec(rest);
    if (match) {
      out.push(match[1]!);
      i += match[0].length;
      continue;
    }
    match = /^\[\*\]/.exec(rest);
    if (match) {
      out.push(null);
      i += 3;
      continue;
    }
    match = /^\[(\d+)\]/.exec(rest);
    if (match) {
      out.push(Number(match[1]));
      i += match[0].length;
      continue;
    }
    match = /^\[(['"])((?:\\.|(?!\1).)*)\1\]/.exec(rest);
    if (match) {
      out.push(match[2]!.replace(/\\(.)/g, "$1"));
      i += match[0].length;
      continue;
    }
    return undefined;
  }
  return out;
}

/** Id of a requested-claim field: `<descriptor id>.<claim schema id>`, unique within the definition. */
export function fieldId(descriptorId: string, claimSchemaId: string): string {
  return `${descriptorId}.${claimSchemaId}`;
}

/**
 * The presentation definition (DIF Presentation Exchange 2.0, OpenID4VP draft 20 §5.1) of a proof schema: one input
 * descriptor per proof input (`input_<order>`), SD-JWT VC only, the `vct` pinned by a filter, one field per requested
 * claim (`optional` when the claim is not required), `limit_disclosure: required`. The DCQL `credential_sets` built
 * for the same proof schema (alternatives between inputs), when there are any, become `group`s and
 * `submission_requirements` ({@link submissionRequirementsOf}).
 */
export function buildPresentationDefinition(
  id: string,
  name: string,
  inputs: readonly { input: ProofInputSchema; schema: CredentialSchema }[],
  algorithms: readonly string[],
  credentialSets?: readonly CredentialSet[],
): PexPresentationDefinition {
  const { groups, requirements } = submissionRequirementsOf(credentialSets ?? []);
  return {
    id,
    name,
    ...(requirements.length > 0 && { submission_requirements: requirements }),
    input_descriptors: inputs.map(({ input, schema }) => {
      const descriptorId = credentialQueryId(input.order);
      const paths = new Map(flattenClaimSchemas(schema.claims).map((e) => [e.claim.id, e.path]));
      const format = { "sd-jwt_alg_values": [...algorithms], "kb-jwt_alg_values": [...algorithms] };
      const group = groups.get(descriptorId);
      return {
        id: descriptorId,
        name: schema.name,
        ...(group !== undefined && { group }),
        format: { "vc+sd-jwt": format, "dc+sd-jwt": format },
        constraints: {
          limit_disclosure: "required",
          fields: [
            { path: ["$.vct"], filter: { type: "string", const: schema.schemaId } },
            ...input.claimSchemas.map((claim) => {
              const claimPath = paths.get(claim.claimSchemaId) ?? "";
              return {
                id: fieldId(descriptorId, claim.claimSchemaId),
                name: claimPath,
                path: [jsonPathOf(claimsPathOf(schema, claimPath))],
                optional: !claim.required,
              };
            }),
          ],
        },
      };
    }),
  };
}

/** A DCQL Credential Set Query (OpenID4VP 1.0 §6.2): options of credential query ids (= input descriptor ids). */
export interface CredentialSet {
  options: readonly (readonly string[])[];
  required?: boolean;
}

/**
 * The submission requirements expressing DCQL `credential_sets` (the same alternatives for draft 20), with the groups
 * of each input descriptor. Per set `k`: options of one descriptor each share the group `set_k`, answered by
 * `pick count 1` (`min 0, max 1` when the set is optional); a single option of several descriptors is `all` of its
 * group `set_k_0`; otherwise each option `j` is a group `set_k_j` and the set a `pick` (`min 1`, or `min 0` when
 * optional) over nested `all` requirements. Without sets there is nothing: every input descriptor is required.
 */
export function submissionRequirementsOf(sets: readonly CredentialSet[]): {
  groups: Map<string, string[]>;
  requirements: PexSubmissionRequirement[];
} {
  const groups = new Map<string, string[]>();
  const join = (descriptorId: string, group: string) => {
    const list = groups.get(descriptorId) ?? [];
    if (!list.includes(group)) list.push(group);
    groups.set(descriptorId, list);
  };
  const requirements = sets.map((set, k): PexSubmissionRequirement => {
    const required = set.required !== false;
    if (set.options.every((option) => option.length === 1)) {
      const group = `set_${k}`;
      for (const [id] of set.options) join(id!, group);
      if (set.options.length === 1 && required) return { rule: "all", from: group };
      return { rule: "pick", ...(required ? { count: 1 } : { min: 0, max: 1 }), from: group };
    }
    const nested = set.options.map((option, j): PexSubmissionRequirement => {
      const group = `set_${k}_${j}`;
      for (const id of option) join(id, group);
      return { rule: "all", from: group };
    });
    if (nested.length === 1 && required) return nested[0]!;
    return { rule: "pick", min: required ? 1 : 0, from_nested: nested };
  });
  return { groups, requirements };
}

/** Deepest `from_nested` nesting a received definition may have (real ones use 1–2 levels). */
const MAX_REQUIREMENT_DEPTH = 8;
/** Most submission requirements, nested ones included, a received definition may have. */
const MAX_REQUIREMENTS = 256;

/**
 * Checks the shape of `submission_requirements` (PEX 2.0): rule `all` or `pick`, exactly one of `from` (a group some
 * input descriptor has) and `from_nested`, non-negative integer `count` / `min` / `max`; at most 8 levels and 256
 * requirements in all. The first problem, or undefined.
 */
export function submissionRequirementsProblem(definition: PexPresentationDefinition): string | undefined {
  const requirements: unknown = definition.submission_requirements;
  if (requirements === undefined) return undefined;
  if (!Array.isArray(requirements) || requirements.length === 0)
    return "submission_requirements must be a non-empty array";
  const known = new Set(definition.input_descriptors.flatMap((d) => (Array.isArray(d.group) ? d.group : [])));
  // a received definition is the verifier's: bound what the recursive checks, evaluation and storage walk
  let seen = 0;
  const check = (value: unknown, where: string, depth = 1): string | undefined => {
    if (depth > MAX_REQUIREMENT_DEPTH)
      return `submission_requirements are nested deeper than ${MAX_REQUIREMENT_DEPTH} levels`;
    if (++seen > MAX_REQUIREMENTS) return `there are more than ${MAX_REQUIREMENTS} submission requirements`;
    if (typeof value !== "object" || value === null || Array.isArray(value)) return `${where} is not an object`;
    const r = value as Record<string, unknown>;
    if (r.rule !== "all" && r.rule !== "pick")
      return `${where}: rule ${JSON.stringify(r.rule ?? null)} is not all or pick`;
    for (const bound of ["count", "min", "max"] as const) {
      const n = r[bound];
      if (n !== undefined && (typeof n !== "number" || !Number.isInteger(n) || n < 0))
        return `${where}: ${bound} must be a non-negative integer`;
    }
    if ((r.from === undefined) === (r.from_nested === undefined))
      return `${where}: needs exactly one of from and from_nested`;
    if (r.from !== undefined) {
      if (typeof r.from !== "string") return `${where}: from must be a group name`;
      if (!known.has(r.from)) return `${where}: no input descriptor is in group ${r.from}`;
      return undefined;
    }
    if (!Array.isArray(r.from_nested) || r.from_nested.length === 0)
      return `${where}: from_nested must be a non-empty array`;
    for (const [i, nested] of r.from_nested.entries()) {
      const problem = check(nested, `${where}.from_nested[${i}]`, depth + 1);
      if (problem) return problem;
    }
    return undefined;
  };
  for (const [i, requirement] of requirements.entries()) {
    const problem = check(requirement, `submission_requirements[${i}]`);
    if (problem) return problem;
  }
  return undefined;
}

/** How a requirement reads in a reason: its name, else its rule and source. */
function describeRequirement(requirement: PexSubmissionRequirement): string {
  if (requirement.name !== undefined) return JSON.stringify(requirement.name);
  const bounds = [
    requirement.count !== undefined && `count ${requirement.count}`,
    requirement.min !== undefined && `min ${requirement.min}`,
    requirement.max !== undefined && `max ${requirement.max}`,
  ].filter(Boolean);
  const source = requirement.from !== undefined ? `from group ${requirement.from}` : "from nested requirements";
  return `${requirement.rule}${bounds.length > 0 ? ` (${bounds.join(", ")})` : ""} ${source}`;
}

/**
 * Whether the answered input descriptors satisfy every top-level submission requirement (PEX 2.0): `all` needs every
 * descriptor of the group (every nested requirement), `pick` needs exactly `count`, at least `min` and at most `max`
 * of them. Undefined when satisfied (or when the definition has none), else a readable reason.
 */
export function unmetSubmissionRequirement(
  definition: PexPresentationDefinition,
  answered: ReadonlySet<string>,
): string | undefined {
  const members = (group: string) =>
    definition.input_descriptors.filter((d) => Array.isArray(d.group) && d.group.includes(group)).map((d) => d.id);
  const evaluate = (requirement: PexSubmissionRequirement): string | undefined => {
    let total: number;
    let satisfied: number;
    let detail: string | undefined;
    if (requirement.from !== undefined) {
      const ids = members(requirement.from);
      total = ids.length;
      const given = ids.filter((id) => answered.has(id));
      satisfied = given.length;
      detail = `answered ${satisfied} of ${total} (${ids.join(", ")})`;
    } else {
      const nested = requirement.from_nested ?? [];
      total = nested.length;
      const reasons = nested.map(evaluate);
      satisfied = reasons.filter((r) => r === undefined).length;
      detail = `met ${satisfied} of ${total} nested requirements${
        satisfied < total ? `: ${reasons.filter((r) => r !== undefined).join("; ")}` : ""
      }`;
    }
    const label = describeRequirement(requirement);
    if (requirement.rule === "all") return satisfied === total ? undefined : `${label}: ${detail}`;
    if (requirement.count !== undefined && satisfied !== requirement.count)
      return `${label}: needs exactly ${requirement.count}, ${detail}`;
    if (requirement.min !== undefined && satisfied < requirement.min)
      return `${label}: needs at least ${requirement.min}, ${detail}`;
    if (requirement.max !== undefined && satisfied > requirement.max)
      return `${label}: allows at most ${requirement.max}, ${detail}`;
    return undefined;
  };
  for (const requirement of definition.submission_requirements ?? []) {
    const reason = evaluate(requirement);
    if (reason !== undefined) return `submission requirement ${reason}`;
  }
  return undefined;
}
