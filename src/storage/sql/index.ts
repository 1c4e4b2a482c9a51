export { migrateToLatest, type MigrationReport } from "./migrate.js";
export { postgresStorage, type PostgresStorageOptions } from "./postgres.js";
export { sqliteStorage, type SqliteStorageOptions } from "./sqlite.js";
