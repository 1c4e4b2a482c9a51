import type { Did } from "../../domain/did.js";
import type { Identifier } from "../../domain/identifier.js";
import type { Key } from "../../domain/key.js";
import type { CertificateDto } from "./certificate-dto.js";
import { type DidDetailDto, toDidDetail } from "./did-dto.js";
import {
  type IdentifierTrustInformationDto,
  toIdentifierTrustInformationDtos,
} from "./identifier-trust-information.js";
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
  /** type CERTIFICATE: its certificates */
  certificates?: CertificateDto[];
  /** type CA: its CA certificates */
  certificateAuthorities?: CertificateDto[];
  /** attestations about the relying party (registration certificates …) with their validity */
  trustInformation?: IdentifierTrustInformationDto[];
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
  related: { did?: Did; key?: Key; keys: ReadonlyMap<string, Key>; certificates?: CertificateDto[] },
): IdentifierDetailDto {
  return {
    ...toIdentifierListItem(identifier),
    ...(related.did && { did: toDidDetail(related.did, related.keys) }),
    ...(related.key && { key: toKeyDetail(related.key) }),
    ...(related.certificates &&
      (identifier.type === "CA"
        ? { certificateAuthorities: related.certificates }
        : { certificates: related.certificates })),
    ...trustInformationOf(identifier),
  };
}

function trustInformationOf(identifier: Identifier): { trustInformation?: IdentifierTrustInformationDto[] } {
  const trustInformation = toIdentifierTrustInformationDtos(identifier);
  return trustInformation === undefined ? {} : { trustInformation };
}
