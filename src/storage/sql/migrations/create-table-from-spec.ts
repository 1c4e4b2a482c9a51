import { type Kysely, type SqlBool, sql } from "kysely";
import type { ColumnType, TableSpec } from "../../table-spec.js";
import { CHILD_POSITION_COLUMN } from "../../table-spec.js";
import type { SqlDialectName } from "../kysely-driver.js";

// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped schema
type AnyDb = Kysely<any>;

/** SQL type of a column per dialect. PostgreSQL text uses the "C" collation so ordering is byte order, as SQLite. */
export function sqlType(dialect: SqlDialectName, type: ColumnType) {
  switch (type) {
    case "text":
    case "json":
      return dialect === "postgres" ? sql`text collate "C"` : sql`text`;
    case "integer":
    case "boolean":
      return sql`integer`;
    case "date":
      return sql`bigint`;
    case "blob":
      return dialect === "postgres" ? sql`bytea` : sql`blob`;
  }
}

/**
 * Creates the tables of a TableSpec as they stand at the migration that calls it (a migration must pass the spec as
 * it was then: later migrations alter tables explicitly, they never re-run this).
 */
export async function createTableFromSpec(db: AnyDb, dialect: SqlDialectName, spec: TableSpec): Promise<void> {
  let table = db.schema.createTable(spec.table);
  for (const [column, type] of Object.entries(spec.columns)) {
    table = table.addColumn(column, sqlType(dialect, type), (c) => (column === "id" ? c.notNull() : c));
  }
  const primary = spec.unique?.find((u) => u.name.endsWith("_pkey"));
  table = table.addPrimaryKeyConstraint(primary?.name ?? `${spec.table}_pkey`, ["id"] as never);
  await table.execute();

  for (const unique of spec.unique ?? []) {
    if (unique === primary) continue;
    let index = db.schema
      .createIndex(unique.name)
      .unique()
      .on(spec.table)
      .columns(unique.columns as string[]);
    if (unique.whereNull && unique.whereNull.length > 0) {
      index = index.where(
        sql<SqlBool>`${sql.join(
          unique.whereNull.map((c) => sql`${sql.ref(c)} is null`),
          sql` and `,
        )}`,
      );
    }
    await index.execute();
  }

  for (const child of Object.values(spec.children ?? {})) {
    let childTable = db.schema
      .createTable(child.table)
      .addColumn(child.parentColumn, sqlType(dialect, "text"), (c) =>
        c.notNull().references(`${spec.table}.id`).onDelete("cascade"),
      )
      .addColumn(CHILD_POSITION_COLUMN, sql`integer`, (c) => c.notNull());
    for (const [column, type] of Object.entries(child.columns))
      childTable = childTable.addColumn(column, sqlType(dialect, type));
    childTable = childTable.addPrimaryKeyConstraint(`${child.table}_pkey`, [child.parentColumn, CHILD_POSITION_COLUMN]);
    await childTable.execute();
  }
}

export async function createIndex(db: AnyDb, table: string, columns: string[]): Promise<void> {
  await db.schema
    .createIndex(`${table}_${columns.join("_")}_idx`)
    .on(table)
    .columns(columns)
    .execute();
}
