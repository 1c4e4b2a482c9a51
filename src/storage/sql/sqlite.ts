import Database from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import type { Storage } from "../../ports/storage.js";
import { createStorage } from "../create-storage.js";
import { buildTableRegistry } from "../spec-registry.js";
import { ALL_TABLES } from "../tables.js";
import { KyselyDriver } from "./kysely-driver.js";
import { migrateToLatest } from "./migrate.js";

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
  const db = new Kysely({ dialect: new SqliteDialect({ database: withStatementCache(database) }) });
  if (options.migrate !== false) await migrateToLatest(db, "sqlite");
  return createStorage(new KyselyDriver("sqlite", db, buildTableRegistry(ALL_TABLES), false, () => db.destroy()));
}

const STATEMENT_CACHE_SIZE = 512;

/**
 * Kysely prepares every query anew; better-sqlite3 statements are reusable, so keep the prepared statement of each
 * SQL text (the queries credkit sends are parameterised and repeat). LRU-bounded.
 */
function withStatementCache(database: Database.Database) {
  const cache = new Map<string, Database.Statement>();
  return {
    close: () => database.close(),
    prepare(sql: string): Database.Statement {
      let statement = cache.get(sql);
      if (statement) {
        cache.delete(sql);
      } else {
        statement = database.prepare(sql);
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      }
      cache.set(sql, statement);
      return statement;
    },
  };
}
