import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Did } from "../../src/domain/did.js";
import type { Identifier } from "../../src/domain/identifier.js";
import type { Key } from "../../src/domain/key.js";
import type { Organisation } from "../../src/domain/organisation.js";
import { CredkitError } from "../../src/errors/credkit-error.js";
import type { Storage } from "../../src/ports/storage.js";
import { describeOnStorage, STORAGE_ADAPTERS, type StorageFixture } from "../support/storage-adapters.js";

const at = (iso: string) => new Date(iso);

function organisation(name: string, created = "2025-01-01T00:00:00.000Z"): Organisation {
  return { id: randomUUID(), name, createdDate: at(created), lastModified: at(created) };
}

function key(organisationId: string, name: string, created = "2025-01-01T00:00:00.000Z", keyType = "EDDSA"): Key {
  return {
    id: randomUUID(),
    organisationId,
    name,
    keyType,
    storageType: "INTERNAL",
    publicKey: new Uint8Array([1, 2, 3, 255]),
    keyReference: new Uint8Array(64).fill(7),
    isRemote: false,
    createdDate: at(created),
    lastModified: at(created),
  };
}

async function expectCode(promise: Promise<unknown>, code: string) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CredkitError);
  expect((error as CredkitError).code).toBe(code);
}

for (const adapter of STORAGE_ADAPTERS) {
  describeOnStorage(adapter, `storage contract: ${adapter.name}`, () => {
    let fixture: StorageFixture;
    let storage: Storage;
    let org: Organisation;

    beforeAll(async () => {
      fixture = await adapter.open();
      storage = fixture.storage;
      org = organisation("Contract Org");
      await storage.organisations.insert(org);
    });
    afterAll(async () => {
      await fixture?.dispose();
    });

    it("round-trips an entity with every column type, leaving absent optionals out", async () => {
      const k = key(org.id, "roundtrip");
      await storage.keys.insert(k);
      const loaded = await storage.keys.get(k.id);
      expect(loaded).toEqual(k);
      expect(loaded?.publicKey).toBeInstanceOf(Uint8Array);
      const o = await storage.organisations.get(org.id);
      expect(o).toEqual(org);
      expect(o && "deactivatedAt" in o).toBe(false);
      expect(await storage.keys.get(randomUUID())).toBeUndefined();
    });

    it("keeps child collections in order and replaces them on update", async () => {
      const [a, b] = [key(org.id, "did-a"), key(org.id, "did-b")];
      await storage.keys.insert(a);
      await storage.keys.insert(b);
      const did: Did = {
        id: randomUUID(),
        organisationId: org.id,
        name: "did one",
        did: `did:key:z${randomUUID()}`,
        type: "LOCAL",
        method: "KEY",
        deactivated: false,
        keys: [
          { role: "AUTHENTICATION", keyId: a.id, reference: "key-0" },
          { role: "ASSERTION_METHOD", keyId: b.id, reference: "key-1" },
          { role: "KEY_AGREEMENT", keyId: a.id, reference: "key-0" },
        ],
        createdDate: at("2025-01-02T00:00:00.000Z"),
        lastModified: at("2025-01-02T00:00:00.000Z"),
      };
      await storage.dids.insert(did);
      expect(await storage.dids.get(did.id)).toEqual(did);
      expect(await storage.dids.update(did.id, { keys: [did.keys[1]!], deactivated: true })).toBe(true);
      const updated = await storage.dids.get(did.id);
      expect(updated?.keys).toEqual([did.keys[1]]);
      expect(updated?.deactivated).toBe(true);
      expect(await storage.dids.delete(did.id)).toBe(true);
      expect(await storage.dids.get(did.id)).toBeUndefined();
    });

    it("writes and reads back more child rows than one multi-row insert holds, in order", async () => {
      const signer = key(org.id, "many-children");
      await storage.keys.insert(signer);
      const keys = Array.from({ length: 123 }, (_, i) => ({
        role: "AUTHENTICATION",
        keyId: signer.id,
        reference: `key-${i}`,
      }));
      const did: Did = {
        id: randomUUID(),
        organisationId: org.id,
        name: "did many",
        did: `did:key:z${randomUUID()}`,
        type: "LOCAL",
        method: "KEY",
        deactivated: false,
        keys: keys as Did["keys"],
        createdDate: at("2025-01-02T00:00:00.000Z"),
        lastModified: at("2025-01-02T00:00:00.000Z"),
      };
      await storage.dids.insert(did);
      expect((await storage.dids.get(did.id))?.keys).toEqual(keys);
      expect(await storage.dids.update(did.id, { keys: keys.slice(0, 51) as Did["keys"] })).toBe(true);
      expect((await storage.dids.get(did.id))?.keys).toEqual(keys.slice(0, 51));
      expect(await storage.dids.findMany({ op: "eq", column: "id", value: did.id }, { limit: 1 })).toHaveLength(1);
      expect(await storage.dids.delete(did.id)).toBe(true);
    });

    it("maps uniqueness violations to the BR code of the rule and writes nothing", async () => {
      const first = key(org.id, "unique-name");
      await storage.keys.insert(first);
      await expectCode(storage.keys.insert(key(org.id, "unique-name")), "BR_0066");
      await expectCode(storage.keys.insert({ ...key(org.id, "other"), id: first.id }), "BR_0066");
      await expectCode(storage.organisations.insert({ ...organisation("dup"), id: org.id }), "BR_0023");
      expect(await storage.keys.count({ op: "eq", column: "name", value: "unique-name" })).toBe(1);
      // the same name in another organisation is fine
      const other = organisation("Other Org");
      await storage.organisations.insert(other);
      await storage.keys.insert(key(other.id, "unique-name"));
      // renaming into a clash fails too
      const renamed = key(org.id, "to-rename");
      await storage.keys.insert(renamed);
      await expectCode(storage.keys.update(renamed.id, { name: "unique-name" }), "BR_0066");
      expect((await storage.keys.get(renamed.id))?.name).toBe("to-rename");
    });

    it("enforces partial uniqueness only among rows that are not soft-deleted", async () => {
      const make = (): Identifier => ({
        id: randomUUID(),
        organisationId: org.id,
        name: "same identifier",
        type: "KEY",
        state: "ACTIVE",
        isRemote: false,
        trustInformation: { nested: [1, "two"] },
        createdDate: at("2025-01-01T00:00:00.000Z"),
        lastModified: at("2025-01-01T00:00:00.000Z"),
      });
      const first = make();
      await storage.identifiers.insert(first);
      expect((await storage.identifiers.get(first.id))?.trustInformation).toEqual({ nested: [1, "two"] });
      await expectCode(storage.identifiers.insert(make()), "BR_0240");
      await storage.identifiers.update(first.id, { deletedAt: at("2025-02-01T00:00:00.000Z") });
      await storage.identifiers.insert(make());
    });

    it("filters, sorts and pages in the adapter", async () => {
      const tenant = organisation("Paging Org");
      await storage.organisations.insert(tenant);
      const names = ["Alpha", "alpine", "Beta", "gamma", "ALPS_1", "alps%2", "delta"];
      const keys = names.map((n, i) =>
        key(tenant.id, n, `2025-03-0${i + 1}T00:00:00.000Z`, i % 2 === 0 ? "EDDSA" : "ECDSA"),
      );
      for (const k of keys) await storage.keys.insert(k);
      const inTenant = { op: "eq", column: "organisationId", value: tenant.id } as const;

      const page0 = await storage.keys.list({ where: inTenant, page: 0, pageSize: 3 });
      expect(page0.totalItems).toBe(7);
      expect(page0.totalPages).toBe(3);
      expect(page0.values.map((k) => k.name)).toEqual(["delta", "alps%2", "ALPS_1"]);
      const page2 = await storage.keys.list({ where: inTenant, page: 2, pageSize: 3 });
      expect(page2.values.map((k) => k.name)).toEqual(["Alpha"]);

      const prefix = await storage.keys.list({
        where: { op: "and", conditions: [inTenant, { op: "startsWith", column: "name", value: "alp" }] },
        orderBy: [{ column: "name", direction: "ASC" }],
        page: 0,
        pageSize: 10,
      });
      expect(prefix.values.map((k) => k.name)).toEqual(["ALPS_1", "Alpha", "alpine", "alps%2"]);

      // LIKE wildcards in user input are literal
      const literal = await storage.keys.findMany({
        op: "and",
        conditions: [inTenant, { op: "startsWith", column: "name", value: "alps%" }],
      });
      expect(literal.map((k) => k.name)).toEqual(["alps%2"]);
      const underscore = await storage.keys.findMany({
        op: "and",
        conditions: [inTenant, { op: "contains", column: "name", value: "_" }],
      });
      expect(underscore.map((k) => k.name)).toEqual(["ALPS_1"]);

      const exact = await storage.keys.findMany({
        op: "and",
        conditions: [inTenant, { op: "equalsIgnoreCase", column: "name", value: "alpha" }],
      });
      expect(exact.map((k) => k.name)).toEqual(["Alpha"]);

      const typed = await storage.keys.count({
        op: "and",
        conditions: [inTenant, { op: "in", column: "keyType", values: ["ECDSA"] }],
      });
      expect(typed).toBe(3);

      const range = await storage.keys.findMany(
        {
          op: "and",
          conditions: [
            inTenant,
            { op: "gte", column: "createdDate", value: at("2025-03-02T00:00:00.000Z") },
            { op: "lt", column: "createdDate", value: at("2025-03-04T00:00:00.000Z") },
          ],
        },
        { orderBy: [{ column: "createdDate", direction: "ASC" }] },
      );
      expect(range.map((k) => k.name)).toEqual(["alpine", "Beta"]);

      const sortedDesc = await storage.keys.findMany(inTenant, {
        orderBy: [
          { column: "keyType", direction: "DESC" },
          { column: "name", direction: "ASC" },
        ],
      });
      expect(sortedDesc.map((k) => k.name)).toEqual(["ALPS_1", "Alpha", "Beta", "delta", "alpine", "alps%2", "gamma"]);

      const none = await storage.keys.list({
        where: { op: "and", conditions: [inTenant, { op: "in", column: "id", values: [] }] },
        page: 0,
        pageSize: 5,
      });
      expect(none).toEqual({ values: [], totalItems: 0, totalPages: 0 });
    });

    it("filters through related tables with exists", async () => {
      const tenant = organisation("Exists Org");
      await storage.organisations.insert(tenant);
      const k = key(tenant.id, "exists-key");
      await storage.keys.insert(k);
      const did: Did = {
        id: randomUUID(),
        organisationId: tenant.id,
        name: "exists did",
        did: `did:web:example.com:${randomUUID()}`,
        type: "LOCAL",
        method: "WEB",
        deactivated: false,
        keys: [{ role: "ASSERTION_METHOD", keyId: k.id, reference: "key-0" }],
        createdDate: at("2025-01-01T00:00:00.000Z"),
        lastModified: at("2025-01-01T00:00:00.000Z"),
      };
      await storage.dids.insert(did);
      const base = { organisationId: tenant.id, state: "ACTIVE" as const, isRemote: false };
      const viaDid: Identifier = {
        ...base,
        id: randomUUID(),
        name: "via did",
        type: "DID",
        didId: did.id,
        createdDate: at("2025-01-01T00:00:00.000Z"),
        lastModified: at("2025-01-01T00:00:00.000Z"),
      };
      const viaKey: Identifier = {
        ...base,
        id: randomUUID(),
        name: "via key",
        type: "KEY",
        keyId: k.id,
        createdDate: at("2025-01-02T00:00:00.000Z"),
        lastModified: at("2025-01-02T00:00:00.000Z"),
      };
      await storage.identifiers.insert(viaDid);
      await storage.identifiers.insert(viaKey);
      const byMethod = await storage.identifiers.findMany({
        op: "exists",
        table: "did",
        on: { id: "didId" },
        where: { op: "in", column: "method", values: ["WEB"] },
      });
      expect(byMethod.map((i) => i.id)).toEqual([viaDid.id]);
      const byRole = await storage.dids.findMany({
        op: "exists",
        table: "did_key",
        on: { didId: "id" },
        where: { op: "eq", column: "role", value: "ASSERTION_METHOD" },
      });
      expect(byRole.map((d) => d.id)).toContain(did.id);
      const notWeb = await storage.identifiers.findMany({
        op: "and",
        conditions: [
          { op: "eq", column: "organisationId", value: tenant.id },
          {
            op: "not",
            condition: {
              op: "exists",
              table: "did",
              on: { id: "didId" },
              where: { op: "eq", column: "method", value: "WEB" },
            },
          },
        ],
      });
      expect(notWeb.map((i) => i.id)).toEqual([viaKey.id]);
    });

    it("rolls back every write of a failed transaction, and commits a successful one", async () => {
      const before = await storage.organisations.count();
      const boom = new Error("boom");
      await expect(
        storage.transaction(async (tx) => {
          await tx.organisations.insert(organisation("tx-1"));
          await tx.transaction(async (inner) => inner.organisations.insert(organisation("tx-2")));
          throw boom;
        }),
      ).rejects.toBe(boom);
      expect(await storage.organisations.count()).toBe(before);

      await expectCode(
        storage.transaction(async (tx) => {
          await tx.organisations.insert(organisation("tx-3"));
          await tx.keys.insert(key(org.id, "tx-dup"));
          await tx.keys.insert(key(org.id, "tx-dup"));
        }),
        "BR_0066",
      );
      expect(await storage.organisations.findOne({ op: "eq", column: "name", value: "tx-3" })).toBeUndefined();
      expect(await storage.keys.count({ op: "eq", column: "name", value: "tx-dup" })).toBe(0);

      const committed = await storage.transaction(async (tx) => {
        const o = organisation("tx-ok");
        await tx.organisations.insert(o);
        await tx.organisations.update(o.id, { name: "tx-ok-renamed" });
        return o.id;
      });
      expect((await storage.organisations.get(committed))?.name).toBe("tx-ok-renamed");
    });

    it("keeps concurrent transactions on one handle apart", async () => {
      const tenant = organisation("Concurrent tx Org");
      await storage.organisations.insert(tenant);
      const inTenant = { op: "eq", column: "organisationId", value: tenant.id } as const;
      const outcomes = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          storage
            .transaction(async (tx) => {
              await tx.keys.insert(key(tenant.id, `tx-${i}-a`));
              // yield to the event loop mid-transaction: other transactions and plain writes must not slip in
              await new Promise((resolve) => setTimeout(resolve, 1));
              await tx.keys.insert(key(tenant.id, `tx-${i}-b`));
              if (i % 3 === 0) throw new Error("rollback");
            })
            .then(
              () => "committed",
              () => "rolled back",
            ),
        ),
      );
      await storage.keys.insert(key(tenant.id, "plain"));
      const committed = outcomes.filter((o) => o === "committed").length;
      expect(committed).toBe(6);
      expect(await storage.keys.count(inTenant)).toBe(committed * 2 + 1);
    });

    it("applies a conditional update only when its condition still holds", async () => {
      const o = organisation("conditional");
      await storage.organisations.insert(o);
      const notDeactivated = { op: "isNull", column: "deactivatedAt" } as const;
      expect(
        await storage.organisations.update(
          o.id,
          { deactivatedAt: at("2025-05-01T00:00:00.000Z") },
          { where: notDeactivated },
        ),
      ).toBe(true);
      expect(
        await storage.organisations.update(
          o.id,
          { deactivatedAt: at("2025-06-01T00:00:00.000Z") },
          { where: notDeactivated },
        ),
      ).toBe(false);
      expect((await storage.organisations.get(o.id))?.deactivatedAt).toEqual(at("2025-05-01T00:00:00.000Z"));
      expect(await storage.organisations.update(o.id, { deactivatedAt: undefined })).toBe(true);
      expect((await storage.organisations.get(o.id))?.deactivatedAt).toBeUndefined();
      expect(await storage.organisations.update(randomUUID(), { name: "x" })).toBe(false);
    });

    it("updates and deletes many rows by condition", async () => {
      const tenant = organisation("Bulk Org");
      await storage.organisations.insert(tenant);
      for (const n of ["b1", "b2", "b3"]) await storage.keys.insert(key(tenant.id, n));
      const inTenant = { op: "eq", column: "organisationId", value: tenant.id } as const;
      expect(await storage.keys.updateMany(inTenant, { isRemote: true })).toBe(3);
      expect(
        await storage.keys.count({ op: "and", conditions: [inTenant, { op: "eq", column: "isRemote", value: true }] }),
      ).toBe(3);
      expect(
        await storage.keys.deleteMany({ op: "and", conditions: [inTenant, { op: "ne", column: "name", value: "b2" }] }),
      ).toBe(2);
      expect((await storage.keys.findMany(inTenant)).map((k) => k.name)).toEqual(["b2"]);
    });

    it("round-trips every aggregate of the issuance tables, with related sorting", async () => {
      const now = at("2025-04-01T00:00:00.000Z");
      const schemaA = {
        id: randomUUID(),
        organisationId: org.id,
        name: "b schema",
        format: "SD_JWT_VC",
        schemaId: `urn:vct:${randomUUID()}`,
        importedSourceUrl: "https://example.com/s",
        claims: [
          {
            id: randomUUID(),
            key: "name",
            datatype: "STRING",
            required: true,
            array: false,
            claims: [],
            createdDate: now,
            lastModified: now,
          },
        ],
        allowSuspension: false,
        requiresWalletInstanceAttestation: false,
        transactionCode: { type: "NUMERIC" as const, length: 6 },
        createdDate: now,
        lastModified: now,
      };
      const schemaB = { ...schemaA, id: randomUUID(), name: "a schema", schemaId: `urn:vct:${randomUUID()}` };
      await storage.credentialSchemas.insert(schemaA);
      await storage.credentialSchemas.insert(schemaB);
      await expectCode(storage.credentialSchemas.insert({ ...schemaA, id: randomUUID(), name: "other" }), "BR_0007");
      const loaded = await storage.credentialSchemas.get(schemaA.id);
      expect(JSON.parse(JSON.stringify(loaded))).toEqual(JSON.parse(JSON.stringify(schemaA)));
      const credential = (schemaId: string) => ({
        id: randomUUID(),
        organisationId: org.id,
        credentialSchemaId: schemaId,
        role: "ISSUER" as const,
        state: "CREATED" as const,
        protocol: "OPENID4VCI_FINAL1",
        claims: [{ id: randomUUID(), claimSchemaId: schemaA.claims[0]!.id, path: "name", value: "Ada" }],
        statusListIndex: 7,
        createdDate: now,
        lastModified: now,
      });
      const c1 = credential(schemaA.id);
      const c2 = credential(schemaB.id);
      await storage.credentials.insert(c1);
      await storage.credentials.insert(c2);
      expect(await storage.credentials.get(c1.id)).toEqual(c1);
      const sorted = await storage.credentials.findMany(
        { op: "in", column: "id", values: [c1.id, c2.id] },
        {
          orderBy: [
            {
              column: "name",
              direction: "ASC",
              from: { table: "credential_schema", on: { id: "credentialSchemaId" } },
            },
          ],
        },
      );
      expect(sorted.map((c) => c.id)).toEqual([c2.id, c1.id]);
      const byClaim = await storage.credentials.findMany({
        op: "exists",
        table: "claim",
        on: { credentialId: "id" },
        where: { op: "contains", column: "value", value: "ad" },
      });
      expect(byClaim.map((c) => c.id).sort()).toEqual([c1.id, c2.id].sort());

      const interaction = {
        id: randomUUID(),
        organisationId: org.id,
        interactionType: "ISSUANCE" as const,
        protocol: "OPENID4VCI_FINAL1",
        data: { credentialId: c1.id },
        accessTokenHash: `h-${randomUUID()}`,
        txCodeAttempts: 0,
        expiresAt: now,
        createdDate: now,
        lastModified: now,
      };
      await storage.interactions.insert(interaction);
      expect(
        await storage.interactions.findOne({ op: "eq", column: "accessTokenHash", value: interaction.accessTokenHash }),
      ).toEqual(interaction);
      await expectCode(storage.interactions.insert({ ...interaction, id: randomUUID() }), "BR_0357");

      const list = {
        id: randomUUID(),
        organisationId: org.id,
        issuerIdentifierId: randomUUID(),
        revocationMethod: "TOKENSTATUSLIST",
        bits: 2,
        size: 1024,
        allocated: 0,
        createdDate: now,
        lastModified: now,
      };
      await storage.revocationLists.insert(list);
      const entry = {
        id: `${list.id}:5`,
        listId: list.id,
        index: 5,
        credentialId: c1.id,
        status: 0,
        createdDate: now,
        lastModified: now,
      };
      await storage.revocationEntries.insert(entry);
      await expectCode(storage.revocationEntries.insert({ ...entry, credentialId: c2.id }), "BR_0357");
      const nonce = {
        id: randomUUID(),
        protocol: "OPENID4VCI_FINAL1",
        expiresAt: now,
        createdDate: now,
        lastModified: now,
      };
      await storage.nonces.insert(nonce);
      const unused = { op: "isNull", column: "usedAt" } as const;
      expect(await storage.nonces.update(nonce.id, { usedAt: now }, { where: unused })).toBe(true);
      expect(await storage.nonces.update(nonce.id, { usedAt: now }, { where: unused })).toBe(false);
    });

    it("keeps uniqueness and single-use updates under concurrent writers", async () => {
      const other = await fixture.openAnother();
      const tenant = organisation("Concurrency Org");
      await storage.organisations.insert(tenant);
      const attempts = Array.from({ length: 20 }, (_, i) =>
        (i % 2 === 0 ? storage : other).keys.insert(key(tenant.id, "race")).then(
          () => "ok",
          (e: CredkitError) => e.code,
        ),
      );
      const outcomes = await Promise.all(attempts);
      expect(outcomes.filter((o) => o === "ok")).toHaveLength(1);
      expect(outcomes.filter((o) => o === "BR_0066")).toHaveLength(19);

      const target = organisation("single-use");
      await storage.organisations.insert(target);
      const claims = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          (i % 2 === 0 ? storage : other).organisations.update(
            target.id,
            { deactivatedAt: at("2025-07-01T00:00:00.000Z") },
            { where: { op: "isNull", column: "deactivatedAt" } },
          ),
        ),
      );
      expect(claims.filter(Boolean)).toHaveLength(1);
    });
  });
}
