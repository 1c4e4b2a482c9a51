import type { Credential } from "../../domain/credential.js";
import type { CredentialSchema } from "../../domain/credential-schema.js";
import type { Identifier } from "../../domain/identifier.js";
import { type IdentifierListItemDto, toIdentifierListItem } from "../management/identifier-dto.js";
import type { ClaimDto } from "./credential-claims.js";
import { type CredentialSchemaListItemDto, toCredentialSchemaListItem } from "./credential-schema-dto.js";

/** GET /api/credential/v1 list item (reference §3.6) */
export interface CredentialListItemDto {
  id: string;
  createdDate: Date;
  issuanceDate?: Date;
  revocationDate?: Date;
  state: string;
  lastModified: Date;
  schema: CredentialSchemaListItemDto;
  issuer?: IdentifierListItemDto;
  role: string;
  suspendEndDate?: Date;
  protocol: string;
  profile?: string;
  webhookDestinationUrl?: string;
}

/** GET /api/credential/v1/{id} */
export interface CredentialDetailDto extends Omit<CredentialListItemDto, "schema"> {
  schema: CredentialSchemaListItemDto & { organisationId: string };
  claims: ClaimDto[];
  redirectUri?: string;
  holder?: IdentifierListItemDto;
}

export interface CredentialRelations {
  schema: CredentialSchema;
  issuer?: Identifier;
  holder?: Identifier;
}

export function toCredentialListItem(
  credential: Credential,
  related: CredentialRelations,
  includeLayout = true,
): CredentialListItemDto {
  return {
    id: credential.id,
    createdDate: credential.createdDate,
    ...(credential.issuanceDate !== undefined && { issuanceDate: credential.issuanceDate }),
    ...(credential.revocationDate !== undefined && { revocationDate: credential.revocationDate }),
    state: credential.state,
    lastModified: credential.lastModified,
    schema: toCredentialSchemaListItem(related.schema, includeLayout),
    ...(related.issuer && { issuer: toIdentifierListItem(related.issuer) }),
    role: credential.role,
    ...(credential.suspendEndDate !== undefined && { suspendEndDate: credential.suspendEndDate }),
    protocol: credential.protocol,
    ...(credential.profile !== undefined && { profile: credential.profile }),
    ...(credential.webhookDestinationUrl !== undefined && { webhookDestinationUrl: credential.webhookDestinationUrl }),
  };
}

export function toCredentialDetail(
  credential: Credential,
  related: CredentialRelations,
  claims: ClaimDto[],
): CredentialDetailDto {
  const item = toCredentialListItem(credential, related);
  return {
    ...item,
    schema: { ...item.schema, organisationId: related.schema.organisationId },
    claims,
    ...(credential.redirectUri !== undefined && { redirectUri: credential.redirectUri }),
    ...(related.holder && { holder: toIdentifierListItem(related.holder) }),
  };
}
