import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import type { KeyAlgorithmType } from "../../domain/enums.js";
import { CredkitError } from "../../errors/index.js";
import type { KeyAlgorithm, PreparedPrivateKey, PrivateJwk } from "../../ports/key-algorithm.js";
import type { KeyHandleRef, KeyStorage, StoredKeyMaterial } from "../../ports/key-storage.js";

const NONCE_LENGTH = 12;
const TAG_LENGTH = 16;
const DEFAULT_CACHE_SIZE = 1024;

export interface InternalKeyStorageOptions {
  /** AES-256 key encrypting private keys at rest: 64 hex characters (32 bytes). */
  encryptionKey: string;
  /** configured key algorithms (see createKeyAlgorithms) */
  algorithms: Map<KeyAlgorithmType, KeyAlgorithm>;
  /** prepared private keys kept in memory for repeated signing (LRU); default 1024, 0 disables the cache */
  cacheSize?: number;
}

interface CachedKey {
  algorithm: KeyAlgorithm;
  prepared: PreparedPrivateKey;
  /** the public key the private key was checked against when it was opened */
  publicKey: Uint8Array;
}

/**
 * Key storage `INTERNAL`: private keys live in the database, sealed with AES-256-GCM (NIST SP 800-38D) under the
 * configured encryption key. keyReference = nonce (12 random bytes) || ciphertext || tag (16 bytes), with the key id as
 * additional authenticated data so a reference copied onto another key row fails to open.
 *
 * Opened and parsed keys are kept in a bounded LRU keyed by key id + reference, so signing with a hot key costs one
 * Map lookup on top of the algorithm's sign.
 */
export function createInternalKeyStorage(options: InternalKeyStorageOptions): KeyStorage {
  const encryptionKey = parseEncryptionKey(options.encryptionKey);
  const { algorithms } = options;
  const cacheSize = options.cacheSize ?? DEFAULT_CACHE_SIZE;
  const cache = new Map<string, CachedKey>();

  function algorithmOf(keyType: KeyAlgorithmType): KeyAlgorithm {
    const algorithm = algorithms.get(keyType);
    if (algorithm === undefined) throw new CredkitError("BR_0043", `key algorithm ${keyType} is not enabled`);
    return algorithm;
  }

  function store(keyId: string, publicKey: Uint8Array, privateKey: Uint8Array): StoredKeyMaterial {
    try {
      return { publicKey, keyReference: seal(encryptionKey, keyId, privateKey) };
    } finally {
      privateKey.fill(0);
    }
  }

  /** Open the reference, parse the key and check it is the private key of key.publicKey. */
  function load(key: KeyHandleRef, algorithm: KeyAlgorithm): PreparedPrivateKey {
    const privateKey = open(encryptionKey, key.id, key.keyReference);
    try {
      const publicKey = algorithm.derivePublicKey(privateKey);
      if (!sameBytes(publicKey, key.publicKey)) {
        throw new CredkitError("BR_0039", `key reference of ${key.id} does not hold the private key of its public key`);
      }
      return algorithm.preparePrivateKey(privateKey);
    } catch (error) {
      if (error instanceof CredkitError && error.code === "BR_0039") throw error;
      throw new CredkitError("BR_0039", `stored private key of ${key.id} is not a valid ${key.keyType} key`, {
        cause: error,
      });
    } finally {
      privateKey.fill(0);
    }
  }

  function prepared(key: KeyHandleRef): CachedKey {
    const cacheKey = cacheKeyOf(key);
    const hit = cache.get(cacheKey);
    if (hit !== undefined) {
      if (!sameBytes(hit.publicKey, key.publicKey)) {
        throw new CredkitError("BR_0039", `key reference of ${key.id} does not hold the private key of its public key`);
      }
      // refresh recency: Map iteration order is insertion order, so the first entry is the least recently used
      cache.delete(cacheKey);
      cache.set(cacheKey, hit);
      return hit;
    }
    const algorithm = algorithmOf(key.keyType);
    const entry: CachedKey = { algorithm, prepared: load(key, algorithm), publicKey: Uint8Array.from(key.publicKey) };
    if (cacheSize > 0) {
      if (cache.size >= cacheSize) cache.delete(cache.keys().next().value!);
      cache.set(cacheKey, entry);
    }
    return entry;
  }

  return {
    capabilities: { features: ["IMPORT"], algorithms: [...algorithms.keys()], securityLevel: ["BASIC"] },

    async generate(keyId, keyType) {
      const pair = algorithmOf(keyType).generateKeyPair();
      return store(keyId, pair.publicKey, pair.privateKey);
    },

    async importPrivateJwk(keyId: string, keyType: KeyAlgorithmType, jwk: PrivateJwk) {
      const pair = algorithmOf(keyType).privateKeyFromJwk(jwk);
      return store(keyId, pair.publicKey, pair.privateKey);
    },

    // Not `async`: a plain function returning a settled promise skips the async-function machinery on the hot path.
    sign(key, message) {
      try {
        const { algorithm, prepared: privateKey } = prepared(key);
        return Promise.resolve(algorithm.sign(privateKey, message));
      } catch (error) {
        return Promise.reject(error);
      }
    },
  };
}

function parseEncryptionKey(hex: string): Buffer {
  if (typeof hex !== "string" || !/^[0-9a-fA-F]{64}$/.test(hex)) {
    throw new CredkitError(
      "BR_0051",
      "INTERNAL key storage encryptionKey must be 64 hexadecimal characters (32 bytes)",
    );
  }
  return Buffer.from(hex, "hex");
}

/** The key type is part of the cache key so a handle with a wrong type never reuses another type's parsed key. */
function cacheKeyOf(key: KeyHandleRef): string {
  const reference = key.keyReference;
  return `${key.keyType}\u0000${key.id}\u0000${Buffer.from(reference.buffer, reference.byteOffset, reference.byteLength).toString("latin1")}`;
}

function seal(encryptionKey: Buffer, keyId: string, plaintext: Uint8Array): Uint8Array {
  const nonce = randomBytes(NONCE_LENGTH);
  const cipher = createCipheriv("aes-256-gcm", encryptionKey, nonce, { authTagLength: TAG_LENGTH });
  cipher.setAAD(Buffer.from(keyId, "utf8"));
  // GCM is a stream mode: update() returns the whole ciphertext, final() only computes the tag
  const ciphertext = cipher.update(plaintext);
  cipher.final();
  const sealed = new Uint8Array(NONCE_LENGTH + ciphertext.length + TAG_LENGTH);
  sealed.set(nonce, 0);
  sealed.set(ciphertext, NONCE_LENGTH);
  sealed.set(cipher.getAuthTag(), NONCE_LENGTH + ciphertext.length);
  return sealed;
}

function open(encryptionKey: Buffer, keyId: string, sealed: Uint8Array): Uint8Array {
  if (!(sealed instanceof Uint8Array) || sealed.length <= NONCE_LENGTH + TAG_LENGTH) {
    throw new CredkitError("BR_0039", `key reference of ${keyId} is malformed`);
  }
  const bytes = Buffer.from(sealed.buffer, sealed.byteOffset, sealed.byteLength);
  let plaintext: Buffer | undefined;
  try {
    const decipher = createDecipheriv("aes-256-gcm", encryptionKey, bytes.subarray(0, NONCE_LENGTH), {
      authTagLength: TAG_LENGTH,
    });
    decipher.setAAD(Buffer.from(keyId, "utf8"));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_LENGTH));
    plaintext = decipher.update(bytes.subarray(NONCE_LENGTH, bytes.length - TAG_LENGTH));
    decipher.final(); // checks the tag
    return new Uint8Array(plaintext.buffer, plaintext.byteOffset, plaintext.byteLength);
  } catch (error) {
    plaintext?.fill(0);
    // GCM tag mismatch: wrong encryption key, tampered reference, or a reference that belongs to another key id
    throw new CredkitError("BR_0039", `key reference of ${keyId} cannot be opened`, { cause: error });
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(b);
}
