import type { Did } from "../../domain/did.js";
import type { DidKeyRole } from "../../domain/enums.js";
import type { Key } from "../../domain/key.js";
import { type KeyListItemDto, toKeyListItem } from "./key-dto.js";

/** REST names of the DID key roles (reference §3.3) */
export const DID_KEY_FIELDS = {
  authentication: "AUTHENTICATION",
  assertionMethod: "ASSERTION_METHOD",
  keyAgreement: "KEY_AGREEMENT",
  capabilityInvocation: "CAPABILITY_INVOCATION",
  capabilityDelegation: "CAPABILITY_DELEGATION",
} as const satisfies Record<string, DidKeyRole>;
export type DidKeyField = keyof typeof DID_KEY_FIELDS;

export interface DidListItemDto {
  id: string;
  createdDate: Date;
  lastModified: Date;
  name: string;
  did: string;
  type: "LOCAL" | "REMOTE";
  method: string;
  deactivated: boolean;
}

export interface DidDetailDto extends DidListItemDto {
  organisationId?: string;
  keys: Record<DidKeyField, KeyListItemDto[]>;
}

export function toDidListItem(did: Did): DidListItemDto {
  return {
    id: did.id,
    createdDate: did.createdDate,
    lastModified: did.lastModified,
    name: did.name,
    did: did.did,
    type: did.type,
    method: did.method,
    deactivated: did.deactivated,
  };
}

export function toDidDetail(did: Did, keys: ReadonlyMap<string, Key>): DidDetailDto {
  const grouped = Object.fromEntries(
    Object.keys(DID_KEY_FIELDS).map((field) => [field, [] as KeyListItemDto[]]),
  ) as Record<DidKeyField, KeyListItemDto[]>;
  for (const [field, role] of Object.entries(DID_KEY_FIELDS) as [DidKeyField, DidKeyRole][]) {
    for (const entry of did.keys) {
      const key = keys.get(entry.keyId);
      if (entry.role === role && key) grouped[field].push(toKeyListItem(key));
    }
  }
  return {
    ...toDidListItem(did),
    ...(did.organisationId !== undefined && { organisationId: did.organisationId }),
    keys: grouped,
  };
}
