import { createHash, timingSafeEqual } from "node:crypto";
import { type JWTPayload, errors as joseErrors, jwtVerify } from "jose";
import { CredkitError } from "../../errors/index.js";
import { createJwksCache, type JwksCache, JwksError, STS_ALGORITHMS, type StsAlgorithm } from "./jwks-cache.js";

export { hasPermission, requirePermission, resolveOrganisationId } from "./authorize.js";

/** `app.auth.stsTokenValidation`: how STS tokens are checked. Times are seconds. */
export interface StsTokenValidation {
  /** Expected `aud` (one of the token's audiences). */
  aud: string;
  /** Expected `iss`. */
  iss: string;
  /** JWK Set of the STS signing keys. */
  jwksUri: string;
  /** Clock drift tolerated on `exp`, `nbf` and `iat`. */
  leeway: number;
  /** Refresh the JWKS (in the background) at the first use after this many seconds. */
  jwksRefreshAfter: number;
  /** Stop trusting a JWKS fetched longer ago than this. */
  jwksExpireAfter: number;
}

/** `app.auth` (same shape as the config module's type; declared here so `http/` does not depend on `config/`). */
export type HttpAuthConfig =
  | { mode: "UNSAFE_NONE" }
  | { mode: "UNSAFE_STATIC"; staticToken: string }
  | { mode: "STS"; stsTokenValidation: StsTokenValidation };

export type AuthMode = HttpAuthConfig["mode"];

/** Who is calling and what they may do; produced by {@link Authenticator.authenticate}. */
export interface AuthContext {
  mode: AuthMode;
  /** STS: the token's tenant (`organisationId` claim). */
  organisationId?: string;
  /** `"ALL"` in the unsafe modes; the token's `permissions` claim in STS mode. */
  permissions: "ALL" | ReadonlySet<string>;
  /** STS: the token subject (the user, also for delegated tokens). */
  user?: string;
  /** STS delegated tokens: `act.sub`, the service acting for `user`. */
  actor?: string;
}

/** Checks the `Authorization` header of management-API requests. */
export interface Authenticator {
  readonly mode: AuthMode;
  /**
   * Resolves the caller, or throws: {@link AuthenticationError} (status 401) for a missing or invalid token,
   * `CredkitError("BR_0358")` (401) for an expired one. `toErrorResponse` turns both into a bare 401.
   */
  authenticate(request: Request): Promise<AuthContext>;
  /** Releases the JWKS cache (aborts a fetch in flight). */
  close(): void;
}

/** Options of {@link createAuthenticator}. */
export interface AuthenticatorOptions {
  /** Fetch used for the JWKS (default: global `fetch`). */
  fetch?: typeof fetch;
  /** Clock for token time checks and JWKS ageing (default: `() => new Date()`). */
  now?: () => Date;
  /** Receives JWKS loading failures (never sent to clients). */
  log?: (error: unknown) => void;
}

/** The request is not authenticated. Maps to a bare 401; `message` is for logs only. */
export class AuthenticationError extends Error {
  readonly status = 401 as const;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "AuthenticationError";
  }
}

const BEARER = /^Bearer +([^\s]+) *$/i;

/** The token of an `Authorization: Bearer <token>` header, or `undefined`. */
export function bearerToken(request: Request): string | undefined {
  const header = request.headers.get("authorization");
  return header === null ? undefined : BEARER.exec(header)?.[1];
}

const ALL: AuthContext = Object.freeze({ mode: "UNSAFE_NONE", permissions: "ALL" }) as AuthContext;

/**
 * Builds the authenticator for the configured mode:
 * - `UNSAFE_NONE`: every request is allowed with every permission.
 * - `UNSAFE_STATIC`: `Authorization: Bearer <staticToken>` required, compared in constant time (SHA-256 digests and
 *   `timingSafeEqual`, so neither content nor length leaks); every permission granted.
 * - `STS`: a JWT (`alg` EdDSA or ES256, `kid` required) verified against the JWKS at `jwksUri`; `iss`, `aud` must
 *   match, `exp` and `sub` are required, `exp`/`nbf`/`iat` are checked with `leeway` seconds. Claims
 *   `organisationId`, `permissions` and `act.sub` fill the context.
 */
export function createAuthenticator(config: HttpAuthConfig, options: AuthenticatorOptions = {}): Authenticator {
  switch (config.mode) {
    case "UNSAFE_NONE":
      return { mode: config.mode, authenticate: async () => ALL, close() {} };
    case "UNSAFE_STATIC":
      return createStaticAuthenticator(config.staticToken);
    case "STS":
      return createStsAuthenticator(config.stsTokenValidation, options);
  }
}

function sha256(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}

function createStaticAuthenticator(staticToken: string): Authenticator {
  const expected = sha256(staticToken);
  const context: AuthContext = Object.freeze({ mode: "UNSAFE_STATIC", permissions: "ALL" }) as AuthContext;
  return {
    mode: "UNSAFE_STATIC",
    async authenticate(request) {
      const token = bearerToken(request);
      if (token === undefined) throw new AuthenticationError("missing bearer token");
      if (!timingSafeEqual(sha256(token), expected)) throw new AuthenticationError("wrong static token");
      return context;
    },
    close() {},
  };
}

function createStsAuthenticator(validation: StsTokenValidation, options: AuthenticatorOptions): Authenticator {
  const now = options.now ?? (() => new Date());
  const jwks: JwksCache = createJwksCache({
    uri: validation.jwksUri,
    fetch: options.fetch ?? globalThis.fetch,
    now,
    refreshAfter: validation.jwksRefreshAfter,
    expireAfter: validation.jwksExpireAfter,
    log: options.log,
  });

  return {
    mode: "STS",
    async authenticate(request) {
      const token = bearerToken(request);
      if (token === undefined) throw new AuthenticationError("missing bearer token");
      const currentDate = now();
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(
          token,
          async (header) => {
            if (typeof header.kid !== "string" || header.kid === "") throw new AuthenticationError("token has no kid");
            return jwks.getKey({ kid: header.kid, alg: header.alg as StsAlgorithm });
          },
          {
            algorithms: [...STS_ALGORITHMS],
            issuer: validation.iss,
            audience: validation.aud,
            requiredClaims: ["exp", "sub"],
            clockTolerance: validation.leeway,
            currentDate,
          },
        ));
      } catch (error) {
        if (error instanceof joseErrors.JWTExpired) throw new CredkitError("BR_0358", error.message, { cause: error });
        if (error instanceof AuthenticationError) throw error;
        if (error instanceof JwksError && error.reason !== "unknown_kid") options.log?.(error);
        const reason = error instanceof Error ? error.message : String(error);
        throw new AuthenticationError(`invalid STS token: ${reason}`, { cause: error });
      }
      return contextFromClaims(payload, currentDate, validation.leeway);
    },
    close() {
      jwks.close();
    },
  };
}

function contextFromClaims(payload: JWTPayload, currentDate: Date, leeway: number): AuthContext {
  const nowSeconds = Math.floor(currentDate.getTime() / 1000);
  if (typeof payload.iat === "number" && payload.iat > nowSeconds + leeway) {
    throw new AuthenticationError("token issued in the future");
  }
  if (typeof payload.sub !== "string" || payload.sub === "") throw new AuthenticationError("token has no sub");

  const { organisationId, permissions, act } = payload as JWTPayload & {
    organisationId?: unknown;
    permissions?: unknown;
    act?: unknown;
  };
  if (organisationId !== undefined && typeof organisationId !== "string") {
    throw new AuthenticationError("organisationId claim is not a string");
  }
  if (permissions !== undefined && !(Array.isArray(permissions) && permissions.every((p) => typeof p === "string"))) {
    throw new AuthenticationError("permissions claim is not an array of strings");
  }
  let actor: string | undefined;
  if (act !== undefined) {
    const actSub = (act as { sub?: unknown } | null)?.sub;
    if (typeof actSub !== "string" || actSub === "") throw new AuthenticationError("act claim has no sub");
    actor = actSub;
  }

  const context: AuthContext = {
    mode: "STS",
    permissions: new Set<string>((permissions as string[] | undefined) ?? []),
    user: payload.sub,
  };
  if (organisationId !== undefined) context.organisationId = organisationId;
  if (actor !== undefined) context.actor = actor;
  return context;
}
