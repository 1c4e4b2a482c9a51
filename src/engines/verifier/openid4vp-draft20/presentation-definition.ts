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
  format?: Record<string, unknown>;
  constraints: { limit_disclosure?: "required" | "preferred"; fields?: PexField[] };
}

/** A Presentation Exchange 2.0 presentation definition (the subset credkit writes and reads). */
export interface PexPresentationDefinition {
  id: string;
  name?: string;
  purpose?: string;
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
 * claim (`optional` when the claim is not required), `limit_disclosure: required`.
 */
export function buildPresentationDefinition(
  id: string,
  name: string,
  inputs: readonly { input: ProofInputSchema; schema: CredentialSchema }[],
  algorithms: readonly string[],
): PexPresentationDefinition {
  return {
    id,
    name,
    input_descriptors: inputs.map(({ input, schema }) => {
      const descriptorId = credentialQueryId(input.order);
      const paths = new Map(flattenClaimSchemas(schema.claims).map((e) => [e.claim.id, e.path]));
      const format = { "sd-jwt_alg_values": [...algorithms], "kb-jwt_alg_values": [...algorithms] };
      return {
        id: descriptorId,
        name: schema.name,
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
