import { randomUUID } from "node:crypto";
import { join } from "node:path";
import Database from "better-sqlite3";
import { Kysely, Migrator, SqliteDialect } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Proof } from "../../src/domain/proof.js";
import type { ProofTrustInformation } from "../../src/domain/trust-information.js";
import type { Storage } from "../../src/ports/storage.js";
import { MIGRATIONS } from "../../src/storage/sql/migrations/index.js";
import { sqliteStorage } from "../../src/storage/sql/sqlite.js";
import { describeOnStorage, STORAGE_ADAPTERS, type StorageFixture } from "../support/storage-adapters.js";
import { createTempDir } from "../support/temp-dir.js";

const at = (iso: string) => new Date(iso);

const TRUST: ProofTrustInformation = {
  receivedAt: "2025-05-01T10:00:00.000Z",
  result: "UNTRUSTED",
  name: "Webshop",
  attestations: [
    {
      format: "registration_cert",
      credentialIds: ["input_0"],
      result: "UNTRUSTED",
      reason: "the registration certificate expired at 2025-04-01T00:00:00.000Z",
      data: "eyJ0eXAiOiJyYy13cnArand0In0.e30.c2ln",
      claims: { name: "Webshop", sub: { id: [{ identifier: "LEIXG-1" }] }, purpose: [{ lang: "en", value: "ü ✓" }] },
      validFrom: "2025-01-01T00:00:00.000Z",
      validTo: "2025-04-01T00:00:00.000Z",
      signer: "CN=Registrar",
    },
    { format: "example", result: "UNKNOWN" },
  ],
};

function holderProof(organisationId: string, trustInformation?: ProofTrustInformation): Proof {
  const now = at("2025-05-01T10:00:00.000Z");
  return {
    id: randomUUID(),
    organisationId,
    role: "HOLDER",
    state: "REQUESTED",
    protocol: "OPENID4VP_FINAL1",
    transport: "HTTP",
    ...(trustInformation !== undefined && { trustInformation }),
    requestedDate: now,
    createdDate: now,
    lastModified: now,
  };
}

for (const adapter of STORAGE_ADAPTERS) {
  describeOnStorage(adapter, `storage contract, proof trust information: ${adapter.name}`, () => {
    let fixture: StorageFixture;
    let storage: Storage;
    let organisationId: string;

    beforeAll(async () => {
      fixture = await adapter.open();
      storage = fixture.storage;
      organisationId = randomUUID();
      const created = at("2025-01-01T00:00:00.000Z");
      await storage.organisations.insert({
        id: organisationId,
        name: `trust ${organisationId}`,
        createdDate: created,
        lastModified: created,
      });
    });
    afterAll(async () => {
      await fixture?.dispose();
    });

    it("round-trips a holder proof's trust information and leaves it out when absent", async () => {
      const withTrust = holderProof(organisationId, TRUST);
      const without = holderProof(organisationId);
      await storage.proofs.insert(withTrust);
      await storage.proofs.insert(without);
      expect(await storage.proofs.get(withTrust.id)).toEqual(withTrust);
      const loaded = await storage.proofs.get(without.id);
      expect(loaded).toEqual(without);
      expect(loaded && "trustInformation" in loaded).toBe(false);
      await storage.proofs.update(without.id, { trustInformation: { ...TRUST, result: "TRUSTED" } });
      expect((await storage.proofs.get(without.id))?.trustInformation?.result).toBe("TRUSTED");
    });
  });
}

describe("migration 0005-proof-trust-information on an existing SQLite database", () => {
  const dir = createTempDir();
  afterAll(() => dir.remove());

  it("adds the column to a database at 0004 and keeps its proofs", async () => {
    const file = join(dir.path, "upgrade.db");
    const database = new Database(file);
    const db = new Kysely({
      dialect: new SqliteDialect({ database: { prepare: (text: string) => database.prepare(text), close: () => {} } }),
    });
    const upTo0004 = MIGRATIONS.filter((step) => step.name <= "0004");
    const migrations = Object.fromEntries(
      // biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped schema
      upTo0004.map((step) => [step.name, { up: (trx: Kysely<any>) => step.up(trx, "sqlite") }]),
    );
    const { error } = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateToLatest();
    expect(error).toBeUndefined();
    const columns = database.prepare("select name from pragma_table_info('proof')").all() as { name: string }[];
    expect(columns.map((c) => c.name)).not.toContain("trustInformation");
    const organisationId = randomUUID();
    const proofId = randomUUID();
    database
      .prepare('insert into organisation (id, name, "createdDate", "lastModified") values (?, ?, 0, 0)')
      .run(organisationId, "before 0005");
    database
      .prepare(
        'insert into proof (id, "organisationId", role, state, protocol, transport, "createdDate", "lastModified") values (?, ?, ?, ?, ?, ?, 0, 0)',
      )
      .run(proofId, organisationId, "HOLDER", "REQUESTED", "OPENID4VP_FINAL1", "HTTP");
    await db.destroy();
    database.close();

    const storage = await sqliteStorage(file);
    try {
      const old = await storage.proofs.get(proofId);
      expect(old?.state).toBe("REQUESTED");
      expect(old && "trustInformation" in old).toBe(false);
      const fresh = holderProof(organisationId, TRUST);
      await storage.proofs.insert(fresh);
      expect((await storage.proofs.get(fresh.id))?.trustInformation).toEqual(TRUST);
    } finally {
      await storage.close();
    }
  });
});
