import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import type { Storage } from "../../ports/storage.js";
import { createStorage } from "../create-storage.js";
import { buildTableRegistry } from "../spec-registry.js";
import { ALL_TABLES } from "../tables.js";
import { KyselyDriver } from "./kysely-driver.js";
import { migrateToLatest } from "./migrate.js";

export interface PostgresStorageOptions {
  /** run pending migrations on open (default true) */
  migrate?: boolean;
  /** pool size when credkit creates the pool (default 10) */
  max?: number;
  /** told about errors of idle pooled connections (they are dropped and replaced) */
  onIdleError?: (error: Error) => void;
}

const INT8_OID = 20;

/** int8 (dates as epoch ms, counts) arrive as numbers: every value we store fits in 2^53. */
function parseTypes(): pg.CustomTypesConfig {
  return {
    getTypeParser: ((oid: number, format?: string) =>
      oid === INT8_OID
        ? (value: string) => Number(value)
        : pg.types.getTypeParser(oid, format as "text")) as pg.CustomTypesConfig["getTypeParser"],
  };
}

/**
 * Production storage on PostgreSQL. Several stateless credkit processes can share one database. Pass a connection
 * URL (credkit owns and closes the pool) or your own pg.Pool (you close it).
 */
export async function postgresStorage(
  connection: string | pg.Pool,
  options: PostgresStorageOptions = {},
): Promise<Storage> {
  const ownsPool = typeof connection === "string";
  const pool =
    typeof connection === "string"
      ? new pg.Pool({ connectionString: connection, max: options.max ?? 10, types: parseTypes() })
      : connection;
  // an idle pooled connection can fail (server restart, failover); pg would crash the process without a listener.
  // The next query simply opens a new connection.
  if (ownsPool) pool.on("error", (error) => options.onIdleError?.(error));
  const db = new Kysely({ dialect: new PostgresDialect({ pool }) });
  if (options.migrate !== false) await migrateToLatest(db, "postgres");
  return createStorage(
    new KyselyDriver("postgres", db, buildTableRegistry(ALL_TABLES), false, async () => {
      if (ownsPool) await db.destroy();
    }),
  );
}
