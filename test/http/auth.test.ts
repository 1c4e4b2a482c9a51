import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, type JWK, type JWTPayload, SignJWT } from "jose";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CredkitError } from "../../src/errors/index.js";
import {
  type AuthContext,
  AuthenticationError,
  type Authenticator,
  createAuthenticator,
  type HttpAuthConfig,
  requirePermission,
  resolveOrganisationId,
} from "../../src/http/auth/authenticate.js";
import { PERMISSIONS } from "../../src/http/auth/permissions.js";
import { toErrorResponse } from "../../src/http/errors/to-error-response.js";

const ORG = "9b8e7c6d-1234-4abc-8def-0123456789ab";
const OTHER_ORG = "11111111-2222-4333-8444-555555555555";
const ISS = "https://sts.example.com";
const AUD = "one-core";

function request(authorization?: string): Request {
  return new Request("http://localhost/api/key/v1", {
    headers: authorization === undefined ? {} : { authorization },
  });
}

/** Runs `fn` and returns the HTTP answer the error mapper would give for what it threw. */
async function statusOf(fn: () => unknown): Promise<{ status: number; body: string; error: unknown }> {
  try {
    await fn();
  } catch (error) {
    const response = toErrorResponse(error, { hideCause: false });
    return { status: response.status, body: await response.text(), error };
  }
  throw new Error("expected a failure");
}

describe("permissions", () => {
  it("lists the 98 One Core permissions", () => {
    expect(PERMISSIONS).toHaveLength(98);
    expect(new Set(PERMISSIONS).size).toBe(98);
    expect(PERMISSIONS).toContain("CREDENTIAL_ISSUE");
    expect(PERMISSIONS).toContain("SYSTEM_HISTORY_LIST");
    expect(PERMISSIONS).toContain("X509_CERTIFICATE_SIGN");
  });
});

describe("UNSAFE_NONE", () => {
  const auth = createAuthenticator({ mode: "UNSAFE_NONE" });

  it("allows everything, with or without a header", async () => {
    for (const header of [undefined, "Bearer anything"]) {
      const ctx = await auth.authenticate(request(header));
      expect(ctx).toEqual({ mode: "UNSAFE_NONE", permissions: "ALL" });
      expect(() => requirePermission(ctx, "CREDENTIAL_ISSUE")).not.toThrow();
    }
  });

  it("takes the organisation from the request and needs one", async () => {
    const ctx = await auth.authenticate(request());
    expect(resolveOrganisationId(ctx, ORG)).toBe(ORG);
    const failure = await statusOf(() => resolveOrganisationId(ctx));
    expect(failure.status).toBe(400);
    expect(JSON.parse(failure.body)).toMatchObject({ code: "BR_0290", message: "Organisation not specified" });
  });
});

describe("UNSAFE_STATIC", () => {
  const auth = createAuthenticator({ mode: "UNSAFE_STATIC", staticToken: "test-token" });

  it("accepts the configured token (scheme case-insensitive)", async () => {
    for (const header of ["Bearer test-token", "bearer test-token", "BEARER  test-token"]) {
      const ctx = await auth.authenticate(request(header));
      expect(ctx).toEqual({ mode: "UNSAFE_STATIC", permissions: "ALL" });
      expect(() => requirePermission(ctx, "KEY_CREATE", "KEY_LIST")).not.toThrow();
    }
  });

  it.each([
    ["missing", undefined],
    ["wrong", "Bearer test-tokem"],
    ["shorter", "Bearer test"],
    ["longer", `Bearer test-token${"x".repeat(1000)}`],
    ["other scheme", "Basic dGVzdC10b2tlbg=="],
    ["empty", "Bearer "],
    ["token with spaces", "Bearer test-token extra"],
  ])("refuses a %s token with a bare 401", async (_, header) => {
    const failure = await statusOf(() => auth.authenticate(request(header)));
    expect(failure.error).toBeInstanceOf(AuthenticationError);
    expect(failure).toMatchObject({ status: 401, body: "" });
  });
});

describe("STS", () => {
  let server: Server;
  let jwksUri: string;
  let published: JWK[] = [];
  let jwksRequests = 0;
  let failJwks = false;

  let edKey: CryptoKey;
  let esKey: CryptoKey;
  let strangerKey: CryptoKey;
  let rotatedKey: CryptoKey;
  let edJwk: JWK;
  let esJwk: JWK;
  let rotatedJwk: JWK;

  let nowMs = Date.parse("2031-05-01T10:00:00Z");
  const nowSeconds = () => Math.floor(nowMs / 1000);
  const opened: Authenticator[] = [];

  const config = {
    mode: "STS" as const,
    stsTokenValidation: {
      aud: AUD,
      iss: ISS,
      jwksUri: "", // set in beforeAll
      leeway: 60,
      jwksRefreshAfter: 300,
      jwksExpireAfter: 3600,
    },
  };

  function sts(): Authenticator {
    const auth = createAuthenticator(
      { ...config, stsTokenValidation: { ...config.stsTokenValidation, jwksUri } } satisfies HttpAuthConfig,
      { now: () => new Date(nowMs) },
    );
    opened.push(auth);
    return auth;
  }

  interface TokenOptions {
    key?: CryptoKey;
    header?: Record<string, unknown>;
    claims?: JWTPayload & Record<string, unknown>;
    omit?: string[];
  }

  async function token(options: TokenOptions = {}): Promise<string> {
    const claims: Record<string, unknown> = {
      iss: ISS,
      aud: AUD,
      sub: "user-1",
      iat: nowSeconds(),
      exp: nowSeconds() + 300,
      organisationId: ORG,
      permissions: ["CREDENTIAL_ISSUE", "KEY_LIST"],
      ...options.claims,
    };
    for (const name of options.omit ?? []) delete claims[name];
    return new SignJWT(claims)
      .setProtectedHeader({ alg: "EdDSA", kid: "ed-1", ...options.header } as { alg: string })
      .sign(options.key ?? edKey);
  }

  const bearer = async (options?: TokenOptions) => request(`Bearer ${await token(options)}`);

  beforeAll(async () => {
    ({ privateKey: edKey } = await generateKeyPair("EdDSA", { extractable: true }).then(async (pair) => {
      edJwk = { ...(await exportJWK(pair.publicKey)), kid: "ed-1", use: "sig" };
      return pair;
    }));
    ({ privateKey: esKey } = await generateKeyPair("ES256", { extractable: true }).then(async (pair) => {
      esJwk = { ...(await exportJWK(pair.publicKey)), kid: "es-1", alg: "ES256" };
      return pair;
    }));
    ({ privateKey: rotatedKey } = await generateKeyPair("EdDSA", { extractable: true }).then(async (pair) => {
      rotatedJwk = { ...(await exportJWK(pair.publicKey)), kid: "ed-2" };
      return pair;
    }));
    ({ privateKey: strangerKey } = await generateKeyPair("EdDSA"));

    server = createServer((req, res) => {
      if (req.url !== "/.well-known/jwks.json") {
        res.writeHead(404).end();
        return;
      }
      jwksRequests++;
      if (failJwks) {
        res.writeHead(503).end();
        return;
      }
      res.writeHead(200, { "content-type": "application/jwk-set+json" });
      res.end(JSON.stringify({ keys: published }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    jwksUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/jwks.json`;
  });

  afterEach(() => {
    for (const auth of opened.splice(0)) auth.close();
    published = [edJwk, esJwk];
    jwksRequests = 0;
    failJwks = false;
    nowMs = Date.parse("2031-05-01T10:00:00Z");
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it("accepts a valid EdDSA token and fills the context from its claims", async () => {
    published = [edJwk, esJwk];
    const ctx = await sts().authenticate(await bearer());
    expect(ctx).toEqual({
      mode: "STS",
      organisationId: ORG,
      permissions: new Set(["CREDENTIAL_ISSUE", "KEY_LIST"]),
      user: "user-1",
    });
    expect(jwksRequests).toBe(1);
  });

  it("accepts a valid ES256 token", async () => {
    const ctx = await sts().authenticate(await bearer({ key: esKey, header: { alg: "ES256", kid: "es-1" } }));
    expect(ctx.user).toBe("user-1");
  });

  it("reuses the cached JWKS and shares one fetch between concurrent requests", async () => {
    const auth = sts();
    const requests = await Promise.all(Array.from({ length: 10 }, () => bearer()));
    await Promise.all(requests.map((r) => auth.authenticate(r)));
    await auth.authenticate(await bearer());
    expect(jwksRequests).toBe(1);
  });

  it("fills user and actor from a delegated token", async () => {
    const ctx = await sts().authenticate(await bearer({ claims: { sub: "alice", act: { sub: "wrpr-service" } } }));
    expect(ctx.user).toBe("alice");
    expect(ctx.actor).toBe("wrpr-service");
  });

  it.each<[string, () => Promise<Request>]>([
    ["no Authorization header", async () => request()],
    ["a non-bearer header", async () => request("Basic abc")],
    ["garbage", async () => request("Bearer not.a.jwt")],
    ["a wrong signature", () => bearer({ key: strangerKey })],
    ["an ES256 key used under an EdDSA kid", () => bearer({ key: esKey, header: { alg: "ES256", kid: "ed-1" } })],
    ["a wrong audience", () => bearer({ claims: { aud: "someone-else" } })],
    ["a wrong issuer", () => bearer({ claims: { iss: "https://evil.example.com" } })],
    ["no kid", () => bearer({ header: { kid: undefined } })],
    ["no sub", () => bearer({ omit: ["sub"] })],
    ["no exp", () => bearer({ omit: ["exp"] })],
    ["nbf beyond the leeway", () => bearer({ claims: { nbf: nowSeconds() + 61 } })],
    ["iat beyond the leeway", () => bearer({ claims: { iat: nowSeconds() + 61 } })],
    ["permissions that are not a string array", () => bearer({ claims: { permissions: "ALL" } })],
    ["a non-string organisationId", () => bearer({ claims: { organisationId: 7 } })],
    ["an act claim without sub", () => bearer({ claims: { act: { client: "x" } } })],
  ])("refuses %s with a bare 401", async (_, makeRequest) => {
    const failure = await statusOf(async () => sts().authenticate(await makeRequest()));
    expect(failure).toMatchObject({ status: 401, body: "" });
  });

  it("refuses HS256 and unsigned tokens", async () => {
    const hs = await new SignJWT({ iss: ISS, aud: AUD, sub: "u", exp: nowSeconds() + 60 })
      .setProtectedHeader({ alg: "HS256", kid: "ed-1" })
      .sign(new TextEncoder().encode("0123456789abcdef0123456789abcdef"));
    expect((await statusOf(() => sts().authenticate(request(`Bearer ${hs}`)))).status).toBe(401);
    const payload = Buffer.from(JSON.stringify({ iss: ISS, aud: AUD, sub: "u", exp: nowSeconds() + 60 })).toString(
      "base64url",
    );
    const none = `${Buffer.from('{"alg":"none","kid":"ed-1"}').toString("base64url")}.${payload}.`;
    expect((await statusOf(() => sts().authenticate(request(`Bearer ${none}`)))).status).toBe(401);
  });

  it("does not fetch the JWKS for a token without kid", async () => {
    await statusOf(async () => sts().authenticate(await bearer({ header: { kid: undefined } })));
    expect(jwksRequests).toBe(0);
  });

  it("answers an expired token (beyond leeway) with BR_0358, a bare 401", async () => {
    const failure = await statusOf(async () =>
      sts().authenticate(await bearer({ claims: { exp: nowSeconds() - 61 } })),
    );
    expect(failure.error).toBeInstanceOf(CredkitError);
    expect((failure.error as CredkitError).code).toBe("BR_0358");
    expect(failure).toMatchObject({ status: 401, body: "" });
  });

  it("accepts a token expired, not yet valid or issued ahead within the leeway", async () => {
    const auth = sts();
    await expect(auth.authenticate(await bearer({ claims: { exp: nowSeconds() - 59 } }))).resolves.toBeDefined();
    await expect(auth.authenticate(await bearer({ claims: { nbf: nowSeconds() + 59 } }))).resolves.toBeDefined();
    await expect(auth.authenticate(await bearer({ claims: { iat: nowSeconds() + 59 } }))).resolves.toBeDefined();
  });

  it("refetches exactly once for an unknown kid, then at most once per 10 seconds", async () => {
    const auth = sts();
    await auth.authenticate(await bearer());
    expect(jwksRequests).toBe(1);
    const unknown = () => bearer({ key: strangerKey, header: { kid: "nobody" } });
    expect((await statusOf(async () => auth.authenticate(await unknown()))).status).toBe(401);
    expect(jwksRequests).toBe(2);
    expect((await statusOf(async () => auth.authenticate(await unknown()))).status).toBe(401);
    nowMs += 9_000;
    expect((await statusOf(async () => auth.authenticate(await unknown()))).status).toBe(401);
    expect(jwksRequests).toBe(2);
    nowMs += 2_000;
    expect((await statusOf(async () => auth.authenticate(await unknown()))).status).toBe(401);
    expect(jwksRequests).toBe(3);
  });

  it("picks up a rotated key through the unknown-kid refetch", async () => {
    const auth = sts();
    await auth.authenticate(await bearer());
    published = [rotatedJwk, esJwk]; // STS rotated: ed-1 retired, ed-2 introduced
    const ctx = await auth.authenticate(await bearer({ key: rotatedKey, header: { kid: "ed-2" } }));
    expect(ctx.user).toBe("user-1");
    expect(jwksRequests).toBe(2);
    // The retired key is gone from the cache once the new set is in.
    nowMs += 11_000;
    expect((await statusOf(async () => auth.authenticate(await bearer()))).status).toBe(401);
  });

  it("refreshes in the background after jwksRefreshAfter and keeps serving the cached set", async () => {
    const auth = sts();
    await auth.authenticate(await bearer());
    nowMs += 301_000;
    failJwks = true;
    await expect(auth.authenticate(await bearer())).resolves.toBeDefined(); // stale but trusted
    await expect.poll(() => jwksRequests).toBe(2); // the refresh ran (and failed) in the background
    await expect(auth.authenticate(await bearer())).resolves.toBeDefined(); // a failed refresh keeps the set...
    expect(jwksRequests).toBe(2); // ...and is not retried on every request
    failJwks = false;
    published = [rotatedJwk];
    nowMs += 10_000;
    await auth.authenticate(await bearer()); // triggers the next background refresh
    await expect.poll(() => jwksRequests).toBe(3);
    nowMs += 1_000;
    // Once the refreshed set (without ed-1) is in, ed-1 tokens fail and ed-2 tokens pass.
    const outcome = async () => {
      try {
        await auth.authenticate(await bearer());
        return 200;
      } catch (error) {
        return toErrorResponse(error, { hideCause: true }).status;
      }
    };
    await expect.poll(outcome).toBe(401);
    await expect(auth.authenticate(await bearer({ key: rotatedKey, header: { kid: "ed-2" } }))).resolves.toBeDefined();
  });

  it("stops trusting the set after jwksExpireAfter when it cannot be refreshed, and retries at most every 10 s", async () => {
    const auth = sts();
    await auth.authenticate(await bearer());
    failJwks = true;
    nowMs += 3_600_000;
    expect((await statusOf(async () => auth.authenticate(await bearer()))).status).toBe(401);
    expect(jwksRequests).toBe(2);
    failJwks = false;
    nowMs += 9_000;
    expect((await statusOf(async () => auth.authenticate(await bearer()))).status).toBe(401); // fails fast
    expect(jwksRequests).toBe(2);
    nowMs += 1_000;
    await expect(auth.authenticate(await bearer())).resolves.toBeDefined();
    expect(jwksRequests).toBe(3);
  });

  it("answers 401 when the JWKS endpoint is down from the start", async () => {
    failJwks = true;
    expect((await statusOf(async () => sts().authenticate(await bearer()))).status).toBe(401);
  });

  describe("authorisation of an STS context", () => {
    let ctx: AuthContext;
    beforeAll(async () => {
      published = [edJwk, esJwk];
      ctx = await sts().authenticate(await bearer());
    });

    it("passes when the token holds any one of the permissions", () => {
      expect(() => requirePermission(ctx, "CREDENTIAL_ISSUE")).not.toThrow();
      expect(() => requirePermission(ctx, "HISTORY_LIST", "KEY_LIST")).not.toThrow();
      expect(() => requirePermission(ctx)).not.toThrow();
    });

    it("refuses a missing permission with a bare 403 (BR_0178)", async () => {
      const failure = await statusOf(() => requirePermission(ctx, "KEY_CREATE", "CREDENTIAL_DELETE"));
      expect((failure.error as CredkitError).code).toBe("BR_0178");
      expect(failure).toMatchObject({ status: 403, body: "" });
    });

    it("binds the organisation to the token", async () => {
      expect(resolveOrganisationId(ctx)).toBe(ORG);
      expect(resolveOrganisationId(ctx, ORG)).toBe(ORG);
      const failure = await statusOf(() => resolveOrganisationId(ctx, OTHER_ORG));
      expect((failure.error as CredkitError).code).toBe("BR_0178");
      expect(failure).toMatchObject({ status: 403, body: "" });
    });

    it("needs an organisation when the token carries none", async () => {
      const orgless: AuthContext = { mode: "STS", permissions: new Set(), user: "u" };
      expect((await statusOf(() => resolveOrganisationId(orgless))).status).toBe(400);
      expect((await statusOf(() => resolveOrganisationId(orgless, ORG))).status).toBe(403);
    });
  });
});
