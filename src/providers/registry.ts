import { CredkitError } from "../errors/credkit-error.js";
import type { CredentialFormatter } from "../ports/credential-formatter.js";
import type { DidMethod } from "../ports/did-method.js";
import type { KeyAlgorithm } from "../ports/key-algorithm.js";
import type { KeyStorage } from "../ports/key-storage.js";
import type { JwsVerifier } from "./jose/verify-jws-signature.js";

/**
 * Providers by config instance name, built once at start-up from the enabled config entries. Entities store instance
 * names; engines resolve them here. (keyAlgorithm instances are keyed by their type, as in One Core.)
 */
export interface ProviderRegistry {
  keyAlgorithms: ReadonlyMap<string, KeyAlgorithm>;
  keyStorages: ReadonlyMap<string, KeyStorage>;
  didMethods: ReadonlyMap<string, DidMethod>;
  /** credential formats by instance name (SD_JWT_VC ...) */
  formatters: ReadonlyMap<string, CredentialFormatter>;
  /** verifies compact JWS signatures with the enabled algorithms (key proofs, status lists, request objects) */
  jwsVerifier: JwsVerifier;
}

export function getFormatter(registry: ProviderRegistry, name: string): CredentialFormatter {
  const formatter = registry.formatters.get(name);
  if (!formatter) throw new CredkitError("BR_0038", `format ${name} is not available`);
  return formatter;
}

export function getKeyAlgorithm(registry: ProviderRegistry, type: string): KeyAlgorithm {
  const algorithm = registry.keyAlgorithms.get(type);
  if (!algorithm) throw new CredkitError("BR_0043", `key algorithm ${type} is not enabled`);
  return algorithm;
}

export function getKeyStorage(registry: ProviderRegistry, name: string): KeyStorage {
  const storage = registry.keyStorages.get(name);
  if (!storage) throw new CredkitError("BR_0041", `key storage ${name} is not enabled`);
  return storage;
}

export function getDidMethod(registry: ProviderRegistry, name: string): DidMethod {
  const method = registry.didMethods.get(name);
  if (!method) throw new CredkitError("BR_0026", `DID method ${name} is not enabled`);
  return method;
}

/** The DID method instance handling a DID value (`did:<name>:…`), by the method names it declares. */
export function findDidMethodFor(registry: ProviderRegistry, did: string): [string, DidMethod] {
  const methodName = /^did:([a-z0-9]+):/.exec(did)?.[1];
  if (!methodName) throw new CredkitError("BR_0364", `not a DID: ${did}`);
  for (const entry of registry.didMethods) {
    if (entry[1].capabilities.methodNames.includes(methodName)) return entry;
  }
  throw new CredkitError("BR_0026", `no enabled DID method resolves did:${methodName}`);
}
