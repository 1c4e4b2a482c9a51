import type { CredentialRole, CredentialState } from "./enums.js";

export interface Claim {
  id: string;
  claimSchemaId: string;
  /** slash-separated path, array items by index: address/street, names/0 */
  path: string;
  /** string form of a leaf value (numbers and booleans as JSON text) */
  value: string;
}

export interface Credential {
  id: string;
  organisationId: string;
  credentialSchemaId: string;
  role: CredentialRole;
  state: CredentialState;
  /** issuanceProtocol config instance name */
  protocol: string;
  issuerIdentifierId?: string;
  issuerKeyId?: string;
  issuerCertificateId?: string;
  holderIdentifierId?: string;
  holderKeyId?: string;
  interactionId?: string;
  claims: Claim[];
  /** the issued credential as exchanged (compact SD-JWT, base64url mdoc ...) */
  credentialBlob?: string;
  issuanceDate?: Date;
  revocationDate?: Date;
  suspendEndDate?: Date;
  redirectUri?: string;
  profile?: string;
  webhookDestinationUrl?: string;
  /** token status list entry (TOKENSTATUSLIST) */
  statusListId?: string;
  statusListIndex?: number;
  createdDate: Date;
  lastModified: Date;
  deletedAt?: Date;
}
