import { type Kysely, type Migration, Migrator } from "kysely";
import { CredkitError } from "../../errors/credkit-error.js";
import type { SqlDialectName } from "./kysely-driver.js";
import { MIGRATIONS } from "./migrations/index.js";

export interface MigrationReport {
  applied: string[];
}

/** Brings the database schema to the newest version. Safe to run from several processes (Kysely locks). */
// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped schema
export async function migrateToLatest(db: Kysely<any>, dialect: SqlDialectName): Promise<MigrationReport> {
  const migrations: Record<string, Migration> = {};
  for (const step of MIGRATIONS) migrations[step.name] = { up: (trx) => step.up(trx, dialect) };
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  if (error)
    throw new CredkitError("BR_0054", `migration failed: ${(error as Error).message ?? String(error)}`, {
      cause: error,
    });
  return { applied: (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName) };
}
