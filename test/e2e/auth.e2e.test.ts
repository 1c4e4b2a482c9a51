import { randomUUID } from "node:crypto";
import { SignJWT, UnsecuredJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Credkit, CredkitOptions } from "../../src/credkit.js";
import { createTestKit } from "../../src/testing/create-test-kit.js";
import { type ApiResponse, createApiClient, HTTP_ADAPTERS, type MountedKit } from "../support/http-harness.js";
import { createSigningKey, type JwksServer, startJwksServer } from "../support/jwks-server.js";

// Management API authentication over real loopback HTTP (platform spec §5, reference §2 and §5): the three modes,
// STS tokens verified against a real JWKS endpoint, permissions, organisation scoping, delegation and key rotation.

const NODE_HTTP = HTTP_ADAPTERS.find((adapter) => adapter.name === "node:http")!;
const ISS = "https://sts.example.com";
const AUD = "credkit-core";
const LEEWAY = 30;
const STATIC_TOKEN = "static-test-token-0123456789";

type Api = ReturnType<typeof createApiClient>;

function expectBare(response: ApiResponse, status: 401 | 403) {
  expect(response.status, response.text).toBe(status);
  expect(response.text).toBe("");
}

function expectError(response: ApiResponse, status: number, code: string) {
  expect(response.status, response.text).toBe(status);
  expect(response.json).toMatchObject({ code, message: expect.any(String) });
}

const keyBody = (name: string, organisationId?: string) => ({
  ...(organisationId !== undefined && { organisationId }),
  keyType: "EDDSA",
  keyParams: {},
  name,
  storageType: "INTERNAL",
  storageParams: {},
});

const roles = (keyId: string) => ({
  authentication: [keyId],
  assertionMethod: [keyId],
  keyAgreement: [],
  capabilityInvocation: [],
  capabilityDelegation: [],
});

interface Mounted {
  kit: Credkit;
  mounted: MountedKit;
  api: Api;
  orgA: string;
  orgB: string;
  keyA: string;
  keyB: string;
  didWebId: string;
}

/** A kit in the given auth mode on node:http, with orgs A and B, a key in each and a did:web in A (set up via the SDK). */
async function mountKit(auth: NonNullable<NonNullable<CredkitOptions["config"]>["app"]>["auth"]): Promise<Mounted> {
  const kit = await createTestKit({ config: { app: { auth, coreBaseUrl: "https://issuer.example.com" } } });
  const mounted = await NODE_HTTP.mount(kit);
  const { id: orgA } = await kit.organisations.create({ name: "auth org A" });
  const { id: orgB } = await kit.organisations.create({ name: "auth org B" });
  const { id: keyA } = await kit.keys.create(keyBody("key of A", orgA));
  const { id: keyB } = await kit.keys.create(keyBody("key of B", orgB));
  const { id: didWebId } = await kit.dids.create({
    organisationId: orgA,
    name: "web of A",
    method: "WEB",
    keys: roles(keyA),
  });
  return { kit, mounted, api: createApiClient(mounted.baseUrl), orgA, orgB, keyA, keyB, didWebId };
}

async function unmount(setup: Mounted | undefined) {
  await setup?.mounted.close();
  await setup?.kit.close();
}

/** /health, /metrics, the did:web document and the OpenAPI document answer without (and despite bad) credentials. */
async function expectPublicEndpoints(setup: Mounted) {
  const variants: Record<string, string>[] = [{}, { authorization: "Bearer not-a-valid-token" }];
  for (const headers of variants) {
    expect((await setup.api("GET", "/health", undefined, headers)).status).toBe(204);
    const metrics = await setup.api("GET", "/metrics", undefined, headers);
    expect(metrics.status).toBe(200);
    expect(metrics.text).toContain("credkit_http_requests_total");
    const did = await setup.api("GET", `/ssi/did-web/v1/${setup.didWebId}/did.json`, undefined, headers);
    expect(did.status).toBe(200);
    expect(did.json.id).toBe(`did:web:issuer.example.com:ssi:did-web:v1:${setup.didWebId}`);
    const openapi = await setup.api("GET", "/api-docs/openapi.json", undefined, headers);
    expect(openapi.status).toBe(200);
    expect(openapi.json.openapi).toMatch(/^3\./);
  }
}

describe(`auth mode UNSAFE_NONE over ${NODE_HTTP.name}`, () => {
  let setup: Mounted;
  beforeAll(async () => {
    setup = await mountKit({ mode: "UNSAFE_NONE" });
  });
  afterAll(() => unmount(setup));

  it("serves the management API without any header", async () => {
    const list = await setup.api("GET", `/api/key/v1?page=0&pageSize=10&organisationId=${setup.orgA}`);
    expect(list.status).toBe(200);
    expect(list.json.values.map((k: { id: string }) => k.id)).toEqual([setup.keyA]);
    expect((await setup.api("GET", "/api/config/v1", undefined, { authorization: "Bearer whatever" })).status).toBe(
      200,
    );
  });

  it("requires organisationId where STS would take it from the token", async () => {
    expectError(await setup.api("GET", "/api/key/v1?page=0&pageSize=10"), 400, "BR_0290");
    expectError(await setup.api("POST", "/api/key/v1", keyBody("no org")), 400, "BR_0290");
  });

  it("keeps public endpoints public", () => expectPublicEndpoints(setup));
});

describe(`auth mode UNSAFE_STATIC over ${NODE_HTTP.name}`, () => {
  let setup: Mounted;
  beforeAll(async () => {
    setup = await mountKit({ mode: "UNSAFE_STATIC", staticToken: STATIC_TOKEN });
  });
  afterAll(() => unmount(setup));

  const listPath = () => `/api/key/v1?page=0&pageSize=10&organisationId=${setup.orgA}`;

  it("answers a missing or wrong token with a bare 401", async () => {
    expectBare(await setup.api("GET", listPath()), 401);
    for (const authorization of [
      "Bearer wrong-token",
      `Bearer ${STATIC_TOKEN.slice(0, -1)}`,
      `Bearer ${STATIC_TOKEN}x`,
      STATIC_TOKEN,
      `Basic ${Buffer.from(`user:${STATIC_TOKEN}`).toString("base64")}`,
      "Bearer ",
    ]) {
      expectBare(await setup.api("GET", listPath(), undefined, { authorization }), 401);
    }
    expectBare(await setup.api("POST", "/api/key/v1", keyBody("refused", setup.orgA)), 401);
    expectBare(await setup.api("GET", "/api/config/v1"), 401);
    expectBare(await setup.api("GET", `/api/key/v1/${setup.keyA}`, undefined, { authorization: "Bearer nope" }), 401);
  });

  it("accepts the configured token with every permission", async () => {
    const api = createApiClient(setup.mounted.baseUrl, { authorization: `Bearer ${STATIC_TOKEN}` });
    const list = await api("GET", listPath());
    expect(list.status).toBe(200);
    expect(list.json.totalItems).toBe(1);
    expect((await api("GET", listPath(), undefined, { authorization: `bearer ${STATIC_TOKEN}` })).status).toBe(200);
    const created = await api("POST", "/api/key/v1", keyBody("static key", setup.orgA));
    expect(created.status).toBe(201);
    expect((await api("GET", `/api/key/v1/${created.json.id}`)).json.organisationId).toBe(setup.orgA);
    expect((await api("GET", "/api/config/v1")).status).toBe(200);
    const history = await api(
      "GET",
      `/api/history/v1?page=0&pageSize=10&organisationId=${setup.orgA}&entityIds[]=${created.json.id}`,
    );
    expect(history.json.values).toHaveLength(1);
    expect(history.json.values[0]).not.toHaveProperty("user");
  });

  it("keeps public endpoints public", () => expectPublicEndpoints(setup));
});

describe(`auth mode STS with a real JWKS endpoint over ${NODE_HTTP.name}`, () => {
  let jwks: JwksServer;
  let setup: Mounted;
  const nowSeconds = () => Math.floor(Date.now() / 1000);

  /** a valid token for org A (override or drop claims by passing `undefined`) */
  const token = (claims: Record<string, unknown> = {}, key?: Parameters<JwksServer["sign"]>[1]) =>
    jwks.sign(
      {
        iss: ISS,
        aud: AUD,
        sub: "user-1",
        iat: nowSeconds(),
        exp: nowSeconds() + 300,
        organisationId: setup.orgA,
        permissions: ["KEY_LIST", "KEY_DETAIL", "KEY_CREATE", "HISTORY_LIST", "HISTORY_DETAIL"],
        ...claims,
      },
      key,
    );
  const bearer = async (claims?: Record<string, unknown>) => ({ authorization: `Bearer ${await token(claims)}` });
  const listKeys = async (claims?: Record<string, unknown>) =>
    setup.api("GET", "/api/key/v1?page=0&pageSize=10", undefined, await bearer(claims));

  beforeAll(async () => {
    jwks = await startJwksServer();
    setup = await mountKit({
      mode: "STS",
      stsTokenValidation: {
        aud: AUD,
        iss: ISS,
        jwksUri: jwks.jwksUri,
        leeway: LEEWAY,
        jwksRefreshAfter: 300,
        jwksExpireAfter: 3600,
      },
    });
  });
  afterAll(async () => {
    await unmount(setup);
    await jwks?.close();
  });

  it("accepts a valid token with the needed permission; lists default to the token's organisation", async () => {
    const list = await listKeys();
    expect(list.status, list.text).toBe(200);
    expect(list.json.values.map((k: { id: string }) => k.id)).toEqual([setup.keyA]);
    const detail = await setup.api("GET", `/api/key/v1/${setup.keyA}`, undefined, await bearer());
    expect(detail.json).toMatchObject({ id: setup.keyA, organisationId: setup.orgA });
    // the same organisation named explicitly is fine
    const explicit = await setup.api(
      "GET",
      `/api/key/v1?page=0&pageSize=10&organisationId=${setup.orgA}`,
      undefined,
      await bearer(),
    );
    expect(explicit.json.totalItems).toBe(1);
    // ES256 tokens are accepted too
    const es = await createSigningKey(randomUUID(), "ES256");
    jwks.publish(es);
    const esToken = await token({}, { key: es });
    expect(
      (await setup.api("GET", "/api/key/v1?page=0&pageSize=10", undefined, { authorization: `Bearer ${esToken}` }))
        .status,
    ).toBe(200);
  });

  it("answers a missing, malformed or garbage token with a bare 401", async () => {
    expectBare(await setup.api("GET", "/api/key/v1?page=0&pageSize=10"), 401);
    const valid = await token();
    for (const authorization of [
      "Bearer garbage",
      "Bearer a.b.c",
      "Bearer eyJhbGciOiJFZERTQSJ9.e30.",
      `Bearer ${valid}x`,
      `Bearer ${valid.split(".").slice(0, 2).join(".")}`,
      `Basic ${valid}`,
      valid,
      "Bearer ",
    ]) {
      expectBare(await setup.api("GET", "/api/key/v1?page=0&pageSize=10", undefined, { authorization }), 401);
    }
  });

  it("refuses a token signed by another key under a published kid", async () => {
    const impostor = await createSigningKey(jwks.current.kid);
    const forged = await token({}, { key: impostor });
    expectBare(
      await setup.api("GET", "/api/key/v1?page=0&pageSize=10", undefined, { authorization: `Bearer ${forged}` }),
      401,
    );
  });

  it("refuses unsigned, HMAC-signed and kid-less tokens", async () => {
    const claims = {
      iss: ISS,
      aud: AUD,
      sub: "user-1",
      exp: nowSeconds() + 300,
      organisationId: setup.orgA,
      permissions: ["KEY_LIST"],
    };
    const unsecured = new UnsecuredJWT(claims).encode();
    const hmac = await new SignJWT(claims)
      .setProtectedHeader({ alg: "HS256", kid: jwks.current.kid })
      .sign(new TextEncoder().encode("a-shared-secret-of-at-least-32-bytes!!"));
    const noKid = await new SignJWT(claims).setProtectedHeader({ alg: "EdDSA" }).sign(jwks.current.privateKey);
    for (const jwt of [unsecured, hmac, noKid]) {
      expectBare(
        await setup.api("GET", "/api/key/v1?page=0&pageSize=10", undefined, { authorization: `Bearer ${jwt}` }),
        401,
      );
    }
  });

  it("checks exp with the configured leeway, and nbf", async () => {
    expectBare(await listKeys({ iat: nowSeconds() - 600, exp: nowSeconds() - LEEWAY - 60 }), 401);
    expect((await listKeys({ iat: nowSeconds() - 600, exp: nowSeconds() - 5 })).status).toBe(200);
    expectBare(await listKeys({ nbf: nowSeconds() + LEEWAY + 60 }), 401);
    expect((await listKeys({ nbf: nowSeconds() + 5 })).status).toBe(200);
    expectBare(await listKeys({ exp: undefined }), 401);
  });

  it("checks aud, iss and sub", async () => {
    expectBare(await listKeys({ aud: "someone-else" }), 401);
    expect((await listKeys({ aud: ["someone-else", AUD] })).status).toBe(200);
    expectBare(await listKeys({ iss: "https://evil.example.com" }), 401);
    expectBare(await listKeys({ iss: undefined }), 401);
    expectBare(await listKeys({ sub: undefined }), 401);
  });

  it("answers a missing permission with a bare 403", async () => {
    expectBare(await listKeys({ permissions: ["KEY_DETAIL"] }), 403);
    expectBare(await listKeys({ permissions: [] }), 403);
    expectBare(await listKeys({ permissions: undefined }), 403);
    expectBare(await listKeys({ permissions: ["key_list"] }), 403);
    const createOnlyList = { authorization: `Bearer ${await token({ permissions: ["KEY_LIST"] })}` };
    expectBare(await setup.api("POST", "/api/key/v1", keyBody("no permission"), createOnlyList), 403);
    expectBare(await setup.api("GET", "/api/history/v1?page=0&pageSize=10", undefined, createOnlyList), 403);
    // history list takes either permission
    const systemHistory = { authorization: `Bearer ${await token({ permissions: ["SYSTEM_HISTORY_LIST"] })}` };
    expect((await setup.api("GET", "/api/history/v1?page=0&pageSize=10", undefined, systemHistory)).status).toBe(200);
  });

  it("serves GET /api/config/v1 to any authenticated caller", async () => {
    expect((await setup.api("GET", "/api/config/v1", undefined, await bearer({ permissions: [] }))).status).toBe(200);
    expect((await setup.api("GET", "/api/config/v1", undefined, await bearer({ permissions: undefined }))).status).toBe(
      200,
    );
    expectBare(await setup.api("GET", "/api/config/v1"), 401);
    expectBare(await setup.api("GET", "/api/config/v1", undefined, { authorization: "Bearer garbage" }), 401);
  });

  it("confines a token to its organisation", async () => {
    const headers = await bearer();
    expectError(await setup.api("GET", `/api/key/v1/${setup.keyB}`, undefined, headers), 404, "BR_0037");
    expectBare(await setup.api("POST", "/api/key/v1", keyBody("into B", setup.orgB), headers), 403);
    expectBare(
      await setup.api("GET", `/api/key/v1?page=0&pageSize=10&organisationId=${setup.orgB}`, undefined, headers),
      403,
    );
    // writes default to the token's organisation
    const created = await setup.api("POST", "/api/key/v1", keyBody("into A by default"), headers);
    expect(created.status, created.text).toBe(201);
    expect((await setup.api("GET", `/api/key/v1/${created.json.id}`, undefined, headers)).json.organisationId).toBe(
      setup.orgA,
    );
    expect((await setup.api("POST", "/api/key/v1", keyBody("into A explicitly", setup.orgA), headers)).status).toBe(
      201,
    );
    // org B's token sees only B
    const forB = await bearer({ organisationId: setup.orgB });
    const listB = await setup.api("GET", "/api/key/v1?page=0&pageSize=10", undefined, forB);
    expect(listB.json.values.map((k: { id: string }) => k.id)).toEqual([setup.keyB]);
    expectError(await setup.api("GET", `/api/key/v1/${created.json.id}`, undefined, forB), 404, "BR_0037");
  });

  it("records the user and the acting service of a delegated token in history", async () => {
    const delegated = await bearer({ sub: "user-1", act: { sub: "service-x" }, permissions: ["KEY_CREATE"] });
    const created = await setup.api("POST", "/api/key/v1", keyBody("delegated key"), delegated);
    expect(created.status, created.text).toBe(201);
    const reader = await bearer({ sub: "auditor", permissions: ["HISTORY_LIST", "HISTORY_DETAIL"] });
    const history = await setup.api(
      "GET",
      `/api/history/v1?page=0&pageSize=10&entityIds[]=${created.json.id}`,
      undefined,
      reader,
    );
    expect(history.status, history.text).toBe(200);
    expect(history.json.values).toHaveLength(1);
    const event = history.json.values[0];
    expect(event).toMatchObject({
      action: "CREATED",
      entityType: "KEY",
      entityId: created.json.id,
      organisationId: setup.orgA,
      source: "CORE",
      user: "user-1",
      actor: "service-x",
    });
    expect((await setup.api("GET", `/api/history/v1/${event.id}`, undefined, reader)).json).toMatchObject({
      user: "user-1",
      actor: "service-x",
    });
    // a plain token: user only
    const plain = await setup.api("POST", "/api/key/v1", keyBody("plain key"), await bearer({ sub: "user-2" }));
    const plainHistory = await setup.api(
      "GET",
      `/api/history/v1?page=0&pageSize=10&entityIds[]=${plain.json.id}`,
      undefined,
      reader,
    );
    expect(plainHistory.json.values[0]).toMatchObject({ user: "user-2" });
    expect(plainHistory.json.values[0]).not.toHaveProperty("actor");
    // a malformed act claim is refused
    expectBare(await setup.api("POST", "/api/key/v1", keyBody("bad act"), await bearer({ act: { client: "x" } })), 401);
  });

  it("keeps public endpoints public", () => expectPublicEndpoints(setup));
});

describe(`STS signing key rotation over ${NODE_HTTP.name}`, () => {
  let jwks: JwksServer;
  let setup: Mounted;
  const nowSeconds = () => Math.floor(Date.now() / 1000);
  const request = async (key = jwks.current) => {
    const jwt = await jwks.sign(
      {
        iss: ISS,
        aud: AUD,
        sub: "rotator",
        exp: nowSeconds() + 300,
        organisationId: setup.orgA,
        permissions: ["KEY_LIST"],
      },
      { key },
    );
    return setup.api("GET", "/api/key/v1?page=0&pageSize=10", undefined, { authorization: `Bearer ${jwt}` });
  };

  beforeAll(async () => {
    jwks = await startJwksServer();
    setup = await mountKit({
      mode: "STS",
      stsTokenValidation: {
        aud: AUD,
        iss: ISS,
        jwksUri: jwks.jwksUri,
        leeway: 5,
        jwksRefreshAfter: 300,
        jwksExpireAfter: 3600,
      },
    });
  });
  afterAll(async () => {
    await unmount(setup);
    await jwks?.close();
  });

  it("fetches the JWKS once, then exactly once more for a token with a new kid", async () => {
    expect(jwks.hits).toBe(0);
    const oldKey = jwks.current;
    expect((await request()).status).toBe(200);
    expect(jwks.hits).toBe(1);
    for (let i = 0; i < 3; i++) expect((await request()).status).toBe(200);
    expect(jwks.hits, "cached keys serve later tokens").toBe(1);

    const newKey = await jwks.rotate();
    expect(newKey.kid).not.toBe(oldKey.kid);
    expect((await request(newKey)).status).toBe(200);
    expect(jwks.hits, "one refetch for the unknown kid").toBe(2);
    expect((await request(newKey)).status).toBe(200);
    expect(jwks.hits).toBe(2);

    // the retired key is gone from the refetched set; unknown kids do not hammer the endpoint
    expectBare(await request(oldKey), 401);
    expectBare(await request(await createSigningKey(randomUUID())), 401);
    expect(jwks.hits).toBe(2);
  });
});
