import type { DcqlQueryObject } from "./build-dcql-query.js";
import { PresentationRejected } from "./presentation-checks.js";

function isAnswered(value: unknown): boolean {
  return value !== undefined && value !== null && !(Array.isArray(value) && value.length === 0);
}

/**
 * The credential queries a `vp_token` must be checked for (OpenID4VP 1.0 §6.2, §8.1). Without `credential_sets` that
 * is every query (a missing one is reported when it is checked). With them, every required set needs one option whose
 * queries are all answered, and an answered query must belong to an option that is fully answered: a partial option
 * proves nothing the verifier asked for.
 */
export function checkCredentialSets(query: DcqlQueryObject, vpToken: Record<string, unknown>): Set<string> {
  const all = query.credentials.map((credential) => credential.id);
  if (!query.credential_sets) return new Set(all);
  const answered = new Set(all.filter((id) => isAnswered(vpToken[id])));
  const used = new Set<string>();
  for (const [index, set] of query.credential_sets.entries()) {
    const complete = set.options.filter((option) => option.every((id) => answered.has(id)));
    if (complete.length === 0 && set.required !== false) {
      const choices = set.options.map((option) => option.join(" + ")).join(" | ");
      throw new PresentationRejected(`credential set ${index} is not satisfied: none of ${choices} was presented`);
    }
    for (const option of complete) for (const id of option) used.add(id);
  }
  for (const id of answered) {
    if (!used.has(id)) {
      throw new PresentationRejected(`credential query ${id} was presented outside any complete credential set option`);
    }
  }
  return answered;
}
