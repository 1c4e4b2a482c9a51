import type { Kysely } from "kysely";
import type { SqlDialectName } from "../kysely-driver.js";
import * as foundation from "./0001-foundation.js";
import * as issuance from "./0002-issuance.js";
import * as verification from "./0003-verification.js";
import * as notifications from "./0004-notifications.js";
import * as proofTrustInformation from "./0005-proof-trust-information.js";
import * as proofSchemaCredentialSets from "./0006-proof-schema-credential-sets.js";

// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped schema
type MigrationStep = (db: Kysely<any>, dialect: SqlDialectName) => Promise<void>;

/** Versioned schema migrations, applied in order, each exactly once (tracked in kysely_migration). */
export const MIGRATIONS: readonly { name: string; up: MigrationStep }[] = [
  { name: "0001-foundation", up: foundation.up },
  { name: "0002-issuance", up: issuance.up },
  { name: "0003-verification", up: verification.up },
  { name: "0004-notifications", up: notifications.up },
  { name: "0005-proof-trust-information", up: proofTrustInformation.up },
  { name: "0006-proof-schema-credential-sets", up: proofSchemaCredentialSets.up },
];
