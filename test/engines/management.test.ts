import { createPublicKey, verify as nodeVerify, randomUUID } from "node:crypto";
import { join } from "node:path";
import { exportJWK, generateKeyPair } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Credkit, createCredkit } from "../../src/credkit.js";
import { decodeBase64url } from "../../src/encoding/base64url.js";
import { CredkitError } from "../../src/errors/credkit-error.js";
import { memoryStorage } from "../../src/storage/memory/index.js";
import { sqliteStorage } from "../../src/storage/sql/sqlite.js";
import { TEST_ENCRYPTION_KEY } from "../../src/testing/create-test-kit.js";
import { createTempDir } from "../support/temp-dir.js";

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    if (!(error instanceof CredkitError)) throw error;
    return error.code;
  }
}

const ADAPTERS = [
  { name: "memory", open: async () => ({ storage: memoryStorage(), cleanup: () => {} }) },
  {
    name: "sqlite",
    open: async () => {
      const dir = createTempDir();
      return { storage: await sqliteStorage(join(dir.path, "kit.db")), cleanup: dir.remove };
    },
  },
];

for (const adapter of ADAPTERS) {
  describe(`management engines on ${adapter.name}`, () => {
    let kit: Credkit;
    let cleanup: () => void;
    let orgId: string;

    beforeAll(async () => {
      const opened = await adapter.open();
      cleanup = opened.cleanup;
      kit = await createCredkit({
        storage: opened.storage,
        env: false,
        // a strictly increasing clock: events never share a timestamp, so createdDate ordering is deterministic
        clock: {
          now: (() => {
            let t = Date.now();
            return () => new Date(t++);
          })(),
        },
        config: {
          app: { coreBaseUrl: "https://credkit.example.com" },
          keyStorage: { INTERNAL: { params: { private: { encryption: TEST_ENCRYPTION_KEY } } } },
        },
      });
      orgId = (await kit.organisations.create({ name: `org ${randomUUID()}` })).id;
    });
    afterAll(async () => {
      await kit.storage.close();
      cleanup();
    });

    describe("organisations", () => {
      it("creates with a given or generated id, name defaulting to the id", async () => {
        const id = randomUUID();
        expect(await kit.organisations.create({ id })).toEqual({ id });
        const detail = await kit.organisations.get(id);
        expect(detail).toMatchObject({ id, name: id });
        expect(detail.createdDate).toBeInstanceOf(Date);
        expect("deactivatedAt" in detail).toBe(false);
        expect(await codeOf(kit.organisations.create({ id }))).toBe("BR_0023");
        expect(await codeOf(kit.organisations.get(randomUUID()))).toBe("BR_0022");
        expect(await codeOf(kit.organisations.get("not-a-uuid"))).toBe("BR_0022");
      });

      it("upserts on update, deactivates and reactivates", async () => {
        const id = randomUUID();
        await kit.organisations.update(id, { name: `upserted ${id}` });
        expect((await kit.organisations.get(id)).name).toBe(`upserted ${id}`);
        await kit.organisations.update(id, { deactivate: true });
        expect((await kit.organisations.get(id)).deactivatedAt).toBeInstanceOf(Date);
        expect(
          await codeOf(
            kit.keys.create({
              organisationId: id,
              keyType: "EDDSA",
              keyParams: {},
              name: "k",
              storageType: "INTERNAL",
              storageParams: {},
            }),
          ),
        ).toBe("BR_0241");
        await kit.organisations.update(id, { deactivate: false });
        expect((await kit.organisations.get(id)).deactivatedAt).toBeUndefined();
        const history = await kit.history.list({ page: 0, pageSize: 10, organisationId: id, sort: "createdDate" });
        expect(history.values.map((h) => h.action)).toEqual(["CREATED", "DEACTIVATED", "REACTIVATED"]);
      });

      it("validates slugs", async () => {
        expect(await codeOf(kit.organisations.create({ slug: "no spaces!" }))).toBe("BR_0084");
        const { id } = await kit.organisations.create({ slug: `ok-${randomUUID().slice(0, 8)}` });
        expect((await kit.organisations.get(id)).slug).toMatch(/^ok-/);
      });

      it("lists with name prefix, exact and paging", async () => {
        const tag = randomUUID().slice(0, 8);
        for (const n of ["Acme", "acme two", "Beta"]) await kit.organisations.create({ name: `${tag}-${n}` });
        const prefix = await kit.organisations.list({ page: 0, pageSize: 10, name: `${tag}-ACME` });
        expect(prefix.totalItems).toBe(2);
        const exact = await kit.organisations.list({ page: 0, pageSize: 10, name: `${tag}-acme`, exact: ["name"] });
        expect(exact.values.map((o) => o.name)).toEqual([`${tag}-Acme`]);
        const scoped = await kit.organisations.list({ page: 0, pageSize: 10 }, { organisationId: orgId });
        expect(scoped.values.map((o) => o.id)).toEqual([orgId]);
      });
    });

    describe("keys", () => {
      it("generates keys of every algorithm whose signatures verify", async () => {
        for (const keyType of ["EDDSA", "ECDSA", "ML_DSA"]) {
          const { id } = await kit.keys.create({
            organisationId: orgId,
            keyType,
            keyParams: {},
            name: `gen-${keyType}`,
            storageType: "INTERNAL",
            storageParams: {},
          });
          const detail = await kit.keys.get(id);
          expect(detail).toMatchObject({
            id,
            organisationId: orgId,
            keyType,
            storageType: "INTERNAL",
            isRemote: false,
          });
          expect(detail).not.toHaveProperty("keyReference");
          const key = await kit.keys.load(id);
          const algorithm = kit.providers.keyAlgorithms.get(keyType)!;
          const message = new TextEncoder().encode("credkit");
          const signature = await kit.providers.keyStorages.get("INTERNAL")!.sign(key as never, message);
          expect(
            algorithm.verify(algorithm.preparePublicKey(decodeBase64url(detail.publicKey)), message, signature),
          ).toBe(true);
        }
      });

      it("imports a private JWK and signs with it", async () => {
        const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
        const jwk = await exportJWK(privateKey);
        const { id } = await kit.keys.create({
          organisationId: orgId,
          keyType: "ECDSA",
          keyParams: {},
          name: "imported",
          storageType: "INTERNAL",
          storageParams: { jwk },
        });
        const key = await kit.keys.load(id);
        const message = Buffer.from("imported");
        const signature = await kit.providers.keyStorages.get("INTERNAL")!.sign(key as never, message);
        const spki = createPublicKey({ key: (await exportJWK(publicKey)) as never, format: "jwk" });
        expect(nodeVerify("sha256", message, { key: spki, dsaEncoding: "ieee-p1363" }, signature)).toBe(true);
      });

      it("refuses bad input with the right code and changes nothing", async () => {
        const before = await kit.storage.keys.count();
        const historyBefore = await kit.storage.history.count();
        const base = {
          organisationId: orgId,
          keyType: "EDDSA",
          keyParams: {},
          name: "bad",
          storageType: "INTERNAL",
          storageParams: {},
        };
        expect(await codeOf(kit.keys.create({ ...base, keyType: "RSA" }))).toBe("BR_0043");
        expect(await codeOf(kit.keys.create({ ...base, storageType: "AZURE_VAULT" }))).toBe("BR_0041");
        expect(
          await codeOf(
            kit.keys.create({ ...base, storageParams: { jwk: { kty: "OKP", crv: "Ed25519", x: "abc", d: "xyz" } } }),
          ),
        ).toBe("BR_0096");
        expect(await codeOf(kit.keys.create({ ...base, keyType: 42 } as never))).toBe("BR_0084");
        expect(await codeOf(kit.keys.create({ ...base, unknown: true } as never))).toBe("BR_0084");
        expect(await codeOf(kit.keys.create({ ...base, organisationId: undefined }))).toBe("BR_0290");
        expect(await codeOf(kit.keys.create({ ...base, organisationId: randomUUID() }))).toBe("BR_0022");
        expect(await codeOf(kit.keys.create({ ...base, name: "" }))).toBe("BR_0084");
        await kit.keys.create({ ...base, name: "dup" });
        expect(await codeOf(kit.keys.create({ ...base, name: "dup" }))).toBe("BR_0066");
        expect(await kit.storage.keys.count()).toBe(before + 1);
        expect(await kit.storage.history.count()).toBe(historyBefore + 1);
      });

      it("never shows another organisation's keys to a scoped caller", async () => {
        const other = (await kit.organisations.create({})).id;
        const { id } = await kit.keys.create({
          organisationId: other,
          keyType: "EDDSA",
          keyParams: {},
          name: "foreign",
          storageType: "INTERNAL",
          storageParams: {},
        });
        expect(await codeOf(kit.keys.get(id, { organisationId: orgId }))).toBe("BR_0037");
        expect((await kit.keys.get(id, { organisationId: other })).id).toBe(id);
        expect(
          await codeOf(
            kit.keys.create(
              {
                organisationId: other,
                keyType: "EDDSA",
                keyParams: {},
                name: "x",
                storageType: "INTERNAL",
                storageParams: {},
              },
              { organisationId: orgId },
            ),
          ),
        ).toBe("BR_0178");
        const list = await kit.keys.list({ page: 0, pageSize: 100 }, { organisationId: orgId });
        expect(list.values.some((k) => k.id === id)).toBe(false);
      });

      it("lists with filters and sorting", async () => {
        const org = (await kit.organisations.create({})).id;
        for (const [name, keyType] of [
          ["b-ed", "EDDSA"],
          ["a-ec", "ECDSA"],
          ["c-ed", "EDDSA"],
        ]) {
          await kit.keys.create({
            organisationId: org,
            keyType: keyType!,
            keyParams: {},
            name: name!,
            storageType: "INTERNAL",
            storageParams: {},
          });
        }
        const ed = await kit.keys.list({
          organisationId: org,
          page: 0,
          pageSize: 10,
          keyTypes: ["EDDSA"],
          sort: "name",
        });
        expect(ed.values.map((k) => k.name)).toEqual(["b-ed", "c-ed"]);
        const desc = await kit.keys.list({
          organisationId: org,
          page: 0,
          pageSize: 2,
          sort: "name",
          sortDirection: "DESC",
        });
        expect(desc).toMatchObject({ totalItems: 3, totalPages: 2 });
        expect(desc.values.map((k) => k.name)).toEqual(["c-ed", "b-ed"]);
        expect(await codeOf(kit.keys.list({ organisationId: org, page: 0, pageSize: 1001 }))).toBe("BR_0084");
        expect(
          await codeOf(kit.keys.list({ organisationId: org, page: 0, pageSize: 10, sort: "keyReference" as never })),
        ).toBe("BR_0084");
      });
    });

    describe("DIDs and identifiers", () => {
      let edKey: string;
      let ecKey: string;
      let pqKey: string;
      beforeAll(async () => {
        const create = (keyType: string) =>
          kit.keys.create({
            organisationId: orgId,
            keyType,
            keyParams: {},
            name: `did-${keyType}-${randomUUID()}`,
            storageType: "INTERNAL",
            storageParams: {},
          });
        edKey = (await create("EDDSA")).id;
        ecKey = (await create("ECDSA")).id;
        pqKey = (await create("ML_DSA")).id;
      });
      const roles = (keyId: string) => ({
        authentication: [keyId],
        assertionMethod: [keyId],
        keyAgreement: [],
        capabilityInvocation: [],
        capabilityDelegation: [],
      });

      it("creates a did:key identifier that resolves to the key", async () => {
        const { id } = await kit.identifiers.create({
          organisationId: orgId,
          name: `ident ${randomUUID()}`,
          did: { method: "KEY", keys: roles(edKey) },
        });
        const detail = await kit.identifiers.get(id);
        expect(detail).toMatchObject({ type: "DID", state: "ACTIVE", isRemote: false, organisationId: orgId });
        expect(detail.did?.did).toMatch(/^did:key:z6Mk/);
        expect(detail.did?.keys.assertionMethod.map((k) => k.id)).toEqual([edKey]);
        const document = await kit.dids.resolve(detail.did!.did);
        const key = await kit.keys.get(edKey);
        expect(document.verificationMethod[0]?.publicKeyJwk).toMatchObject({
          kty: "OKP",
          crv: "Ed25519",
          x: key.publicKey,
        });
        expect(await codeOf(kit.dids.update(detail.did!.id, { deactivated: true }))).toBe("BR_0029");
      });

      it("creates did:jwk for ML-DSA and did:web hosted here", async () => {
        const jwk = await kit.dids.create({
          organisationId: orgId,
          name: `jwk ${randomUUID()}`,
          method: "JWK",
          keys: roles(pqKey),
        });
        const jwkDid = await kit.dids.get(jwk.id);
        expect(jwkDid.did).toMatch(/^did:jwk:/);
        expect((await kit.dids.resolve(jwkDid.did)).verificationMethod[0]?.publicKeyJwk).toMatchObject({
          kty: "AKP",
          alg: "ML-DSA-65",
        });

        const { id } = await kit.identifiers.create({
          organisationId: orgId,
          name: `web ${randomUUID()}`,
          did: { method: "WEB", keys: { ...roles(ecKey), keyAgreement: [ecKey] } },
        });
        const web = (await kit.identifiers.get(id)).did!;
        expect(web.did).toBe(`did:web:credkit.example.com:ssi:did-web:v1:${web.id}`);
        const served = await kit.dids.webDocument(web.id);
        expect(served.id).toBe(web.did);
        expect(served.keyAgreement).toHaveLength(1);
        // resolution of a did:web hosted here needs no HTTP
        expect(await kit.dids.resolve(web.did)).toEqual(served);

        await kit.dids.update(web.id, { deactivated: true });
        expect((await kit.dids.get(web.id)).deactivated).toBe(true);
        expect((await kit.identifiers.get(id)).state).toBe("DEACTIVATED");
        expect(await codeOf(kit.dids.webDocument(web.id))).toBe("BR_0024");
        expect(await codeOf(kit.dids.update(web.id, { deactivated: false }))).toBe("BR_0256");
      });

      it("validates identifier variants and DID keys", async () => {
        const name = `v ${randomUUID()}`;
        expect(await codeOf(kit.identifiers.create({ organisationId: orgId, name }))).toBe("BR_0206");
        expect(
          await codeOf(
            kit.identifiers.create({
              organisationId: orgId,
              name,
              key: { keyId: edKey },
              did: { method: "KEY", keys: roles(edKey) },
            }),
          ),
        ).toBe("BR_0206");
        expect(
          await codeOf(
            kit.identifiers.create({ organisationId: orgId, name, did: { method: "KEY", keys: roles(randomUUID()) } }),
          ),
        ).toBe("BR_0037");
        expect(
          await codeOf(
            kit.identifiers.create({ organisationId: orgId, name, did: { method: "NOPE", keys: roles(edKey) } }),
          ),
        ).toBe("BR_0026");
        expect(
          await codeOf(
            kit.identifiers.create({
              organisationId: orgId,
              name,
              did: { method: "KEY", keys: { ...roles(edKey), assertionMethod: [ecKey] } },
            }),
          ),
        ).toBe("BR_0030");
        expect(
          await codeOf(kit.identifiers.create({ organisationId: orgId, name, key: { keyId: randomUUID() } })),
        ).toBe("BR_0037");
        expect(await kit.storage.identifiers.count({ op: "eq", column: "name", value: name })).toBe(0);
      });

      it("creates key identifiers, lists with filters and deletes", async () => {
        const org = (await kit.organisations.create({})).id;
        const ed = (
          await kit.keys.create({
            organisationId: org,
            keyType: "EDDSA",
            keyParams: {},
            name: "ed",
            storageType: "INTERNAL",
            storageParams: {},
          })
        ).id;
        const ec = (
          await kit.keys.create({
            organisationId: org,
            keyType: "ECDSA",
            keyParams: {},
            name: "ec",
            storageType: "INTERNAL",
            storageParams: {},
          })
        ).id;
        const byKey = (await kit.identifiers.create({ organisationId: org, name: "by key", key: { keyId: ed } })).id;
        const byDid = (
          await kit.identifiers.create({ organisationId: org, name: "by did", did: { method: "KEY", keys: roles(ec) } })
        ).id;
        expect((await kit.identifiers.get(byKey)).key?.id).toBe(ed);
        expect(await codeOf(kit.identifiers.create({ organisationId: org, name: "by key", key: { keyId: ec } }))).toBe(
          "BR_0240",
        );

        const list = (filter: object) =>
          kit.identifiers
            .list({ organisationId: org, page: 0, pageSize: 10, ...filter })
            .then((p) => p.values.map((i) => i.id));
        expect(await list({ types: ["KEY"] })).toEqual([byKey]);
        expect(await list({ didMethods: ["KEY"] })).toEqual([byDid]);
        expect(await list({ keyAlgorithms: ["ECDSA"] })).toEqual([byDid]);
        expect(await list({ keyAlgorithms: ["EDDSA"] })).toEqual([byKey]);
        expect((await list({ sort: "name" })).length).toBe(2);

        await kit.identifiers.delete(byKey);
        expect(await codeOf(kit.identifiers.get(byKey))).toBe("BR_0207");
        expect(await codeOf(kit.identifiers.delete(byKey))).toBe("BR_0207");
        expect(await list({})).toEqual([byDid]);
        // the name is free again after deletion
        await kit.identifiers.create({ organisationId: org, name: "by key", key: { keyId: ed } });

        const dids = await kit.dids.list({
          organisationId: org,
          page: 0,
          pageSize: 10,
          keyRoles: ["ASSERTION_METHOD"],
          didMethods: ["KEY"],
        });
        expect(dids.totalItems).toBe(1);
      });
    });

    describe("history", () => {
      it("records management actions and filters them", async () => {
        const org = (await kit.organisations.create({})).id;
        const key = (
          await kit.keys.create(
            {
              organisationId: org,
              keyType: "EDDSA",
              keyParams: {},
              name: "hist",
              storageType: "INTERNAL",
              storageParams: {},
            },
            { user: "alice" },
          )
        ).id;
        const list = await kit.history.list({ organisationId: org, page: 0, pageSize: 10, entityTypes: ["KEY"] });
        expect(list.values).toHaveLength(1);
        expect(list.values[0]).toMatchObject({
          action: "CREATED",
          entityType: "KEY",
          entityId: key,
          name: "hist",
          source: "CORE",
          user: "alice",
          organisationId: org,
        });
        const detail = await kit.history.get(list.values[0]!.id);
        expect(detail.entityId).toBe(key);
        expect(await codeOf(kit.history.get(list.values[0]!.id, { organisationId: orgId }))).toBe("BR_0100");
        const search = await kit.history.list({ organisationId: org, page: 0, pageSize: 10, searchText: "HIS" });
        expect(search.totalItems).toBe(1);
      });
    });
  });
}
