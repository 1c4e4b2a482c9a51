import type { Kysely } from "kysely";
import {
  certificateTable,
  didTable,
  historyTable,
  identifierTable,
  keyTable,
  organisationTable,
} from "../../tables.js";
import type { SqlDialectName } from "../kysely-driver.js";
import { createIndex, createTableFromSpec } from "./create-table-from-spec.js";

// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped schema
export async function up(db: Kysely<any>, dialect: SqlDialectName): Promise<void> {
  for (const spec of [organisationTable, keyTable, didTable, identifierTable, certificateTable, historyTable]) {
    await createTableFromSpec(db, dialect, spec);
  }
  // list endpoints filter by organisation and sort by creation date by default
  await createIndex(db, "key", ["organisationId", "createdDate"]);
  await createIndex(db, "did", ["organisationId", "createdDate"]);
  await createIndex(db, "did_key", ["keyId"]);
  await createIndex(db, "identifier", ["organisationId", "createdDate"]);
  await createIndex(db, "identifier", ["didId"]);
  await createIndex(db, "identifier", ["keyId"]);
  await createIndex(db, "certificate", ["identifierId"]);
  await createIndex(db, "history", ["organisationId", "createdDate"]);
  await createIndex(db, "history", ["entityId"]);
  await createIndex(db, "organisation", ["createdDate"]);
}
