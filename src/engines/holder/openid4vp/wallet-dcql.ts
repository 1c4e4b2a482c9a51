import type { Credential } from "../../../domain/credential.js";
import type { CredentialSchema } from "../../../domain/credential-schema.js";
import {
  type ClaimsQuery,
  type CredentialQuery,
  type DcqlCandidate,
  type DcqlQuery,
  matchCredentialQuery,
} from "../../../providers/verification/dcql/index.js";

/** A credential held by the wallet, as DCQL sees it. */
export interface HeldCredential {
  credential: Credential;
  schema: CredentialSchema;
  /** the DCQL view: format, vct, holder binding, all claims with every disclosure applied */
  candidate: DcqlCandidate;
  /** why the credential cannot be presented (REVOKED, SUSPENDED, expired); absent when it can */
  invalidReason?: string;
}

/** A concrete claim path (keys and indexes) inside a credential: what is disclosed. */
export type ConcretePath = (string | number)[];

/** The claims a credential would disclose for one Credential Query. */
export interface ClaimSelection {
  /** the default disclosure (a complete claim set option): always presented */
  required: ClaimsQuery[];
  /** in other satisfiable options only: presented when the user selects them (`userSelections`) */
  optional: ClaimsQuery[];
}

export type FailureReason = "NO_CREDENTIAL" | "VALIDITY" | "CONSTRAINT";

/** How one Credential Query can be answered from the wallet. */
export interface QueryOutcome {
  query: CredentialQuery;
  /** usable credentials that satisfy the query, with what each would disclose */
  applicable: { held: HeldCredential; selection: ClaimSelection }[];
  /** when nothing is applicable: why, and the wallet's schema the query asks for (if the wallet has one) */
  failure?: { reason: FailureReason; schema?: CredentialSchema };
}

/**
 * The claims a credential presents for a Credential Query (OpenID4VP 1.0 §6.4.1), or undefined when it does not
 * satisfy the query. Without `claims` nothing selectively disclosable is presented; with `claims` and no `claim_sets`
 * every claim is required. With `claim_sets`, among the options the credential satisfies (in the verifier's order of
 * preference) the default disclosure is the claims common to all of them when those form an option themselves
 * (credkit's verifier asks for optional claims as `[all, required only]`), else the first satisfiable option; it is
 * required, and the other claims of satisfiable options are optional: the user may add them, and the default
 * disclosure, being an option, keeps the response valid whatever is added.
 */
export function claimSelection(query: CredentialQuery, candidate: DcqlCandidate): ClaimSelection | undefined {
  if (!matchCredentialQuery(query, candidate).matches) return undefined;
  const claims = query.claims ?? [];
  if (claims.length === 0) return { required: [], optional: [] };
  if (query.claim_sets === undefined) return { required: [...claims], optional: [] };
  const satisfiable = query.claim_sets.filter(
    (option) => matchCredentialQuery({ ...query, claim_sets: [option] }, candidate).matches,
  );
  const first = satisfiable[0];
  if (first === undefined) return undefined;
  const common = first.filter((id) => satisfiable.every((option) => option.includes(id)));
  const commonIsOption = satisfiable.some((option) => option.every((id) => common.includes(id)));
  const chosen = new Set(commonIsOption ? common : first);
  const offered = new Set(satisfiable.flat());
  return {
    required: claims.filter((claim) => claim.id !== undefined && chosen.has(claim.id)),
    optional: claims.filter((claim) => claim.id !== undefined && !chosen.has(claim.id) && offered.has(claim.id)),
  };
}

/** Format, meta and holder binding only: whether the credential is of the kind the query asks for. */
function isOfRequestedKind(query: CredentialQuery, candidate: DcqlCandidate): boolean {
  const { claims: _claims, claim_sets: _sets, ...rest } = query;
  return matchCredentialQuery(rest, candidate).matches;
}

function sameKindIgnoringBinding(query: CredentialQuery, candidate: DcqlCandidate): boolean {
  const { claims: _claims, claim_sets: _sets, ...rest } = query;
  return matchCredentialQuery({ ...rest, require_cryptographic_holder_binding: false }, candidate).matches;
}

/**
 * Answers each Credential Query of a DCQL query from the held credentials: the usable ones that satisfy it, or why
 * none does — NO_CREDENTIAL (nothing of the requested format and type), VALIDITY (only revoked, suspended or expired
 * ones would satisfy it), CONSTRAINT (credentials of that type exist but lack requested claims, values or holder
 * binding).
 */
export function answerDcqlQuery(query: DcqlQuery, held: readonly HeldCredential[]): QueryOutcome[] {
  return query.credentials.map((credentialQuery) => {
    const applicable: QueryOutcome["applicable"] = [];
    let satisfiedByInvalid = false;
    const sameKind: HeldCredential[] = [];
    for (const entry of held) {
      if (!sameKindIgnoringBinding(credentialQuery, entry.candidate)) continue;
      sameKind.push(entry);
      if (!isOfRequestedKind(credentialQuery, entry.candidate)) continue;
      const selection = claimSelection(credentialQuery, entry.candidate);
      if (selection === undefined) continue;
      if (entry.invalidReason !== undefined) satisfiedByInvalid = true;
      else applicable.push({ held: entry, selection });
    }
    if (applicable.length > 0) return { query: credentialQuery, applicable };
    const hint = sameKind[0]?.schema ?? schemaHint(credentialQuery, held);
    const reason: FailureReason = satisfiedByInvalid
      ? "VALIDITY"
      : sameKind.length > 0
        ? "CONSTRAINT"
        : "NO_CREDENTIAL";
    return { query: credentialQuery, applicable, failure: { reason, ...(hint !== undefined && { schema: hint }) } };
  });
}

/** A wallet schema whose vct the query names, for a failure hint. */
function schemaHint(query: CredentialQuery, held: readonly HeldCredential[]): CredentialSchema | undefined {
  const vcts = query.meta.vct_values ?? [];
  return held.find((entry) => vcts.includes(entry.schema.schemaId))?.schema;
}

/** Credential Set Queries of the request; without `credential_sets` every Credential Query is its own required set. */
export function credentialSetsOf(query: DcqlQuery): { required: boolean; options: string[][] }[] {
  if (query.credential_sets !== undefined) {
    return query.credential_sets.map((set) => ({
      required: set.required !== false,
      options: set.options.map((option) => [...option]),
    }));
  }
  return query.credentials.map((credential) => ({ required: true, options: [[credential.id]] }));
}

/**
 * The concrete paths a claims path pointer selects in a JSON credential (§7.1), `null` expanded to every index; with
 * `values`, only the selected elements whose value matches (§6.3: a non-matching claim is treated as absent).
 */
export function concretePaths(document: unknown, claim: ClaimsQuery): ConcretePath[] {
  let current: { path: ConcretePath; value: unknown }[] = [{ path: [], value: document }];
  for (const component of claim.path) {
    const next: { path: ConcretePath; value: unknown }[] = [];
    for (const { path, value } of current) {
      if (typeof component === "string") {
        if (typeof value === "object" && value !== null && !Array.isArray(value) && Object.hasOwn(value, component)) {
          next.push({ path: [...path, component], value: (value as Record<string, unknown>)[component] });
        }
      } else if (Array.isArray(value)) {
        if (component === null) {
          for (const [index, item] of value.entries()) next.push({ path: [...path, index], value: item });
        } else if (component < value.length) next.push({ path: [...path, component], value: value[component] });
      }
    }
    current = next;
  }
  const values = claim.values;
  if (values !== undefined) {
    current = current.filter(({ value }) =>
      values.some((expected) => typeof expected === typeof value && expected === value),
    );
  }
  return current.map(({ path }) => path);
}

/** true when `prefix` equals the first elements of `path` (indexes compared as text with the claim DTO paths). */
export function isPathPrefix(prefix: readonly (string | number)[], path: readonly (string | number)[]): boolean {
  if (prefix.length > path.length) return false;
  return prefix.every((segment, index) => String(segment) === String(path[index]));
}
