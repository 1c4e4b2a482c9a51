import type { Kysely } from "kysely";
import { VERIFICATION_TABLES } from "../../tables.js";
import type { SqlDialectName } from "../kysely-driver.js";
import { createIndex, createTableFromSpec } from "./create-table-from-spec.js";

// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped schema
export async function up(db: Kysely<any>, dialect: SqlDialectName): Promise<void> {
  for (const spec of VERIFICATION_TABLES) await createTableFromSpec(db, dialect, spec);
  await createIndex(db, "proof_schema", ["organisationId", "createdDate"]);
  await createIndex(db, "proof", ["organisationId", "createdDate"]);
  await createIndex(db, "proof", ["interactionId"]);
  await createIndex(db, "proof", ["state"]);
}
