import type { KeyAlgorithmType } from "../domain/enums.js";

/** A public JWK as published in DID documents, JWKS and `cnf.jwk`. */
export interface PublicJwk {
  kty: string;
  crv?: string;
  x?: string;
  y?: string;
  /** ML-DSA (AKP) public key */
  pub?: string;
  alg?: string;
  kid?: string;
  use?: string;
  [extra: string]: unknown;
}

/** A private JWK accepted by key import (the private member is `d`, or `priv`/`seed` for ML-DSA). */
export interface PrivateJwk extends PublicJwk {
  d?: string;
  priv?: string;
}

/** COSE_Key (RFC 9052 §7) as a label -> value map, ready for CBOR encoding. */
export type CoseKey = Map<number, number | Uint8Array>;

export interface GeneratedKeyPair {
  /** canonical public key bytes (see Key.publicKey) */
  publicKey: Uint8Array;
  /** algorithm-defined private key bytes (Ed25519 / P-256: 32-byte scalar or seed, ML-DSA-65: 32-byte seed) */
  privateKey: Uint8Array;
}

/** A private key prepared for repeated signing (e.g. a node:crypto KeyObject); opaque to callers. */
export type PreparedPrivateKey = unknown;
/** A public key prepared for repeated verification; opaque to callers. */
export type PreparedPublicKey = unknown;

export interface KeyAlgorithmCapabilities {
  /** GENERATE_CSR, IMPORT ... */
  features: string[];
}

/**
 * A signature algorithm (config block `keyAlgorithm`). Signatures are in the JOSE/COSE form: Ed25519 64 bytes,
 * ECDSA IEEE P1363 r||s (64 bytes), ML-DSA-65 raw.
 */
export interface KeyAlgorithm {
  readonly type: KeyAlgorithmType;
  /** JOSE `alg` (RFC 7518 / RFC 8037 / draft-ietf-cose-dilithium) */
  readonly jwsAlgorithm: string;
  /** COSE algorithm identifier */
  readonly coseAlgorithm: number;
  readonly capabilities: KeyAlgorithmCapabilities;

  generateKeyPair(): GeneratedKeyPair;
  /** derive the public key of private key bytes produced by generateKeyPair/importPrivateJwk */
  derivePublicKey(privateKey: Uint8Array): Uint8Array;
  preparePrivateKey(privateKey: Uint8Array): PreparedPrivateKey;
  preparePublicKey(publicKey: Uint8Array): PreparedPublicKey;
  sign(key: PreparedPrivateKey, message: Uint8Array): Uint8Array;
  verify(key: PreparedPublicKey, message: Uint8Array, signature: Uint8Array): boolean;

  publicKeyToJwk(publicKey: Uint8Array): PublicJwk;
  /** throws CredkitError BR_0096 when the JWK is not a valid public key of this algorithm */
  publicKeyFromJwk(jwk: PublicJwk): Uint8Array;
  /** throws CredkitError BR_0096 when the JWK is not a valid private key of this algorithm */
  privateKeyFromJwk(jwk: PrivateJwk): GeneratedKeyPair;
  publicKeyToCose(publicKey: Uint8Array): CoseKey;
  publicKeyFromCose(coseKey: CoseKey): Uint8Array;
  /** multicodec-prefixed multibase (base58btc `z…`) used by did:key */
  publicKeyToMultibase(publicKey: Uint8Array): string;
}
