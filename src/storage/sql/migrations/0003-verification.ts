import type { Kysely } from "kysely";
import type { TableSpec } from "../../table-spec.js";
import { PROOF_SCHEMA_SET_COLUMNS, PROOF_TRUST_COLUMNS, VERIFICATION_TABLES } from "../../tables.js";
import type { SqlDialectName } from "../kysely-driver.js";
import { createIndex, createTableFromSpec } from "./create-table-from-spec.js";

// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped schema
export async function up(db: Kysely<any>, dialect: SqlDialectName): Promise<void> {
  for (const spec of VERIFICATION_TABLES) await createTableFromSpec(db, dialect, asOf0003(spec));
  await createIndex(db, "proof_schema", ["organisationId", "createdDate"]);
  await createIndex(db, "proof", ["organisationId", "createdDate"]);
  await createIndex(db, "proof", ["interactionId"]);
  await createIndex(db, "proof", ["state"]);
}

/** The tables as this migration created them: columns later migrations add are left to those migrations. */
function asOf0003(spec: TableSpec): TableSpec {
  const addedLater: Record<string, object> = { proof: PROOF_TRUST_COLUMNS, proof_schema: PROOF_SCHEMA_SET_COLUMNS };
  const added = addedLater[spec.table];
  if (!added) return spec;
  const later = new Set(Object.keys(added));
  return { ...spec, columns: Object.fromEntries(Object.entries(spec.columns).filter(([name]) => !later.has(name))) };
}
