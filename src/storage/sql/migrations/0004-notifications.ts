import type { Kysely } from "kysely";
import { NOTIFICATION_TABLES } from "../../tables.js";
import type { SqlDialectName } from "../kysely-driver.js";
import { createIndex, createTableFromSpec } from "./create-table-from-spec.js";

// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped schema
export async function up(db: Kysely<any>, dialect: SqlDialectName): Promise<void> {
  for (const spec of NOTIFICATION_TABLES) await createTableFromSpec(db, dialect, spec);
  // the delivery worker's scan: due PENDING rows, oldest first
  await createIndex(db, "notification", ["state", "nextAttemptAt"]);
  // a worker reads back the rows it claimed
  await createIndex(db, "notification", ["claimedBy"]);
  await createIndex(db, "notification", ["entityId"]);
}
