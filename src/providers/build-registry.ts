import type { CredkitConfig } from "../config/schema.js";
import { KEY_ALGORITHM_TYPES } from "../domain/enums.js";
import { CredkitError } from "../errors/credkit-error.js";
import type { CredentialFormatter } from "../ports/credential-formatter.js";
import type { DidMethod } from "../ports/did-method.js";
import type { HttpClient } from "../ports/http-client.js";
import type { KeyStorage } from "../ports/key-storage.js";
import { createJwkDidMethod } from "./did/jwk.js";
import { createKeyDidMethod } from "./did/key.js";
import { createWebDidMethod, type DidDocumentLoader } from "./did/web.js";
import { createSdJwtVcFormatter } from "./format/sd-jwt-vc/sd-jwt-vc-formatter.js";
import { createJwsVerifier } from "./jose/verify-jws-signature.js";
import { createKeyAlgorithms } from "./key-algorithm/index.js";
import { createInternalKeyStorage } from "./key-storage/internal.js";
import type { ProviderRegistry } from "./registry.js";

export interface RegistryEnvironment {
  fetch: HttpClient;
  baseUrl: string;
  /** documents of DIDs hosted here (did:web), looked up before any HTTP resolution */
  documentLoader: DidDocumentLoader;
}

function enabled<T extends { enabled: boolean }>(block: Record<string, T>): [string, T][] {
  return Object.entries(block).filter(([, entry]) => entry.enabled);
}

/** Builds every enabled provider of the configuration, once, at start-up. */
export function buildProviderRegistry(config: CredkitConfig, environment: RegistryEnvironment): ProviderRegistry {
  // only the algorithms this build implements; other configured types (BBS_PLUS) are not offered
  const keyAlgorithms = createKeyAlgorithms(
    enabled(config.keyAlgorithm)
      .map(([type]) => type)
      .filter((type) => (KEY_ALGORITHM_TYPES as readonly string[]).includes(type)),
  );

  const keyStorages = new Map<string, KeyStorage>();
  for (const [name, entry] of enabled(config.keyStorage)) {
    if (entry.type !== "INTERNAL") continue;
    const encryption = entry.params.private?.encryption;
    if (typeof encryption !== "string") throw new CredkitError("BR_0051", `keyStorage.${name}: encryption key missing`);
    keyStorages.set(name, createInternalKeyStorage({ encryptionKey: encryption, algorithms: keyAlgorithms }));
  }

  const didMethods = new Map<string, DidMethod>();
  for (const [name, entry] of enabled(config.did)) {
    const params = { ...entry.params.public, ...entry.params.private };
    switch (entry.type) {
      case "KEY":
        didMethods.set(name, createKeyDidMethod({ algorithms: keyAlgorithms }));
        break;
      case "JWK":
        didMethods.set(name, createJwkDidMethod({ algorithms: keyAlgorithms }));
        break;
      case "WEB":
        didMethods.set(
          name,
          createWebDidMethod({
            baseUrl: environment.baseUrl,
            fetch: environment.fetch,
            documentLoader: environment.documentLoader,
            algorithms: keyAlgorithms,
            resolveToInsecureHttp: params.resolveToInsecureHttp === true,
          }),
        );
        break;
      default:
        // other DID method types (WEBVH, UNIVERSAL_RESOLVER) are not provided by this build
        break;
    }
  }

  const formatters = new Map<string, CredentialFormatter>();
  for (const [name, entry] of enabled(config.format)) {
    // MDOC arrives with the proximity flow; other formats are not provided by this build
    if (entry.type === "SD_JWT_VC") formatters.set(name, createSdJwtVcFormatter({ algorithms: keyAlgorithms }));
  }

  return { keyAlgorithms, keyStorages, didMethods, formatters, jwsVerifier: createJwsVerifier(keyAlgorithms) };
}
