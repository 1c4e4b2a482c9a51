import type { ClaimSchema, CredentialSchema } from "../../domain/credential-schema.js";
import type { ProofCredentialSet, ProofInputSchema } from "../../domain/proof-schema.js";
import { flattenClaimSchemas } from "../issuer/credential-schema-dto.js";

export interface DcqlClaim {
  id: string;
  path: (string | number | null)[];
}

export interface DcqlCredentialQuery {
  id: string;
  format: string;
  meta: Record<string, unknown>;
  claims: DcqlClaim[];
  claim_sets?: string[][];
  multiple?: boolean;
  require_cryptographic_holder_binding?: boolean;
}

export interface DcqlQueryObject {
  credentials: DcqlCredentialQuery[];
  credential_sets?: { options: string[][]; required?: boolean }[];
}

/** DCQL credential query id of the n-th proof input. */
export function credentialQueryId(order: number): string {
  return `input_${order}`;
}

/** The OpenID4VP claims path (§7) of a claim schema: keys, with `null` after every array. */
export function claimsPathOf(schema: CredentialSchema, claimPath: string): (string | null)[] {
  const segments: (string | null)[] = [];
  let level: readonly ClaimSchema[] = schema.claims;
  for (const key of claimPath.split("/")) {
    const node = level.find((c) => c.key === key);
    if (!node) break;
    segments.push(key);
    if (node.array) segments.push(null);
    level = node.claims;
  }
  return segments;
}

/**
 * `credential_sets` (OpenID4VP 1.0 §6.2) of a proof schema's alternatives; inputs no set names become required sets of
 * their own, since a query outside every set would not be requested at all. Undefined without alternatives.
 */
export function buildCredentialSets(
  inputs: readonly { input: ProofInputSchema }[],
  sets: readonly ProofCredentialSet[] | undefined,
): DcqlQueryObject["credential_sets"] {
  if (!sets || sets.length === 0) return undefined;
  const named = new Set(sets.flatMap((set) => set.options.flat()));
  return [
    ...sets.map((set) => ({
      options: set.options.map((option) => option.map(credentialQueryId)),
      required: set.required,
    })),
    ...inputs
      .filter(({ input }) => !named.has(input.order))
      .map(({ input }) => ({ options: [[credentialQueryId(input.order)]], required: true })),
  ];
}

/**
 * The DCQL query (OpenID4VP 1.0 §6) of a proof schema: one credential query per proof input, matched by `vct`, with
 * its requested claims. Optional claims are expressed with `claim_sets`: first all claims, then only the required ones.
 * Alternatives between inputs (`credentialSets`) become `credential_sets`.
 */
export function buildDcqlQuery(
  inputs: readonly { input: ProofInputSchema; schema: CredentialSchema }[],
  credentialSets?: readonly ProofCredentialSet[],
): DcqlQueryObject {
  const sets = buildCredentialSets(inputs, credentialSets);
  return {
    ...(sets && { credential_sets: sets }),
    credentials: inputs.map(({ input, schema }) => {
      const paths = new Map(flattenClaimSchemas(schema.claims).map((e) => [e.claim.id, e.path]));
      const claims = input.claimSchemas.map((c, i) => ({
        id: `claim_${i}`,
        path: claimsPathOf(schema, paths.get(c.claimSchemaId) ?? ""),
        required: c.required,
      }));
      const optional = claims.some((c) => !c.required);
      return {
        id: credentialQueryId(input.order),
        format: "dc+sd-jwt",
        meta: { vct_values: [schema.schemaId] },
        claims: claims.map(({ id, path }) => ({ id, path })),
        ...(optional && { claim_sets: [claims.map((c) => c.id), claims.filter((c) => c.required).map((c) => c.id)] }),
        require_cryptographic_holder_binding: true,
      };
    }),
  };
}
