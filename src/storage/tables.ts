import type { TableSpec } from "./table-spec.js";

// One spec per aggregate. Column names are the entity's field names; migrations (sql/migrations) create the same.

export const organisationTable: TableSpec = {
  table: "organisation",
  columns: {
    id: "text",
    name: "text",
    slug: "text",
    createdDate: "date",
    lastModified: "date",
    deactivatedAt: "date",
    walletProvider: "text",
    walletProviderIssuer: "text",
  },
  unique: [
    { name: "organisation_pkey", columns: ["id"], code: "BR_0023" },
    { name: "organisation_name_uq", columns: ["name"], code: "BR_0023" },
    { name: "organisation_slug_uq", columns: ["slug"], code: "BR_0023" },
  ],
};

export const keyTable: TableSpec = {
  table: "key",
  columns: {
    id: "text",
    organisationId: "text",
    name: "text",
    keyType: "text",
    storageType: "text",
    publicKey: "blob",
    keyReference: "blob",
    isRemote: "boolean",
    createdDate: "date",
    lastModified: "date",
  },
  unique: [
    { name: "key_pkey", columns: ["id"], code: "BR_0066" },
    { name: "key_organisation_name_uq", columns: ["organisationId", "name"], code: "BR_0066" },
  ],
};

export const didTable: TableSpec = {
  table: "did",
  columns: {
    id: "text",
    organisationId: "text",
    name: "text",
    did: "text",
    type: "text",
    method: "text",
    deactivated: "boolean",
    createdDate: "date",
    lastModified: "date",
  },
  children: {
    keys: { table: "did_key", parentColumn: "didId", columns: { role: "text", keyId: "text", reference: "text" } },
  },
  unique: [
    { name: "did_pkey", columns: ["id"], code: "BR_0028" },
    { name: "did_organisation_did_uq", columns: ["organisationId", "did"], code: "BR_0028" },
  ],
};

export const identifierTable: TableSpec = {
  table: "identifier",
  columns: {
    id: "text",
    organisationId: "text",
    name: "text",
    type: "text",
    state: "text",
    isRemote: "boolean",
    didId: "text",
    keyId: "text",
    trustInformation: "json",
    createdDate: "date",
    lastModified: "date",
    deletedAt: "date",
  },
  unique: [
    { name: "identifier_pkey", columns: ["id"], code: "BR_0240" },
    {
      name: "identifier_organisation_name_uq",
      columns: ["organisationId", "name"],
      whereNull: ["deletedAt"],
      code: "BR_0240",
    },
  ],
};

export const certificateTable: TableSpec = {
  table: "certificate",
  columns: {
    id: "text",
    identifierId: "text",
    organisationId: "text",
    name: "text",
    chain: "text",
    fingerprint: "text",
    state: "text",
    roles: "json",
    keyId: "text",
    expiryDate: "date",
    createdDate: "date",
    lastModified: "date",
  },
  unique: [{ name: "certificate_pkey", columns: ["id"], code: "BR_0357" }],
};

export const historyTable: TableSpec = {
  table: "history",
  columns: {
    id: "text",
    createdDate: "date",
    action: "text",
    name: "text",
    entityId: "text",
    entityType: "text",
    organisationId: "text",
    source: "text",
    target: "text",
    user: "text",
    actor: "text",
    metadata: "json",
  },
  unique: [{ name: "history_pkey", columns: ["id"], code: "BR_0357" }],
};

export const credentialSchemaTable: TableSpec = {
  table: "credential_schema",
  columns: {
    id: "text",
    organisationId: "text",
    name: "text",
    format: "text",
    revocationMethod: "text",
    schemaId: "text",
    importedSourceUrl: "text",
    claims: "json",
    keyStorageSecurity: "text",
    layoutType: "text",
    layoutProperties: "json",
    allowSuspension: "boolean",
    requiresWalletInstanceAttestation: "boolean",
    transactionCode: "json",
    createdDate: "date",
    lastModified: "date",
    deletedAt: "date",
  },
  unique: [
    { name: "credential_schema_pkey", columns: ["id"], code: "BR_0007" },
    {
      name: "credential_schema_organisation_name_uq",
      columns: ["organisationId", "name"],
      whereNull: ["deletedAt"],
      code: "BR_0007",
    },
    {
      name: "credential_schema_organisation_schema_id_uq",
      columns: ["organisationId", "schemaId"],
      whereNull: ["deletedAt"],
      code: "BR_0007",
    },
  ],
};

export const credentialTable: TableSpec = {
  table: "credential",
  columns: {
    id: "text",
    organisationId: "text",
    credentialSchemaId: "text",
    role: "text",
    state: "text",
    protocol: "text",
    issuerIdentifierId: "text",
    issuerKeyId: "text",
    issuerCertificateId: "text",
    holderIdentifierId: "text",
    holderKeyId: "text",
    interactionId: "text",
    credentialBlob: "text",
    issuanceDate: "date",
    revocationDate: "date",
    suspendEndDate: "date",
    redirectUri: "text",
    profile: "text",
    webhookDestinationUrl: "text",
    statusListId: "text",
    statusListIndex: "integer",
    createdDate: "date",
    lastModified: "date",
    deletedAt: "date",
  },
  children: {
    claims: {
      table: "claim",
      parentColumn: "credentialId",
      columns: { id: "text", claimSchemaId: "text", path: "text", value: "text" },
    },
  },
  unique: [{ name: "credential_pkey", columns: ["id"], code: "BR_0357" }],
};

export const interactionTable: TableSpec = {
  table: "interaction",
  columns: {
    id: "text",
    organisationId: "text",
    interactionType: "text",
    protocol: "text",
    data: "json",
    accessTokenHash: "text",
    accessTokenExpiresAt: "date",
    txCodeAttempts: "integer",
    expiresAt: "date",
    createdDate: "date",
    lastModified: "date",
  },
  unique: [
    { name: "interaction_pkey", columns: ["id"], code: "BR_0357" },
    { name: "interaction_access_token_uq", columns: ["accessTokenHash"], code: "BR_0357" },
  ],
};

export const revocationListTable: TableSpec = {
  table: "revocation_list",
  columns: {
    id: "text",
    organisationId: "text",
    issuerIdentifierId: "text",
    revocationMethod: "text",
    bits: "integer",
    size: "integer",
    allocated: "integer",
    createdDate: "date",
    lastModified: "date",
  },
  unique: [{ name: "revocation_list_pkey", columns: ["id"], code: "BR_0357" }],
};

export const revocationEntryTable: TableSpec = {
  table: "revocation_entry",
  columns: {
    id: "text",
    listId: "text",
    index: "integer",
    credentialId: "text",
    status: "integer",
    createdDate: "date",
    lastModified: "date",
  },
  unique: [{ name: "revocation_entry_pkey", columns: ["id"], code: "BR_0357" }],
};

export const nonceTable: TableSpec = {
  table: "nonce",
  columns: {
    id: "text",
    protocol: "text",
    expiresAt: "date",
    usedAt: "date",
    createdDate: "date",
    lastModified: "date",
  },
  unique: [{ name: "nonce_pkey", columns: ["id"], code: "BR_0357" }],
};

/** Tables of the issuance capability (migration 0002). */
export const ISSUANCE_TABLES: readonly TableSpec[] = [
  credentialSchemaTable,
  credentialTable,
  interactionTable,
  revocationListTable,
  revocationEntryTable,
  nonceTable,
];

/** Columns of `proof_schema` added by migration 0006 (alternatives between proof inputs: DCQL credential_sets). */
export const PROOF_SCHEMA_SET_COLUMNS = { credentialSets: "json" } as const satisfies TableSpec["columns"];

export const proofSchemaTable: TableSpec = {
  table: "proof_schema",
  columns: {
    id: "text",
    organisationId: "text",
    name: "text",
    expireDuration: "integer",
    importedSourceUrl: "text",
    proofInputSchemas: "json",
    ...PROOF_SCHEMA_SET_COLUMNS,
    createdDate: "date",
    lastModified: "date",
    deletedAt: "date",
  },
  unique: [
    { name: "proof_schema_pkey", columns: ["id"], code: "BR_0015" },
    {
      name: "proof_schema_organisation_name_uq",
      columns: ["organisationId", "name"],
      whereNull: ["deletedAt"],
      code: "BR_0015",
    },
  ],
};

/** Columns of `proof` added by migration 0005 (wallet trust evaluation of verifier_info). */
export const PROOF_TRUST_COLUMNS = { trustInformation: "json" } as const satisfies TableSpec["columns"];

export const proofTable: TableSpec = {
  table: "proof",
  columns: {
    id: "text",
    organisationId: "text",
    role: "text",
    state: "text",
    protocol: "text",
    proofSchemaId: "text",
    verifierIdentifierId: "text",
    verifierKeyId: "text",
    verifierCertificateId: "text",
    interactionId: "text",
    transport: "text",
    redirectUri: "text",
    profile: "text",
    webhookDestinationUrl: "text",
    errorReason: "text",
    presentedCredentialIds: "json",
    ...PROOF_TRUST_COLUMNS,
    requestedDate: "date",
    completedDate: "date",
    retainUntilDate: "date",
    claimsRemovedAt: "date",
    createdDate: "date",
    lastModified: "date",
  },
  unique: [{ name: "proof_pkey", columns: ["id"], code: "BR_0357" }],
};

/** Tables of the verification capability (migration 0003). */
export const VERIFICATION_TABLES: readonly TableSpec[] = [proofSchemaTable, proofTable];

/** Webhook notification outbox (migration 0004): rows written with the state change, delivered by WEBHOOK_NOTIFY. */
export const notificationTable: TableSpec = {
  table: "notification",
  columns: {
    id: "text",
    organisationId: "text",
    entityType: "text",
    entityId: "text",
    status: "text",
    destination: "text",
    taskName: "text",
    body: "json",
    attempts: "integer",
    nextAttemptAt: "date",
    state: "text",
    lastError: "text",
    claimedBy: "text",
    claimedUntil: "date",
    createdDate: "date",
    lastModified: "date",
  },
  unique: [{ name: "notification_pkey", columns: ["id"], code: "BR_0357" }],
};

/** Tables of the notification capability (migration 0004). */
export const NOTIFICATION_TABLES: readonly TableSpec[] = [notificationTable];

export const ALL_TABLES: readonly TableSpec[] = [
  organisationTable,
  keyTable,
  didTable,
  identifierTable,
  certificateTable,
  historyTable,
  ...ISSUANCE_TABLES,
  ...VERIFICATION_TABLES,
  ...NOTIFICATION_TABLES,
];
