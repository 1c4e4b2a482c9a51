import type { CertificateRole, CertificateState, IdentifierState, IdentifierType } from "./enums.js";

export interface Identifier {
  id: string;
  organisationId?: string;
  name: string;
  type: IdentifierType;
  state: IdentifierState;
  isRemote: boolean;
  /** set for type DID */
  didId?: string;
  /** set for type KEY */
  keyId?: string;
  trustInformation?: unknown;
  createdDate: Date;
  lastModified: Date;
  deletedAt?: Date;
}

export interface Certificate {
  id: string;
  identifierId: string;
  organisationId?: string;
  name: string;
  /** PEM chain, leaf first */
  chain: string;
  fingerprint: string;
  state: CertificateState;
  roles: CertificateRole[];
  keyId?: string;
  expiryDate: Date;
  createdDate: Date;
  lastModified: Date;
}
