import type { KeyAlgorithmType } from "../../domain/enums.js";
import { CredkitError, isCredkitError } from "../../errors/index.js";
import type { KeyAlgorithm, PreparedPublicKey, PublicJwk } from "../../ports/key-algorithm.js";
import { computeJwkThumbprint } from "../key-algorithm/jwk-thumbprint.js";

/** Verifies JWS signatures with the enabled key algorithms, given the JOSE `alg` and the signer's public JWK. */
export interface JwsVerifier {
  /** JOSE algs this verifier accepts (the `jwsAlgorithm` of each enabled key algorithm) */
  readonly algorithms: readonly string[];
  /**
   * true when `signature` is a valid signature of `signingInput` by `jwk` under `alg`, false when it is not. Throws
   * CredkitError BR_0355 for `alg: none` or an alg no enabled key algorithm implements, and BR_0096 when the JWK does
   * not fit the alg (kty / crv / alg members) or is not a valid public key.
   */
  verify(alg: string, jwk: PublicJwk, signingInput: Uint8Array, signature: Uint8Array): boolean;
}

export interface JwsVerifierOptions {
  /** how many prepared public keys to keep (least recently used evicted first); default 256 */
  cacheSize?: number;
}

const DEFAULT_CACHE_SIZE = 256;

/**
 * A JWS verifier over the given key algorithms. Public keys are parsed from the JWK and prepared (e.g. a node:crypto
 * KeyObject) once, then kept in a bounded LRU keyed by alg and RFC 7638 thumbprint: a verifier sees the same issuer and
 * holder keys again and again, and preparing costs more than verifying.
 */
export function createJwsVerifier(
  algorithms: Map<KeyAlgorithmType, KeyAlgorithm>,
  options: JwsVerifierOptions = {},
): JwsVerifier {
  const byAlg = new Map<string, KeyAlgorithm>();
  for (const algorithm of algorithms.values()) byAlg.set(algorithm.jwsAlgorithm, algorithm);
  const cacheSize = Math.max(1, options.cacheSize ?? DEFAULT_CACHE_SIZE);
  // Map keeps insertion order: the first key is the least recently used one
  const cache = new Map<string, PreparedPublicKey>();

  function preparedKey(alg: string, algorithm: KeyAlgorithm, jwk: PublicJwk): PreparedPublicKey {
    // members the thumbprint leaves out, checked on every call so a cache hit cannot skip them
    if (jwk.alg !== undefined && jwk.alg !== alg) {
      throw new CredkitError("BR_0096", `JWK alg "${String(jwk.alg)}" does not fit JWS alg ${alg}`);
    }
    if (jwk.use !== undefined && jwk.use !== "sig") throw new CredkitError("BR_0096", 'JWK use must be "sig"');
    let thumbprint: string;
    try {
      thumbprint = computeJwkThumbprint(jwk);
    } catch (error) {
      throw new CredkitError("BR_0096", `JWK does not fit ${alg}: ${detailOf(error)}`, { cause: error });
    }
    const cacheKey = `${alg} ${thumbprint}`;
    const cached = cache.get(cacheKey);
    if (cached !== undefined) {
      cache.delete(cacheKey);
      cache.set(cacheKey, cached);
      return cached;
    }
    let prepared: PreparedPublicKey;
    try {
      // publicKeyFromJwk checks kty / crv / alg / use against the algorithm, so a P-256 key cannot pass as EdDSA
      prepared = algorithm.preparePublicKey(algorithm.publicKeyFromJwk(jwk));
    } catch (error) {
      throw new CredkitError("BR_0096", `JWK does not fit ${alg}: ${detailOf(error)}`, { cause: error });
    }
    cache.set(cacheKey, prepared);
    if (cache.size > cacheSize) cache.delete(cache.keys().next().value as string);
    return prepared;
  }

  return {
    algorithms: [...byAlg.keys()],
    verify(alg, jwk, signingInput, signature) {
      if (typeof alg !== "string" || alg === "") throw new CredkitError("BR_0355", "JWS header alg is missing");
      if (alg.toLowerCase() === "none") throw new CredkitError("BR_0355", 'JWS alg "none" is not accepted');
      const algorithm = byAlg.get(alg);
      if (algorithm === undefined) {
        throw new CredkitError("BR_0355", `unsupported JWS alg "${alg}" (accepted: ${[...byAlg.keys()].join(", ")})`);
      }
      return algorithm.verify(preparedKey(alg, algorithm, jwk), signingInput, signature);
    },
  };
}

function detailOf(error: unknown): string {
  if (isCredkitError(error)) return error.detail ?? error.message;
  return error instanceof Error ? error.message : String(error);
}
