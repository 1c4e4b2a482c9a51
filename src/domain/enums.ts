// Enumerations of the One Core contract (reference §3, §7, §8). Values are the wire strings.

export const KEY_ALGORITHM_TYPES = ["EDDSA", "ECDSA", "ML_DSA"] as const;
export type KeyAlgorithmType = (typeof KEY_ALGORITHM_TYPES)[number];

export const IDENTIFIER_TYPES = ["DID", "KEY", "CERTIFICATE", "CA"] as const;
export type IdentifierType = (typeof IDENTIFIER_TYPES)[number];

export const IDENTIFIER_STATES = ["ACTIVE", "DEACTIVATED"] as const;
export type IdentifierState = (typeof IDENTIFIER_STATES)[number];

export const DID_TYPES = ["LOCAL", "REMOTE"] as const;
export type DidType = (typeof DID_TYPES)[number];

export const DID_KEY_ROLES = [
  "AUTHENTICATION",
  "ASSERTION_METHOD",
  "KEY_AGREEMENT",
  "CAPABILITY_INVOCATION",
  "CAPABILITY_DELEGATION",
] as const;
export type DidKeyRole = (typeof DID_KEY_ROLES)[number];

export const CERTIFICATE_STATES = ["NOT_YET_ACTIVE", "ACTIVE", "REVOKED", "EXPIRED"] as const;
export type CertificateState = (typeof CERTIFICATE_STATES)[number];

export const CERTIFICATE_ROLES = ["ASSERTION_METHOD", "AUTHENTICATION"] as const;
export type CertificateRole = (typeof CERTIFICATE_ROLES)[number];

export const CREDENTIAL_STATES = [
  "CREATED",
  "PENDING",
  "OFFERED",
  "ACCEPTED",
  "REJECTED",
  "REVOKED",
  "SUSPENDED",
  "ERROR",
  "INTERACTION_EXPIRED",
] as const;
export type CredentialState = (typeof CREDENTIAL_STATES)[number];

export const CREDENTIAL_ROLES = ["HOLDER", "ISSUER", "VERIFIER"] as const;
export type CredentialRole = (typeof CREDENTIAL_ROLES)[number];

export const PROOF_STATES = [
  "CREATED",
  "PENDING",
  "REQUESTED",
  "ACCEPTED",
  "REJECTED",
  "RETRACTED",
  "ERROR",
  "INTERACTION_EXPIRED",
] as const;
export type ProofState = (typeof PROOF_STATES)[number];

export const PROOF_ROLES = ["HOLDER", "VERIFIER"] as const;
export type ProofRole = (typeof PROOF_ROLES)[number];

export const INTERACTION_TYPES = ["ISSUANCE", "VERIFICATION"] as const;
export type InteractionType = (typeof INTERACTION_TYPES)[number];

export const LAYOUT_TYPES = ["CARD", "DOCUMENT", "SINGLE_ATTRIBUTE"] as const;
export type LayoutType = (typeof LAYOUT_TYPES)[number];

export const KEY_STORAGE_SECURITY_LEVELS = ["HIGH", "MODERATE", "ENHANCED_BASIC", "BASIC"] as const;
export type KeyStorageSecurityLevel = (typeof KEY_STORAGE_SECURITY_LEVELS)[number];

export const TRANSACTION_CODE_TYPES = ["NUMERIC", "ALPHANUMERIC"] as const;
export type TransactionCodeType = (typeof TRANSACTION_CODE_TYPES)[number];

export const HISTORY_ACTIONS = [
  "ACCEPTED",
  "CREATED",
  "CSR_GENERATED",
  "DEACTIVATED",
  "DELETED",
  "ERRORED",
  "ISSUED",
  "OFFERED",
  "REJECTED",
  "REQUESTED",
  "REVOKED",
  "PENDING",
  "SUSPENDED",
  "RESTORED",
  "SHARED",
  "IMPORTED",
  "CLAIMS_REMOVED",
  "ACTIVATED",
  "WITHDRAWN",
  "REMOVED",
  "RETRACTED",
  "UPDATED",
  "REACTIVATED",
  "EXPIRED",
  "INTERACTION_CREATED",
  "INTERACTION_ERRORED",
  "INTERACTION_EXPIRED",
  "DELIVERED",
] as const;
export type HistoryAction = (typeof HISTORY_ACTIONS)[number];

export const HISTORY_ENTITY_TYPES = [
  "KEY",
  "DID",
  "CERTIFICATE",
  "IDENTIFIER",
  "CREDENTIAL",
  "CREDENTIAL_SCHEMA",
  "PROOF",
  "PROOF_SCHEMA",
  "ORGANISATION",
  "BACKUP",
  "TRUST_ANCHOR",
  "TRUST_ENTITY",
  "WALLET_UNIT",
  "USER",
  "PROVIDER",
  "WALLET_RELYING_PARTY",
  "STS_ROLE",
  "STS_ORGANISATION",
  "STS_IAM_ROLE",
  "STS_SESSION",
  "STS_TOKEN",
  "SIGNATURE",
  "NOTIFICATION",
  "SUPERVISORY_AUTHORITY",
  "TRUST_LIST_PUBLICATION",
  "TRUST_COLLECTION",
  "TRUST_LIST_SUBSCRIPTION",
  "VERIFIER_INSTANCE",
] as const;
export type HistoryEntityType = (typeof HISTORY_ENTITY_TYPES)[number];

export const HISTORY_SOURCES = ["CORE", "BRIDGE", "STS", "WRPR", "BFF"] as const;
export type HistorySource = (typeof HISTORY_SOURCES)[number];

export const SORT_DIRECTIONS = ["ASC", "DESC"] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];
