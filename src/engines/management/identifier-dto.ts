import type { Did } from "../../domain/did.js";
import type { Identifier } from "../../domain/identifier.js";
import type { Key } from "../../domain/key.js";
import { type DidDetailDto, toDidDetail } from "./did-dto.js";
import { type KeyDetailDto, toKeyDetail } from "./key-dto.js";

export interface IdentifierListItemDto {
  id: string;
  name: string;
  createdDate: Date;
  lastModified: Date;
  state: "ACTIVE" | "DEACTIVATED";
  type: "DID" | "KEY" | "CERTIFICATE" | "CA";
  isRemote: boolean;
  organisationId?: string;
}

export interface IdentifierDetailDto extends IdentifierListItemDto {
  did?: DidDetailDto;
  key?: KeyDetailDto;
}

export function toIdentifierListItem(identifier: Identifier): IdentifierListItemDto {
  return {
    id: identifier.id,
    name: identifier.name,
    createdDate: identifier.createdDate,
    lastModified: identifier.lastModified,
    state: identifier.state,
    type: identifier.type,
    isRemote: identifier.isRemote,
    ...(identifier.organisationId !== undefined && { organisationId: identifier.organisationId }),
  };
}

export function toIdentifierDetail(
  identifier: Identifier,
  related: { did?: Did; key?: Key; keys: ReadonlyMap<string, Key> },
): IdentifierDetailDto {
  return {
    ...toIdentifierListItem(identifier),
    ...(related.did && { did: toDidDetail(related.did, related.keys) }),
    ...(related.key && { key: toKeyDetail(related.key) }),
  };
}
