import type { Key } from "../../domain/key.js";
import type { KeyHandleRef } from "../../ports/key-storage.js";
import type { Signer } from "../../ports/signer.js";
import { getKeyAlgorithm, getKeyStorage, type ProviderRegistry } from "../../providers/registry.js";

/** A Signer over a stored key: the key storage signs, private material never leaves it. */
export function createKeySigner(providers: ProviderRegistry, key: Key, kid?: string): Signer {
  const algorithm = getKeyAlgorithm(providers, key.keyType);
  const storage = getKeyStorage(providers, key.storageType);
  const handle = key as KeyHandleRef;
  return {
    alg: algorithm.jwsAlgorithm,
    ...(kid !== undefined && { kid }),
    sign: (data) => storage.sign(handle, data),
  };
}
