/**
 * NUL (U+0000) in management input: PostgreSQL cannot store it, SQLite and memory could. Every adapter answers the
 * same 400 BR_0084 and stores nothing — for body fields, query filters and path parameters — and a protocol endpoint
 * given a NUL never answers 5xx. Below the HTTP layer (SDK callers), the PostgreSQL driver maps the database's refusal
 * to BR_0084 as well.
 */
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Credkit } from "../../src/credkit.js";
import { credkitNode } from "../../src/http/mount.js";
import { createTestKit } from "../../src/testing/create-test-kit.js";
import { createApiClient } from "../support/http-harness.js";
import { describeOnStorage, STORAGE_ADAPTERS, type StorageFixture } from "../support/storage-adapters.js";

for (const storageCase of STORAGE_ADAPTERS) {
  describeOnStorage(storageCase, `NUL characters in input on ${storageCase.name}`, () => {
    let fixture: StorageFixture;
    let kit: Credkit;
    let server: Server;
    let baseUrl: string;
    let api: ReturnType<typeof createApiClient>;
    let orgId: string;

    beforeAll(async () => {
      fixture = await storageCase.open();
      kit = await createTestKit({ storage: fixture.storage });
      server = createServer(credkitNode(kit));
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
      baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      api = createApiClient(baseUrl);
      orgId = (await kit.organisations.create({ name: `nul ${randomUUID()}` })).id;
    });
    afterAll(async () => {
      server?.closeAllConnections();
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      await kit?.close();
      await fixture?.dispose();
    });

    const keyCount = async () =>
      (await api("GET", `/api/key/v1?page=0&pageSize=1&organisationId=${orgId}`)).json.totalItems as number;

    it("refuses a NUL in a body field with 400 BR_0084 naming the field, storing nothing", async () => {
      const before = await keyCount();
      const response = await api("POST", "/api/key/v1", {
        organisationId: orgId,
        keyType: "EDDSA",
        keyParams: {},
        name: "bad\u0000name",
        storageType: "INTERNAL",
        storageParams: {},
      });
      expect(response.status, response.text).toBe(400);
      expect(response.json).toMatchObject({
        code: "BR_0084",
        cause: { message: expect.stringContaining("body.name") },
      });
      expect(await keyCount()).toBe(before);
    });

    it("refuses a NUL in a query filter and in a path parameter", async () => {
      const filtered = await api("GET", `/api/key/v1?page=0&pageSize=10&organisationId=${orgId}&name=a%00b`);
      expect({ status: filtered.status, code: filtered.json.code }).toEqual({ status: 400, code: "BR_0084" });
      const path = await api("GET", "/api/key/v1/abc%00def");
      expect(path.status).toBe(400);
      expect(path.json.code).toBe("BR_0084");
    });

    it("a protocol endpoint given a NUL answers 4xx, never 5xx", async () => {
      // an unknown schema id with a NUL reaches the storage lookup
      const response = await fetch(`${baseUrl}/ssi/openid4vci/final-1.0/abc%00def/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "urn:ietf:params:oauth:grant-type:pre-authorized_code",
          "pre-authorized_code": "abc\u0000def",
        }).toString(),
      });
      expect([400, 404]).toContain(response.status);
      expect(await response.text()).not.toContain("    at ");
    });

    it("SDK callers below HTTP get BR_0084 (PostgreSQL) or the value stored as given (SQLite, memory)", async () => {
      const create = kit.organisations.create({ name: `sdk\u0000${randomUUID()}` });
      if (storageCase.name === "postgres") {
        await expect(create).rejects.toMatchObject({ code: "BR_0084" });
      } else {
        await expect(create).resolves.toMatchObject({ id: expect.any(String) });
      }
    });
  });
}
