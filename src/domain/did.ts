import type { DidKeyRole, DidType } from "./enums.js";

export interface DidKey {
  role: DidKeyRole;
  keyId: string;
  /** verification method fragment, e.g. "key-1" or the multibase of did:key */
  reference: string;
}

export interface Did {
  id: string;
  organisationId?: string;
  name: string;
  /** the DID value, e.g. did:key:z6Mk... */
  did: string;
  type: DidType;
  /** did config instance name, e.g. KEY */
  method: string;
  deactivated: boolean;
  keys: DidKey[];
  createdDate: Date;
  lastModified: Date;
}

/** JSON-LD DID document (W3C DID Core) as produced by a DID method's resolve(). */
export interface DidDocument {
  "@context": string | (string | Record<string, unknown>)[];
  id: string;
  controller?: string | string[];
  verificationMethod: DidVerificationMethod[];
  authentication?: string[];
  assertionMethod?: string[];
  keyAgreement?: string[];
  capabilityInvocation?: string[];
  capabilityDelegation?: string[];
  [extra: string]: unknown;
}

export interface DidVerificationMethod {
  id: string;
  type: string;
  controller: string;
  publicKeyJwk?: Record<string, unknown>;
  publicKeyMultibase?: string;
}
