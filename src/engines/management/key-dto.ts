import type { Key } from "../../domain/key.js";
import { encodeBase64url } from "../../encoding/base64url.js";

/** GET /api/key/v1 list item (reference §3.2). */
export interface KeyListItemDto {
  id: string;
  createdDate: Date;
  lastModified: Date;
  name: string;
  /** base64url (no padding) of the canonical public key bytes */
  publicKey: string;
  keyType: string;
  storageType: string;
  isRemote: boolean;
}

/** GET /api/key/v1/{id} */
export interface KeyDetailDto extends KeyListItemDto {
  organisationId: string;
}

export function toKeyListItem(key: Key): KeyListItemDto {
  return {
    id: key.id,
    createdDate: key.createdDate,
    lastModified: key.lastModified,
    name: key.name,
    publicKey: encodeBase64url(key.publicKey),
    keyType: key.keyType,
    storageType: key.storageType,
    isRemote: key.isRemote,
  };
}

export function toKeyDetail(key: Key): KeyDetailDto {
  return { ...toKeyListItem(key), organisationId: key.organisationId };
}
