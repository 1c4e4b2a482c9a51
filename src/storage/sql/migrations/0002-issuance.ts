import type { Kysely } from "kysely";
import { ISSUANCE_TABLES } from "../../tables.js";
import type { SqlDialectName } from "../kysely-driver.js";
import { createIndex, createTableFromSpec } from "./create-table-from-spec.js";

// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped schema
export async function up(db: Kysely<any>, dialect: SqlDialectName): Promise<void> {
  for (const spec of ISSUANCE_TABLES) await createTableFromSpec(db, dialect, spec);
  await createIndex(db, "credential_schema", ["organisationId", "createdDate"]);
  await createIndex(db, "credential", ["organisationId", "createdDate"]);
  await createIndex(db, "credential", ["credentialSchemaId"]);
  await createIndex(db, "credential", ["interactionId"]);
  await createIndex(db, "credential", ["state"]);
  await createIndex(db, "claim", ["claimSchemaId"]);
  await createIndex(db, "interaction", ["expiresAt"]);
  await createIndex(db, "revocation_list", ["issuerIdentifierId"]);
  await createIndex(db, "revocation_entry", ["listId", "status"]);
  await createIndex(db, "revocation_entry", ["credentialId"]);
  await createIndex(db, "nonce", ["expiresAt"]);
}
