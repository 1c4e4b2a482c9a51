import type { Kysely } from "kysely";
import { PROOF_SCHEMA_SET_COLUMNS } from "../../tables.js";
import type { SqlDialectName } from "../kysely-driver.js";
import { sqlType } from "./create-table-from-spec.js";

/** Proof schemas may offer alternatives between their inputs (DCQL `credential_sets`, OpenID4VP 1.0 §6.2). */
// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped schema
export async function up(db: Kysely<any>, dialect: SqlDialectName): Promise<void> {
  for (const [column, type] of Object.entries(PROOF_SCHEMA_SET_COLUMNS)) {
    await db.schema.alterTable("proof_schema").addColumn(column, sqlType(dialect, type)).execute();
  }
}
