import Database from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import type { Storage } from "../../ports/storage.js";
import { createStorage } from "../create-storage.js";
import { buildTableRegistry } from "../spec-registry.js";
import { ALL_TABLES } from "../tables.js";
import { migrateToLatest } from "./migrate.js";
import { SqliteDriver } from "./sqlite-driver.js";

export interface SqliteStorageOptions {
  /** run pending migrations on open (default true) */
  migrate?: boolean;
}

/** Embedded storage in one SQLite file (better-sqlite3, WAL). `":memory:"` keeps it in memory. */
export async function sqliteStorage(path: string, options: SqliteStorageOptions = {}): Promise<Storage> {
  const database = new Database(path);
  database.pragma("journal_mode = WAL");
  database.pragma("synchronous = NORMAL");
  database.pragma("foreign_keys = ON");
  database.pragma("busy_timeout = 5000");
  if (options.migrate !== false) {
    // migrations go through Kysely's schema builder; the connection stays open for the driver afterwards
    const migrator = new Kysely({
      dialect: new SqliteDialect({ database: { prepare: (text: string) => database.prepare(text), close: () => {} } }),
    });
    try {
      await migrateToLatest(migrator, "sqlite");
    } finally {
      await migrator.destroy();
    }
  }
  return createStorage(
    new SqliteDriver(database, buildTableRegistry(ALL_TABLES), undefined, undefined, false, async () => {
      database.close();
    }),
  );
}
