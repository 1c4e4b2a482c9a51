import type { CredentialQuery, DcqlQuery } from "./dcql-query-schema.js";
import { type DcqlCandidate, matchCredentialQuery } from "./match-credential-query.js";

export type PresentationCoverage = { ok: true } | { ok: false; reason: string };

export interface PresentationCoverageOptions {
  /**
   * Reject a presentation whose claim does not carry one of the requested `values` (default `true`). The Wallet
   * applies `values` only on a best-effort basis (OpenID4VP 1.0 §6.4.1); `false` accepts such presentations and
   * leaves value checks to the caller.
   */
  enforceValues?: boolean;
}

/**
 * Verifier side, after every presentation of the `vp_token` (OpenID4VP 1.0 §8.1: Credential Query id → array of
 * presentations) was verified and its disclosed claims extracted: checks that the response answers the DCQL query.
 *
 * - every key is the id of a Credential Query;
 * - every entry holds at least one presentation, and exactly one when the query's `multiple` is false;
 * - every presentation matches its Credential Query: format, `meta`, holder binding when required, and the
 *   disclosed claims include what `claims` / `claim_sets` request (SD-JWT array indexes match any element, since
 *   selective disclosure removes undisclosed elements);
 * - without `credential_sets` every Credential Query is answered; with them, every required set has an option whose
 *   Credential Queries are all answered.
 *
 * Claims disclosed beyond those requested are not rejected here.
 */
export function checkPresentedQueries(
  query: DcqlQuery,
  presented: Record<string, DcqlCandidate[]>,
  options: PresentationCoverageOptions = {},
): PresentationCoverage {
  const byId = new Map<string, CredentialQuery>(query.credentials.map((credential) => [credential.id, credential]));
  const answered = new Set<string>();

  for (const [queryId, presentations] of Object.entries(presented)) {
    const credentialQuery = byId.get(queryId);
    if (credentialQuery === undefined) {
      return { ok: false, reason: `vp_token answers '${queryId}', which is not a credential query of the request` };
    }
    if (!Array.isArray(presentations) || presentations.length === 0) {
      return { ok: false, reason: `vp_token entry '${queryId}' holds no presentation` };
    }
    if (credentialQuery.multiple !== true && presentations.length !== 1) {
      return {
        ok: false,
        reason: `credential query '${queryId}' allows one presentation (multiple is false) but ${presentations.length} were presented`,
      };
    }
    for (const [index, presentation] of presentations.entries()) {
      const result = matchCredentialQuery(credentialQuery, presentation, {
        presentation: true,
        enforceValues: options.enforceValues !== false,
      });
      if (!result.matches) {
        const which = presentations.length === 1 ? "the presentation" : `presentation ${index}`;
        return {
          ok: false,
          reason: `${which} for credential query '${queryId}' does not match it (${result.reason}: ${result.detail})`,
        };
      }
    }
    answered.add(queryId);
  }

  if (query.credential_sets === undefined) {
    const missing = query.credentials.map((credential) => credential.id).filter((id) => !answered.has(id));
    if (missing.length > 0) {
      return { ok: false, reason: `no presentation for required credential query ${listIds(missing)}` };
    }
    return { ok: true };
  }
  for (const [setIndex, set] of query.credential_sets.entries()) {
    if (set.required === false) continue;
    if (set.options.some((option) => option.every((id) => answered.has(id)))) continue;
    const described = set.options.map((option) => `[${option.join(", ")}]`).join(" or ");
    return {
      ok: false,
      reason: `required credential set ${setIndex} is not satisfied: none of the options ${described} was fully presented`,
    };
  }
  return { ok: true };
}

function listIds(ids: readonly string[]): string {
  return ids.map((id) => `'${id}'`).join(", ");
}
