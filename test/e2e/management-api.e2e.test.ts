import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Credkit } from "../../src/credkit.js";
import { createTestKit, TEST_ENCRYPTION_KEY } from "../../src/testing/create-test-kit.js";
import { type ApiResponse, createApiClient, HTTP_ADAPTERS, type MountedKit } from "../support/http-harness.js";

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function expectError(response: ApiResponse, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.json).toMatchObject({ code, message: expect.any(String) });
  expect(response.text).not.toMatch(/at .+\.(ts|js):\d+/);
}

for (const adapter of HTTP_ADAPTERS) {
  describe(`management API over ${adapter.name}`, () => {
    let kit: Credkit;
    let mounted: MountedKit;
    let api: ReturnType<typeof createApiClient>;
    let orgId: string;

    const keyBody = (name: string, keyType = "EDDSA") => ({
      organisationId: orgId,
      keyType,
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

    beforeAll(async () => {
      kit = await createTestKit({
        config: { app: { coreBaseUrl: "https://issuer.example.com", enableHistoryCreateEndpoint: true } },
      });
      mounted = await adapter.mount(kit);
      api = createApiClient(mounted.baseUrl);
      const created = await api("POST", "/api/organisation/v1", { name: "E2E org" });
      expect(created.status).toBe(201);
      orgId = created.json.id;
    });
    afterAll(async () => {
      await mounted?.close();
      await kit?.close();
    });

    it("organisations: create, detail, list, update, STS slug", async () => {
      const id = randomUUID();
      expect((await api("POST", "/api/organisation/v1", { id })).json).toEqual({ id });
      const detail = await api("GET", `/api/organisation/v1/${id}`);
      expect(detail.status).toBe(200);
      expect(detail.json).toMatchObject({ id, name: id });
      expect(detail.json.createdDate).toMatch(TIMESTAMP);
      expect(detail.json).not.toHaveProperty("deactivatedAt");
      expect(detail.headers.get("cache-control")).toBe("no-store");
      expect(detail.headers.get("x-content-type-options")).toBe("nosniff");
      expectError(await api("POST", "/api/organisation/v1", { id }), 400, "BR_0023");
      expectError(await api("POST", "/api/organisation/v1", { slug: "nope" }), 400, "BR_0084");
      expectError(await api("GET", `/api/organisation/v1/${randomUUID()}`), 404, "BR_0022");
      expect(
        (await api("PATCH", `/api/organisation/v1/${id}`, { name: `renamed ${id}`, deactivate: true })).status,
      ).toBe(204);
      expect((await api("GET", `/api/organisation/v1/${id}`)).json.deactivatedAt).toMatch(TIMESTAMP);
      const list = await api(
        "GET",
        `/api/organisation/v1?page=0&pageSize=5&name=${encodeURIComponent(`renamed ${id}`)}`,
      );
      expect(list.json).toMatchObject({ totalItems: 1, totalPages: 1 });

      const sts = await api("POST", "/api/sts/organisation/v1", { name: `sts ${id}`, slug: `acme-${id.slice(0, 8)}` });
      expect(sts.status).toBe(201);
      expect((await api("PATCH", `/api/sts/organisation/v1/${sts.json.id}`, { slug: "acme-2" })).status).toBe(204);
      expect((await api("GET", `/api/sts/organisation/v1/${sts.json.id}`)).json.slug).toBe("acme-2");
      expectError(
        await api("PATCH", `/api/sts/organisation/v1/${sts.json.id}`, { slug: "no_underscores" }),
        400,
        "BR_0084",
      );
    });

    it("keys: create each algorithm, detail, list, and refuse bad input", async () => {
      const created = await api("POST", "/api/key/v1", keyBody("ed"));
      expect(created.status).toBe(201);
      const detail = await api("GET", `/api/key/v1/${created.json.id}`);
      expect(detail.json).toMatchObject({
        id: created.json.id,
        organisationId: orgId,
        name: "ed",
        keyType: "EDDSA",
        storageType: "INTERNAL",
        isRemote: false,
      });
      expect(detail.json.publicKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Object.keys(detail.json).sort()).toEqual([
        "createdDate",
        "id",
        "isRemote",
        "keyType",
        "lastModified",
        "name",
        "organisationId",
        "publicKey",
        "storageType",
      ]);
      expect((await api("POST", "/api/key/v1", keyBody("ec", "ECDSA"))).status).toBe(201);
      expect((await api("POST", "/api/key/v1", keyBody("pq", "ML_DSA"))).status).toBe(201);

      const list = await api(
        "GET",
        `/api/key/v1?page=0&pageSize=10&organisationId=${orgId}&keyTypes[]=EDDSA&keyTypes[]=ECDSA&sort=name`,
      );
      expect(list.status).toBe(200);
      expect(list.json.values.map((k: { name: string }) => k.name)).toEqual(["ec", "ed"]);
      expect(list.json.values[0]).not.toHaveProperty("organisationId");

      expectError(await api("POST", "/api/key/v1", keyBody("ed")), 400, "BR_0066");
      expectError(await api("POST", "/api/key/v1", { ...keyBody("x"), keyType: "RSA" }), 400, "BR_0043");
      expectError(await api("POST", "/api/key/v1", { ...keyBody("x"), extra: 1 }), 400, "BR_0084");
      expectError(
        await api("POST", "/api/key/v1", { ...keyBody("x"), storageParams: { jwk: { kty: "EC" } } }),
        400,
        "BR_0096",
      );
      // a host body parser (express.json) may answer malformed JSON itself, still with 400
      expect((await api("POST", "/api/key/v1", "{not json", { "content-type": "application/json" })).status).toBe(400);
      expect((await api("POST", "/api/key/v1", "name=x", { "content-type": "text/plain" })).status).toBe(415);
      expectError(await api("GET", "/api/key/v1/not-a-uuid"), 404, "BR_0037");
      expectError(await api("GET", `/api/key/v1/${randomUUID()}`), 404, "BR_0037");
      expectError(await api("GET", "/api/key/v1"), 400, "BR_0084");
      expectError(await api("GET", `/api/key/v1?page=0&pageSize=10&organisationId=${orgId}&bogus=1`), 400, "BR_0084");
      expectError(await api("GET", `/api/key/v1/${created.json.id}?bogus=1`), 400, "BR_0084");
    });

    it("DIDs and identifiers: create, detail, list, deactivate, resolve, delete", async () => {
      const ed = (await api("POST", "/api/key/v1", keyBody(`did-ed-${randomUUID()}`))).json.id;
      const ec = (await api("POST", "/api/key/v1", keyBody(`did-ec-${randomUUID()}`, "ECDSA"))).json.id;

      const didCreated = await api("POST", "/api/did/v1", {
        organisationId: orgId,
        name: `web ${ec}`,
        method: "WEB",
        keys: roles(ec),
      });
      expect(didCreated.status).toBe(201);
      const did = await api("GET", `/api/did/v1/${didCreated.json.id}`);
      expect(did.json).toMatchObject({ type: "LOCAL", method: "WEB", deactivated: false, organisationId: orgId });
      expect(did.json.did).toBe(`did:web:issuer.example.com:ssi:did-web:v1:${didCreated.json.id}`);
      expect(did.json.keys.assertionMethod[0].id).toBe(ec);

      const served = await api("GET", `/ssi/did-web/v1/${didCreated.json.id}/did.json`);
      expect(served.status).toBe(200);
      expect(served.json.id).toBe(did.json.did);
      const resolved = await api("GET", `/api/did-resolver/v1/${encodeURIComponent(did.json.did)}`);
      expect(resolved.json).toEqual(served.json);
      const dids = await api("GET", `/api/did/v1?page=0&pageSize=10&organisationId=${orgId}&didMethods=WEB`);
      expect(dids.json.values.map((d: { id: string }) => d.id)).toContain(didCreated.json.id);

      expect((await api("PATCH", `/api/did/v1/${didCreated.json.id}`, { deactivated: true })).status).toBe(204);
      expect((await api("GET", `/ssi/did-web/v1/${didCreated.json.id}/did.json`)).status).toBe(404);
      expectError(await api("PATCH", `/api/did/v1/${didCreated.json.id}`, { deactivated: false }), 400, "BR_0256");

      const byDid = await api("POST", "/api/identifier/v1", {
        organisationId: orgId,
        name: `id ${ed}`,
        did: { method: "KEY", keys: roles(ed) },
      });
      expect(byDid.status).toBe(201);
      const identifier = await api("GET", `/api/identifier/v1/${byDid.json.id}`);
      expect(identifier.json).toMatchObject({ type: "DID", state: "ACTIVE", isRemote: false });
      expect(identifier.json.did.did).toMatch(/^did:key:z6Mk/);
      const byKey = await api("POST", "/api/identifier/v1", {
        organisationId: orgId,
        name: `key ${ed}`,
        key: { keyId: ed },
      });
      expect(byKey.status).toBe(201);
      expect((await api("GET", `/api/identifier/v1/${byKey.json.id}`)).json.key.id).toBe(ed);
      expectError(await api("POST", "/api/identifier/v1", { organisationId: orgId, name: "none" }), 400, "BR_0206");

      const identifiers = await api("GET", `/api/identifier/v1?page=0&pageSize=50&organisationId=${orgId}&types[]=KEY`);
      expect(identifiers.json.values.map((i: { id: string }) => i.id)).toContain(byKey.json.id);
      expect(identifiers.json.values.every((i: { type: string }) => i.type === "KEY")).toBe(true);

      expect((await api("DELETE", `/api/identifier/v1/${byKey.json.id}`)).status).toBe(204);
      expectError(await api("GET", `/api/identifier/v1/${byKey.json.id}`), 404, "BR_0207");
      expectError(await api("DELETE", `/api/identifier/v1/${byKey.json.id}`), 404, "BR_0207");
    });

    it("history: list, detail, push from other services", async () => {
      const list = await api("GET", `/api/history/v1?page=0&pageSize=100&organisationId=${orgId}&entityTypes[]=KEY`);
      expect(list.status).toBe(200);
      expect(list.json.totalItems).toBeGreaterThan(0);
      const first = list.json.values[0];
      expect(first).toMatchObject({ entityType: "KEY", source: "CORE", organisationId: orgId });
      expect((await api("GET", `/api/history/v1/${first.id}`)).json.id).toBe(first.id);
      expectError(await api("GET", `/api/history/v1/${randomUUID()}`), 404, "BR_0100");
      const pushed = await api("POST", "/api/history/v1", {
        action: "CREATED",
        name: "bridge login",
        entityType: "USER",
        organisationId: orgId,
        source: "BRIDGE",
        metadata: { a: 1 },
      });
      expect(pushed.status).toBe(201);
      expect((await api("GET", `/api/history/v1/${pushed.json.id}`)).json.metadata).toEqual({ External: { a: 1 } });
    });

    it("system endpoints, config and documents", async () => {
      expect((await api("GET", "/health")).status).toBe(204);
      const buildInfo = await api("GET", "/build-info");
      expect(buildInfo.json).toHaveProperty("tag");
      expect((await api("GET", "/api/build-info/v1")).json).toEqual(buildInfo.json);
      const config = await api("GET", "/api/config/v1");
      expect(config.status).toBe(200);
      expect(config.json.keyAlgorithm.EDDSA).toMatchObject({ type: "EDDSA", enabled: true });
      expect(config.text).not.toContain(TEST_ENCRYPTION_KEY);
      const metrics = await api("GET", "/metrics");
      expect(metrics.text).toMatch(
        /credkit_http_requests_total\{method="GET",route="\/api\/config\/v1",status="200"\} \d+/,
      );
      const openapi = await api("GET", "/api-docs/openapi.json");
      expect(openapi.json.openapi).toBe("3.0.3");
      expect(openapi.json.paths["/api/key/v1"].post.requestBody).toBeDefined();
      expect((await api("GET", "/api-docs")).text).toContain("/api/identifier/v1");
      expect((await api("GET", "/api/nothing/v1")).status).toBe(404);
      expect((await api("GET", "/nothing")).status).toBe(404);
    });
  });
}
