export {
  type ClaimsPathOptions,
  type ClaimsPathResult,
  formatClaimsPath,
  processClaimsPath,
  processMdocClaimsPath,
  selectByClaimsPath,
} from "./claims-path.js";
export {
  type ClaimsPathComponent,
  type ClaimsPathPointer,
  type ClaimsQuery,
  type CredentialQuery,
  type CredentialQueryMeta,
  type CredentialSetQuery,
  type DcqlClaimValue,
  type DcqlQuery,
  dcqlQuerySchema,
  parseDcqlQuery,
  type TrustedAuthoritiesQuery,
} from "./dcql-query-schema.js";
export {
  type CredentialQueryEvaluation,
  type CredentialSetEvaluation,
  type DcqlEvaluation,
  evaluateDcqlQuery,
} from "./evaluate-dcql-query.js";
export {
  type CredentialQueryMatch,
  type DcqlCandidate,
  type DcqlMismatchReason,
  type MatchCredentialQueryOptions,
  matchCredentialQuery,
} from "./match-credential-query.js";
export {
  checkPresentedQueries,
  type PresentationCoverage,
  type PresentationCoverageOptions,
} from "./validate-presentation-coverage.js";
