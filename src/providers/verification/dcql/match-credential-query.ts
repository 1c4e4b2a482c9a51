import { encodeBase64url } from "../../../encoding/base64url.js";
import { type ClaimsPathResult, formatClaimsPath, processClaimsPath, processMdocClaimsPath } from "./claims-path.js";
import type { ClaimsPathPointer, ClaimsQuery, CredentialQuery, DcqlClaimValue } from "./dcql-query-schema.js";

/**
 * A credential (wallet side) or a verified presentation's disclosed content (verifier side), as DCQL sees it.
 */
export interface DcqlCandidate {
  /** The caller's identifier, echoed in results. */
  id: string;
  /** Credential Format Identifier. */
  format: "dc+sd-jwt" | "mso_mdoc" | (string & {});
  /** `dc+sd-jwt`: the `vct`, checked against `meta.vct_values`. */
  vct?: string;
  /** `mso_mdoc`: the doctype, checked against `meta.doctype_value`. */
  doctype?: string;
  /** `jwt_vc_json` / `ldp_vc`: the (fully expanded) `type` values, checked against `meta.type_values`. */
  type?: string[];
  /** The full claims document; for `mso_mdoc` `{namespace: {data element identifier: value}}`. */
  claims: Record<string, unknown>;
  /**
   * Wallet side: the credential supports Cryptographic Holder Binding; verifier side: the presentation proved it
   * (e.g. a valid KB-JWT). Absent counts as `false` when the query requires binding.
   */
  holderBinding?: boolean;
}

/** Why a candidate does not match a Credential Query; checked in this order. */
export type DcqlMismatchReason = "FORMAT" | "META" | "HOLDER_BINDING" | "CLAIMS" | "VALUES";

export type CredentialQueryMatch =
  | {
      matches: true;
      /** Index in `claim_sets` of the first option the candidate satisfies; absent without `claim_sets`. */
      claimSetIndex?: number;
      /** Pointers of the requested claims (the chosen option's, or all of `claims`); `[]` when `claims` is absent. */
      selectedPaths: ClaimsPathPointer[];
    }
  | { matches: false; reason: DcqlMismatchReason; detail: string };

export interface MatchCredentialQueryOptions {
  /**
   * The candidate is a verified SD-JWT presentation's disclosed claims: an array index in a pointer then matches any
   * element of the array, since undisclosed elements are removed and indexes shift. Default `false`.
   */
  presentation?: boolean;
  /** Check `values` constraints (default `true`). */
  enforceValues?: boolean;
}

const SD_JWT_VC_FORMAT = "dc+sd-jwt";
const MDOC_FORMAT = "mso_mdoc";
const W3C_FORMATS: ReadonlySet<string> = new Set(["jwt_vc_json", "ldp_vc"]);

type ClaimOutcome = { ok: true } | { ok: false; reason: "CLAIMS" | "VALUES"; detail: string };

/**
 * Whether a candidate satisfies one Credential Query (OpenID4VP 1.0 §6.1, §6.4.1): same format, `meta` satisfied,
 * Cryptographic Holder Binding when required, and the requested claims present: without `claims` nothing more is
 * needed; with `claims` and no `claim_sets` every claim must be present; with `claim_sets` the first option whose
 * claims are all present wins. A claim with `values` is present only when one of the values its pointer selects
 * equals (type and value) one of `values`; mdoc values are first converted to JSON (bytes as base64url).
 * `trusted_authorities` is not evaluated: the candidate carries no issuer trust information.
 */
export function matchCredentialQuery(
  query: CredentialQuery,
  credential: DcqlCandidate,
  options: MatchCredentialQueryOptions = {},
): CredentialQueryMatch {
  if (credential.format !== query.format) {
    return {
      matches: false,
      reason: "FORMAT",
      detail: `format '${credential.format}' is not the requested '${query.format}'`,
    };
  }
  const metaProblem = checkMeta(query, credential);
  if (metaProblem !== undefined) return { matches: false, reason: "META", detail: metaProblem };
  if (query.require_cryptographic_holder_binding !== false && credential.holderBinding !== true) {
    return {
      matches: false,
      reason: "HOLDER_BINDING",
      detail:
        credential.holderBinding === false
          ? "cryptographic holder binding is required but the credential has none"
          : "cryptographic holder binding is required but the credential does not state it",
    };
  }
  const claims = query.claims;
  if (claims === undefined || claims.length === 0) return { matches: true, selectedPaths: [] };

  const outcomes = claims.map((claim) => evaluateClaim(query.format, claim, credential, options));
  if (query.claim_sets === undefined) {
    const failed = collectFailures(outcomes);
    if (failed.length > 0) return mismatch(failed, "missing requested claims");
    return { matches: true, selectedPaths: uniquePaths(claims.map((claim) => claim.path)) };
  }

  const indexById = new Map<string, number>();
  claims.forEach((claim, index) => {
    if (claim.id !== undefined) indexById.set(claim.id, index);
  });
  const optionProblems: string[] = [];
  const allFailures: { reason: "CLAIMS" | "VALUES"; detail: string }[] = [];
  for (const [setIndex, set] of query.claim_sets.entries()) {
    const unknown = set.filter((id) => !indexById.has(id));
    const indexes = set.map((id) => indexById.get(id) ?? -1);
    const failed =
      unknown.length > 0
        ? [{ reason: "CLAIMS" as const, detail: `unknown claim id(s) ${unknown.join(", ")}` }]
        : collectFailures(indexes.map((index) => outcomes[index] as ClaimOutcome));
    if (failed.length === 0) {
      return {
        matches: true,
        claimSetIndex: setIndex,
        selectedPaths: uniquePaths(indexes.map((index) => (claims[index] as ClaimsQuery).path)),
      };
    }
    allFailures.push(...failed);
    optionProblems.push(`claim set ${setIndex}: ${failed.map((f) => f.detail).join(", ")}`);
  }
  return {
    matches: false,
    reason: allFailures.every((f) => f.reason === "VALUES") ? "VALUES" : "CLAIMS",
    detail: `no claim set can be satisfied (${optionProblems.join("; ")})`,
  };
}

function checkMeta(query: CredentialQuery, credential: DcqlCandidate): string | undefined {
  const meta = query.meta ?? {};
  if (query.format === SD_JWT_VC_FORMAT) {
    const allowed = meta.vct_values;
    if (allowed === undefined) return undefined;
    if (credential.vct === undefined) return "the credential has no vct";
    if (!allowed.includes(credential.vct)) {
      return `vct '${credential.vct}' is not one of ${JSON.stringify(allowed)}`;
    }
    return undefined;
  }
  if (query.format === MDOC_FORMAT) {
    const doctype = meta.doctype_value;
    if (doctype === undefined) return undefined;
    if (credential.doctype !== doctype) {
      return credential.doctype === undefined
        ? "the credential has no doctype"
        : `doctype '${credential.doctype}' is not '${doctype}'`;
    }
    return undefined;
  }
  if (W3C_FORMATS.has(query.format)) {
    const alternatives = meta.type_values;
    if (alternatives === undefined) return undefined;
    const types = credential.type ?? [];
    if (!alternatives.some((required) => required.every((t) => types.includes(t)))) {
      return `type ${JSON.stringify(types)} includes none of the type_values sets ${JSON.stringify(alternatives)}`;
    }
    return undefined;
  }
  const members = Object.keys(meta);
  if (members.length > 0) {
    return `meta (${members.join(", ")}) of format '${query.format}' cannot be evaluated`;
  }
  return undefined;
}

function evaluateClaim(
  format: string,
  claim: ClaimsQuery,
  credential: DcqlCandidate,
  options: MatchCredentialQueryOptions,
): ClaimOutcome {
  const isMdoc = format === MDOC_FORMAT;
  const result: ClaimsPathResult = isMdoc
    ? processMdocClaimsPath(credential.claims, claim.path)
    : processClaimsPath(credential.claims, claim.path, {
        indexMatchesAnyElement: options.presentation === true && format.endsWith("sd-jwt"),
      });
  if (!result.ok) return { ok: false, reason: "CLAIMS", detail: result.error };
  const values = claim.values;
  if (values === undefined || options.enforceValues === false) return { ok: true };
  const matched = result.selected.some((value) => valueMatches(isMdoc ? mdocValueToJson(value) : value, values));
  if (matched) return { ok: true };
  // The detail names the expected values only: the credential's own values stay out of error messages and logs.
  return {
    ok: false,
    reason: "VALUES",
    detail: `${formatClaimsPath(claim.path)}: no value equals one of ${JSON.stringify(values)}`,
  };
}

/** Type and value equal to one of `values` (§6.3). */
function valueMatches(value: unknown, values: readonly DcqlClaimValue[]): boolean {
  return values.some((expected) => typeof expected === typeof value && expected === value);
}

/** The JSON form of a decoded CBOR value where RFC 8949 §6.1 defines one for what `values` can hold. */
function mdocValueToJson(value: unknown): unknown {
  if (typeof value === "bigint") {
    return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
  }
  if (value instanceof Uint8Array) return encodeBase64url(value);
  return value;
}

function collectFailures(outcomes: readonly ClaimOutcome[]): { reason: "CLAIMS" | "VALUES"; detail: string }[] {
  const failed: { reason: "CLAIMS" | "VALUES"; detail: string }[] = [];
  for (const outcome of outcomes) if (!outcome.ok) failed.push({ reason: outcome.reason, detail: outcome.detail });
  return failed;
}

function mismatch(
  failed: readonly { reason: "CLAIMS" | "VALUES"; detail: string }[],
  heading: string,
): CredentialQueryMatch {
  const reason = failed.some((f) => f.reason === "CLAIMS") ? "CLAIMS" : "VALUES";
  const label = reason === "CLAIMS" ? heading : "claim values not among the requested values";
  return { matches: false, reason, detail: `${label}: ${failed.map((f) => f.detail).join(", ")}` };
}

/** Pointers in order, duplicates (a Verifier MUST NOT send them, a Wallet SHOULD ignore them) dropped. */
function uniquePaths(paths: readonly ClaimsPathPointer[]): ClaimsPathPointer[] {
  const seen = new Set<string>();
  const out: ClaimsPathPointer[] = [];
  for (const path of paths) {
    const key = JSON.stringify(path);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push([...path]);
  }
  return out;
}
