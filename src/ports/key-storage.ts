import type { KeyAlgorithmType } from "../domain/enums.js";
import type { PrivateJwk } from "./key-algorithm.js";

export interface StoredKeyMaterial {
  publicKey: Uint8Array;
  /** opaque to everything but the key storage; persisted in Key.keyReference */
  keyReference: Uint8Array;
}

export interface KeyStorageCapabilities {
  /** IMPORT, EXPORTABLE ... */
  features: string[];
  algorithms: KeyAlgorithmType[];
  securityLevel: string[];
}

/** The key the storage signs with: what it produced at generate/import time. */
export interface KeyHandleRef {
  id: string;
  keyType: KeyAlgorithmType;
  publicKey: Uint8Array;
  keyReference: Uint8Array;
}

/** Config block `keyStorage`. Private material never leaves an implementation. */
export interface KeyStorage {
  readonly capabilities: KeyStorageCapabilities;
  generate(keyId: string, keyType: KeyAlgorithmType): Promise<StoredKeyMaterial>;
  importPrivateJwk(keyId: string, keyType: KeyAlgorithmType, jwk: PrivateJwk): Promise<StoredKeyMaterial>;
  sign(key: KeyHandleRef, message: Uint8Array): Promise<Uint8Array>;
}
