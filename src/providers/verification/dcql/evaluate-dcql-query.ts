import type { ClaimsPathPointer, DcqlQuery } from "./dcql-query-schema.js";
import { type DcqlCandidate, type DcqlMismatchReason, matchCredentialQuery } from "./match-credential-query.js";

/** The candidates one Credential Query matches, and why the others do not. */
export interface CredentialQueryEvaluation {
  matches: { candidateId: string; claimSetIndex?: number; selectedPaths: ClaimsPathPointer[] }[];
  failures: { candidateId: string; reason: DcqlMismatchReason; detail: string }[];
}

/** One Credential Set Query: satisfiable when every Credential Query of one of its options has a match. */
export interface CredentialSetEvaluation {
  required: boolean;
  options: string[][];
  satisfiable: boolean;
}

export interface DcqlEvaluation {
  /** Keyed by Credential Query id. */
  credentialQueries: Record<string, CredentialQueryEvaluation>;
  /** One entry per `credential_sets` entry, in order; `[]` when the query has no `credential_sets`. */
  credentialSets: CredentialSetEvaluation[];
  /**
   * Without `credential_sets`, every Credential Query has a match; with them, every required set is satisfiable
   * (OpenID4VP 1.0 §6.4.2).
   */
  satisfiable: boolean;
}

/**
 * Wallet side: evaluates a parsed DCQL query against the credentials held. Each candidate is matched against each
 * Credential Query ({@link matchCredentialQuery}); the same candidate may match several queries.
 */
export function evaluateDcqlQuery(query: DcqlQuery, candidates: DcqlCandidate[]): DcqlEvaluation {
  const credentialQueries: Record<string, CredentialQueryEvaluation> = Object.create(null);
  for (const credentialQuery of query.credentials) {
    const evaluation: CredentialQueryEvaluation = { matches: [], failures: [] };
    for (const candidate of candidates) {
      const result = matchCredentialQuery(credentialQuery, candidate);
      if (result.matches) {
        evaluation.matches.push({
          candidateId: candidate.id,
          ...(result.claimSetIndex === undefined ? {} : { claimSetIndex: result.claimSetIndex }),
          selectedPaths: result.selectedPaths,
        });
      } else {
        evaluation.failures.push({ candidateId: candidate.id, reason: result.reason, detail: result.detail });
      }
    }
    credentialQueries[credentialQuery.id] = evaluation;
  }

  const hasMatch = (id: string) => (credentialQueries[id]?.matches.length ?? 0) > 0;
  const credentialSets: CredentialSetEvaluation[] = (query.credential_sets ?? []).map((set) => ({
    required: set.required !== false,
    options: set.options.map((option) => [...option]),
    satisfiable: set.options.some((option) => option.every(hasMatch)),
  }));
  const satisfiable =
    query.credential_sets === undefined
      ? query.credentials.every((credentialQuery) => hasMatch(credentialQuery.id))
      : credentialSets.every((set) => !set.required || set.satisfiable);
  return { credentialQueries, credentialSets, satisfiable };
}
