import type { CertificateRole, CertificateState } from "../../domain/enums.js";
import type { Certificate } from "../../domain/identifier.js";
import type { Key } from "../../domain/key.js";
import { parsePemChain, type X509Attributes, x509Attributes } from "../../providers/x509/index.js";
import { type KeyListItemDto, toKeyListItem } from "./key-dto.js";

/**
 * GET /api/certificate/v1/{id}, and the items of an identifier detail's `certificates` / `certificateAuthorities`
 * (reference §3.3; One Core `CertificateResponseRestDTO`). `key` has the key list-item shape, as in One Core.
 */
export interface CertificateDto {
  id: string;
  identifierId: string;
  createdDate: Date;
  lastModified: Date;
  name: string;
  /** PEM, leaf first */
  chain: string;
  state: CertificateState;
  key?: KeyListItemDto;
  /** of the leaf certificate */
  x509Attributes: X509Attributes;
  organisationId?: string;
  roles: CertificateRole[];
}

export function toCertificateDto(certificate: Certificate, key?: Key): CertificateDto {
  return {
    id: certificate.id,
    identifierId: certificate.identifierId,
    createdDate: certificate.createdDate,
    lastModified: certificate.lastModified,
    name: certificate.name,
    chain: certificate.chain,
    state: certificate.state,
    ...(key && { key: toKeyListItem(key) }),
    x509Attributes: x509Attributes(parsePemChain(certificate.chain)[0]!),
    ...(certificate.organisationId !== undefined && { organisationId: certificate.organisationId }),
    roles: certificate.roles,
  };
}
