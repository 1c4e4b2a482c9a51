import { importJWK, type JWK } from "jose";

/** JWS algorithms an STS token may be signed with. */
export const STS_ALGORITHMS = ["EdDSA", "ES256"] as const;
export type StsAlgorithm = (typeof STS_ALGORITHMS)[number];

/** Options of {@link createJwksCache}. */
export interface JwksCacheOptions {
  /** Where the JWK Set is published (`app.auth.stsTokenValidation.jwksUri`). */
  uri: string;
  /** Outbound fetch (injected so tests and embedders control the transport). */
  fetch: typeof fetch;
  /** Clock. */
  now: () => Date;
  /** Seconds after a fetch when the next use triggers a background refresh (the cached set keeps serving meanwhile). */
  refreshAfter: number;
  /** Seconds after a fetch when the cached set is no longer trusted: the next use must fetch successfully. */
  expireAfter: number;
  /**
   * Minimum seconds between refetches caused by an unknown `kid`, between background refresh attempts, and before
   * retrying after a failed fetch when no trusted set is left (default 10).
   */
  retryInterval?: number;
  /** Timeout of one JWKS request in milliseconds (default 5000). */
  timeoutMs?: number;
  /** Receives background refresh failures. */
  log?: (error: unknown) => void;
}

/** A JWKS-backed key resolver for JWS verification. */
export interface JwksCache {
  /**
   * The public key for a JWS header. An unknown `kid` causes one refetch (at most one such refetch per
   * `retryInterval`). Throws {@link JwksError} when no usable key is found or the set cannot be loaded.
   */
  getKey(header: { kid: string; alg: StsAlgorithm }): Promise<CryptoKey>;
  /** Fetches the set now (joins a fetch already in flight). */
  refresh(): Promise<void>;
  /** Number of JWKS requests started so far (for diagnostics and tests). */
  readonly fetchCount: number;
  /** Aborts a fetch in flight and forgets the keys. */
  close(): void;
}

/** Why a key could not be resolved; `reason` is for logs, never sent to clients. */
export class JwksError extends Error {
  readonly reason: "unknown_kid" | "unavailable" | "closed";
  constructor(reason: JwksError["reason"], message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "JwksError";
    this.reason = reason;
  }
}

interface CachedSet {
  readonly keys: ReadonlyMap<string, readonly JWK[]>;
  readonly fetchedAt: number;
  readonly imported: Map<string, Promise<CryptoKey>>;
}

/**
 * A small JWKS cache: serves the last fetched set, refreshes it in the background at the first use after
 * `refreshAfter` seconds, refuses to trust it after `expireAfter` seconds (the request then waits for a fresh set),
 * and refetches once when a token names a `kid` the set lacks (key rotation). Refetches for unknown kids, background
 * refresh attempts and retries after a failure with no trusted set are each limited to one per `retryInterval`, so
 * neither forged tokens nor a JWKS outage turn into a request storm. Concurrent callers share one fetch. No timers:
 * nothing runs while the cache is idle.
 */
export function createJwksCache(options: JwksCacheOptions): JwksCache {
  const refreshAfterMs = options.refreshAfter * 1000;
  const expireAfterMs = options.expireAfter * 1000;
  const retryMs = (options.retryInterval ?? 10) * 1000;
  const timeoutMs = options.timeoutMs ?? 5000;
  const closer = new AbortController();

  let current: CachedSet | undefined;
  let inflight: Promise<CachedSet> | undefined;
  let lastKidRefetch = Number.NEGATIVE_INFINITY;
  let lastLoadStarted = Number.NEGATIVE_INFINITY;
  let lastFailure = Number.NEGATIVE_INFINITY;
  let fetchCount = 0;

  const load = (): Promise<CachedSet> => {
    if (closer.signal.aborted) return Promise.reject(new JwksError("closed", "JWKS cache closed"));
    if (inflight === undefined) {
      lastLoadStarted = options.now().getTime();
      inflight = fetchSet()
        .then(
          (set) => {
            current = set;
            return set;
          },
          (error: unknown) => {
            lastFailure = options.now().getTime();
            throw error;
          },
        )
        .finally(() => {
          inflight = undefined;
        });
    }
    return inflight;
  };

  const fetchSet = async (): Promise<CachedSet> => {
    fetchCount++;
    let body: unknown;
    try {
      const response = await options.fetch(options.uri, {
        headers: { accept: "application/jwk-set+json, application/json" },
        signal: AbortSignal.any([closer.signal, AbortSignal.timeout(timeoutMs)]),
      });
      if (!response.ok) throw new Error(`JWKS endpoint answered ${response.status}`);
      body = await response.json();
    } catch (error) {
      throw new JwksError("unavailable", `cannot load JWKS from ${options.uri}`, { cause: error });
    }
    return { keys: indexKeys(body, options.uri), fetchedAt: options.now().getTime(), imported: new Map() };
  };

  const usableSet = async (): Promise<CachedSet> => {
    const now = options.now().getTime();
    const set = current;
    if (set === undefined || now - set.fetchedAt >= expireAfterMs) {
      if (set !== undefined) current = undefined; // expired: never trust it again, even if the refetch fails
      if (inflight === undefined && now - lastFailure < retryMs) {
        throw new JwksError("unavailable", `JWKS from ${options.uri} unavailable; retrying after ${retryMs / 1000} s`);
      }
      return load();
    }
    if (now - set.fetchedAt >= refreshAfterMs && inflight === undefined && now - lastLoadStarted >= retryMs) {
      load().catch((error) => options.log?.(error));
    }
    return set;
  };

  return {
    async getKey(header) {
      let set = await usableSet();
      let key = await findKey(set, header);
      if (key === undefined) {
        const now = options.now().getTime();
        if (now - lastKidRefetch >= retryMs) {
          lastKidRefetch = now;
          set = await load();
          key = await findKey(set, header);
        }
      }
      if (key === undefined) {
        throw new JwksError("unknown_kid", `no ${header.alg} key with kid ${JSON.stringify(header.kid)} in the JWKS`);
      }
      return key;
    },
    async refresh() {
      await load();
    },
    get fetchCount() {
      return fetchCount;
    },
    close() {
      closer.abort();
      current = undefined;
    },
  };
}

function indexKeys(body: unknown, uri: string): ReadonlyMap<string, readonly JWK[]> {
  const list = (body as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(list)) throw new JwksError("unavailable", `${uri} did not return a JWK Set`);
  const keys = new Map<string, JWK[]>();
  for (const entry of list) {
    if (typeof entry !== "object" || entry === null) continue;
    const jwk = entry as JWK;
    if (typeof jwk.kid !== "string" || (jwk.use !== undefined && jwk.use !== "sig")) continue;
    if ("d" in jwk) continue; // never accept private material as a verification key
    const same = keys.get(jwk.kid);
    if (same) same.push(jwk);
    else keys.set(jwk.kid, [jwk]);
  }
  return keys;
}

function fitsAlgorithm(jwk: JWK, alg: StsAlgorithm): boolean {
  if (jwk.alg !== undefined && jwk.alg !== alg) return false;
  if (alg === "EdDSA") return jwk.kty === "OKP" && jwk.crv === "Ed25519";
  return jwk.kty === "EC" && jwk.crv === "P-256";
}

async function findKey(set: CachedSet, header: { kid: string; alg: StsAlgorithm }): Promise<CryptoKey | undefined> {
  const jwk = set.keys.get(header.kid)?.find((candidate) => fitsAlgorithm(candidate, header.alg));
  if (jwk === undefined) return undefined;
  const cacheKey = `${header.alg} ${header.kid}`;
  let imported = set.imported.get(cacheKey);
  if (imported === undefined) {
    imported = importJWK({ ...jwk, ext: true }, header.alg).then((key) => {
      if (key instanceof Uint8Array) throw new JwksError("unavailable", "JWKS contains a symmetric key");
      return key;
    });
    set.imported.set(cacheKey, imported);
    imported.catch(() => set.imported.delete(cacheKey));
  }
  return imported;
}
