export { type MigrationReport, migrateToLatest } from "./migrate.js";
export { type PostgresStorageOptions, postgresStorage } from "./postgres.js";
export { type SqliteStorageOptions, sqliteStorage } from "./sqlite.js";
