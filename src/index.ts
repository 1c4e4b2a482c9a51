// credkit public API

export * from "./config/index.js";
export { type Credkit, type CredkitOptions, createCredkit } from "./credkit.js";
export * from "./domain/index.js";
export type { Notification } from "./domain/notification.js";
export type { CallContext } from "./engines/common/call-context.js";
export type { HistoryDetailDto, HistoryListItemDto } from "./engines/history/history-dto.js";
export type { CreateHistoryInput, HistoryService, ListHistoryInput } from "./engines/history/history-service.js";
export type { HolderService } from "./engines/holder/holder-service.js";
export type { CredentialDetailDto, CredentialListItemDto } from "./engines/issuer/credential-dto.js";
export type {
  CreateCredentialSchemaInput,
  CredentialSchemaService,
  ListCredentialSchemasInput,
} from "./engines/issuer/credential-schema-service.js";
export type {
  CreateCredentialInput,
  CredentialService,
  ListCredentialsInput,
  ShareCredentialResult,
} from "./engines/issuer/credential-service.js";
export type { CertificateDto } from "./engines/management/certificate-dto.js";
export type { CertificateCheckResult, CertificateService } from "./engines/management/certificate-service.js";
export type { DidDetailDto, DidListItemDto } from "./engines/management/did-dto.js";
export type { CreateDidInput, DidService, ListDidsInput, UpdateDidInput } from "./engines/management/did-service.js";
export type { IdentifierDetailDto, IdentifierListItemDto } from "./engines/management/identifier-dto.js";
export type {
  CreateIdentifierInput,
  IdentifierService,
  ListIdentifiersInput,
} from "./engines/management/identifier-service.js";
export type { GenerateCsrInput } from "./engines/management/key-csr.js";
export type { KeyDetailDto, KeyListItemDto } from "./engines/management/key-dto.js";
export type { CreateKeyInput, KeyService, ListKeysInput } from "./engines/management/key-service.js";
export type { OrganisationDto } from "./engines/management/organisation-dto.js";
export type {
  CreateOrganisationInput,
  ListOrganisationsInput,
  OrganisationService,
  UpdateOrganisationInput,
} from "./engines/management/organisation-service.js";
export type { NotificationService } from "./engines/notification/notification-service.js";
export type { TaskService } from "./engines/tasks/task-service.js";
export type { ProofRequestService } from "./engines/verifier/proof-request-service.js";
export type { ProofSchemaService } from "./engines/verifier/proof-schema-service.js";
export * from "./errors/index.js";
export { type CredkitHttp, createHttpApp, type HttpAppOptions } from "./http/app.js";
export { credkitExpress, credkitKoa, credkitNode } from "./http/mount.js";
export type { Clock } from "./ports/clock.js";
export type { CredentialFormatter, ParsedCredential, ParsedPresentation } from "./ports/credential-formatter.js";
export type { DidMethod, DidMethodCapabilities } from "./ports/did-method.js";
export type { HttpClient } from "./ports/http-client.js";
export type { CoseKey, KeyAlgorithm, PrivateJwk, PublicJwk } from "./ports/key-algorithm.js";
export type { KeyStorage, KeyStorageCapabilities } from "./ports/key-storage.js";
export type { NotificationTransport } from "./ports/notification-transport.js";
export type { Signer } from "./ports/signer.js";
export type {
  Condition,
  ListQuery,
  OrderBy,
  Page,
  Repository,
  Scalar,
  Storage,
  StorageRepositories,
} from "./ports/storage.js";
export { computeJwkThumbprint } from "./providers/key-algorithm/jwk-thumbprint.js";
export { createStorage } from "./storage/create-storage.js";
export { memoryStorage } from "./storage/memory/index.js";
export { openStorage } from "./storage/open-storage.js";
export type { Row, SelectOptions, TableDriver } from "./storage/table-driver.js";
