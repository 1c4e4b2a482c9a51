import type { KeyAlgorithmType } from "./enums.js";

export interface Key {
  id: string;
  organisationId: string;
  name: string;
  /** keyAlgorithm config key, e.g. EDDSA */
  keyType: KeyAlgorithmType | string;
  /** keyStorage instance name, e.g. INTERNAL */
  storageType: string;
  /** canonical public key bytes of the algorithm (Ed25519 raw, P-256 compressed SEC1, ML-DSA-65 raw) */
  publicKey: Uint8Array;
  /** opaque reference produced by the key storage (INTERNAL: AES-256-GCM sealed private key); never leaves storage */
  keyReference: Uint8Array;
  isRemote: boolean;
  createdDate: Date;
  lastModified: Date;
}
