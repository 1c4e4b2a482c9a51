import { loadConfig } from "../config/load-config.js";

/** `credkit migrate [--config f]…`: applies pending schema migrations of app.databaseUrl and reports them. */
export async function runMigrateCommand(configFiles: string[], print: (line: string) => void): Promise<void> {
  const config = loadConfig({ files: configFiles, allowGeneratedSecrets: true });
  const url = config.app.databaseUrl;
  const { migrateToLatest } = await import("../storage/sql/migrate.js");
  const { Kysely, PostgresDialect, SqliteDialect } = await import("kysely");
  let db: InstanceType<typeof Kysely<unknown>>;
  let dialect: "sqlite" | "postgres";
  if (url.startsWith("sqlite:")) {
    const { default: Database } = await import("better-sqlite3");
    db = new Kysely({ dialect: new SqliteDialect({ database: new Database(url.slice("sqlite:".length)) }) });
    dialect = "sqlite";
  } else if (/^postgres(ql)?:\/\//.test(url)) {
    const { default: pg } = await import("pg");
    db = new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 1 }) }) });
    dialect = "postgres";
  } else {
    print(`nothing to migrate for ${url}`);
    return;
  }
  try {
    const report = await migrateToLatest(db, dialect);
    print(report.applied.length === 0 ? "schema is up to date" : `applied: ${report.applied.join(", ")}`);
  } finally {
    await db.destroy();
  }
}
