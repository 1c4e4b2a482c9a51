import type {
  ClaimSchema,
  CredentialSchema,
  LayoutProperties,
  TransactionCodeSettings,
} from "../../domain/credential-schema.js";

export interface ClaimSchemaDto {
  id: string;
  createdDate: Date;
  lastModified: Date;
  key: string;
  datatype: string;
  required: boolean;
  array: boolean;
  claims: ClaimSchemaDto[];
}

/** GET /api/credential-schema/v1 list item (reference §3.4) */
export interface CredentialSchemaListItemDto {
  id: string;
  createdDate: Date;
  lastModified: Date;
  deletedAt?: Date;
  name: string;
  format: string;
  revocationMethod?: string;
  schemaId: string;
  importedSourceUrl: string;
  keyStorageSecurity?: string;
  layoutType?: string;
  layoutProperties?: LayoutProperties;
  allowSuspension: boolean;
  requiresWalletInstanceAttestation: boolean;
}

/** GET /api/credential-schema/v1/{id} */
export interface CredentialSchemaDetailDto extends Omit<CredentialSchemaListItemDto, "deletedAt"> {
  organisationId: string;
  claims: ClaimSchemaDto[];
  transactionCode?: TransactionCodeSettings;
}

export function toClaimSchemaDto(claim: ClaimSchema): ClaimSchemaDto {
  return {
    id: claim.id,
    createdDate: new Date(claim.createdDate),
    lastModified: new Date(claim.lastModified),
    key: claim.key,
    datatype: claim.datatype,
    required: claim.required,
    array: claim.array,
    claims: claim.claims.map(toClaimSchemaDto),
  };
}

export function toCredentialSchemaListItem(
  schema: CredentialSchema,
  includeLayout = true,
): CredentialSchemaListItemDto {
  return {
    id: schema.id,
    createdDate: schema.createdDate,
    lastModified: schema.lastModified,
    ...(schema.deletedAt !== undefined && { deletedAt: schema.deletedAt }),
    name: schema.name,
    format: schema.format,
    ...(schema.revocationMethod !== undefined && { revocationMethod: schema.revocationMethod }),
    schemaId: schema.schemaId,
    importedSourceUrl: schema.importedSourceUrl,
    ...(schema.keyStorageSecurity !== undefined && { keyStorageSecurity: schema.keyStorageSecurity }),
    ...(schema.layoutType !== undefined && { layoutType: schema.layoutType }),
    ...(includeLayout && schema.layoutProperties !== undefined && { layoutProperties: schema.layoutProperties }),
    allowSuspension: schema.allowSuspension,
    requiresWalletInstanceAttestation: schema.requiresWalletInstanceAttestation,
  };
}

export function toCredentialSchemaDetail(schema: CredentialSchema): CredentialSchemaDetailDto {
  const { deletedAt: _deleted, ...item } = toCredentialSchemaListItem(schema);
  return {
    ...item,
    organisationId: schema.organisationId,
    claims: schema.claims.map(toClaimSchemaDto),
    ...(schema.transactionCode !== undefined && { transactionCode: schema.transactionCode }),
  };
}

/** Every claim schema of a tree with its slash-separated path (`address/street`). */
export function flattenClaimSchemas(
  claims: readonly ClaimSchema[],
  prefix = "",
): { path: string; claim: ClaimSchema }[] {
  return claims.flatMap((claim) => {
    const path = prefix ? `${prefix}/${claim.key}` : claim.key;
    return [{ path, claim }, ...flattenClaimSchemas(claim.claims, path)];
  });
}
