import type { Kysely } from "kysely";
import { PROOF_TRUST_COLUMNS } from "../../tables.js";
import type { SqlDialectName } from "../kysely-driver.js";
import { sqlType } from "./create-table-from-spec.js";

/** Holder proofs keep the trust information of the verifier (OpenID4VP 1.0 `verifier_info`) the wallet received. */
// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped schema
export async function up(db: Kysely<any>, dialect: SqlDialectName): Promise<void> {
  for (const [column, type] of Object.entries(PROOF_TRUST_COLUMNS)) {
    await db.schema.alterTable("proof").addColumn(column, sqlType(dialect, type)).execute();
  }
}
