import { type Kysely, sql } from "kysely";
import { CredkitError } from "../../errors/credkit-error.js";
import type { Condition } from "../../ports/storage.js";
import type { TableInfo } from "../spec-registry.js";
import type { Row, SelectOptions, TableDriver } from "../table-driver.js";
import { compileCondition } from "./compile-condition.js";

export type SqlDialectName = "sqlite" | "postgres";

// biome-ignore lint/suspicious/noExplicitAny: tables are described at run time by TableSpecs, not by a static schema
type AnyDb = Kysely<any>;

function constraintOf(error: unknown, dialect: SqlDialectName): { name?: string; columns?: string[] } | undefined {
  const e = error as { code?: string; constraint?: string; message?: string };
  if (dialect === "postgres") return e.code === "23505" ? { name: e.constraint } : undefined;
  if (e.code !== "SQLITE_CONSTRAINT_UNIQUE" && e.code !== "SQLITE_CONSTRAINT_PRIMARYKEY") return undefined;
  const message = e.message ?? "";
  const index = /index '([^']+)'/.exec(message);
  if (index) return { name: index[1] };
  const columns = /failed: (.+)$/
    .exec(message)?.[1]
    ?.split(",")
    .map((c) => c.trim().split(".").pop() ?? "");
  return { columns };
}

/** Maps a driver's unique violation to the BR code of the TableSpec rule it broke. */
export function toUniqueError(error: unknown, info: TableInfo, dialect: SqlDialectName): unknown {
  const violated = constraintOf(error, dialect);
  if (!violated) return error;
  const rule = info.unique.find(
    (u) =>
      u.name === violated.name ||
      (violated.columns !== undefined &&
        u.columns.length === violated.columns.length &&
        u.columns.every((c) => violated.columns?.includes(c))),
  );
  return new CredkitError(rule?.code ?? "BR_0357", `unique constraint ${rule?.name ?? violated.name ?? "?"} violated`);
}

/**
 * PostgreSQL refuses text it cannot store — a NUL character (22021 character_not_in_repertoire, 22P05
 * untranslatable_character) — where SQLite stores it. Such input is the caller's mistake: BR_0084, never a 500.
 */
export function toInvalidTextError(error: unknown, dialect: SqlDialectName): unknown {
  const code = (error as { code?: string }).code;
  if (dialect !== "postgres" || (code !== "22021" && code !== "22P05")) return error;
  return new CredkitError("BR_0084", "text values must not contain NUL (U+0000) characters");
}

/** TableDriver over Kysely, shared by the SQLite and PostgreSQL adapters. */
export class KyselyDriver implements TableDriver {
  constructor(
    readonly kind: SqlDialectName,
    private readonly db: AnyDb,
    private readonly registry: Map<string, TableInfo>,
    private readonly inTransaction = false,
    private readonly onClose: () => Promise<void> = async () => {},
  ) {}

  private info(table: string): TableInfo {
    const info = this.registry.get(table);
    if (!info) throw new Error(`unknown table ${table}`);
    return info;
  }

  private where(table: string, condition: Condition | undefined) {
    return condition ? compileCondition(condition, this.info(table), this.registry) : sql<boolean>`1 = 1`;
  }

  async insert(table: string, rows: readonly Row[]): Promise<void> {
    if (rows.length === 0) return;
    try {
      await this.db
        .insertInto(table)
        .values(rows as Row[])
        .execute();
    } catch (error) {
      throw toInvalidTextError(toUniqueError(error, this.info(table), this.kind), this.kind);
    }
  }

  async select(table: string, options: SelectOptions): Promise<Row[]> {
    let query = this.db.selectFrom(table).selectAll().where(this.where(table, options.where));
    for (const { column, direction, from } of options.orderBy ?? []) {
      const source = from ? this.info(from.table) : this.info(table);
      if (source.columns[column] === undefined) throw new Error(`unknown column ${source.table}.${column}`);
      const value = from
        ? sql`(select ${sql.ref(`o.${column}`)} from ${sql.table(from.table)} as ${sql.raw('"o"')} where ${sql.join(
            Object.entries(from.on).map(
              ([theirs, ours]) => sql`${sql.ref(`o.${theirs}`)} = ${sql.ref(`${table}.${ours}`)}`,
            ),
            sql.raw(" and "),
          )} limit 1)`
        : sql.ref(`${table}.${column}`);
      // NULL sorts as the smallest value in every adapter (SQLite's default, explicit for PostgreSQL)
      query = query.orderBy(direction === "ASC" ? sql`${value} asc nulls first` : sql`${value} desc nulls last`);
    }
    if (options.limit !== undefined) query = query.limit(options.limit);
    if (options.offset !== undefined && options.offset > 0) {
      if (options.limit === undefined) query = query.limit(this.kind === "sqlite" ? -1 : Number.MAX_SAFE_INTEGER);
      query = query.offset(options.offset);
    }
    try {
      return (await query.execute()) as Row[];
    } catch (error) {
      throw toInvalidTextError(error, this.kind);
    }
  }

  async count(table: string, where?: Condition): Promise<number> {
    try {
      const row = await this.db
        .selectFrom(table)
        .select(sql<number>`count(*)`.as("count"))
        .where(this.where(table, where))
        .executeTakeFirstOrThrow();
      return Number(row.count);
    } catch (error) {
      throw toInvalidTextError(error, this.kind);
    }
  }

  async update(table: string, where: Condition, values: Row): Promise<number> {
    try {
      const result = await this.db.updateTable(table).set(values).where(this.where(table, where)).executeTakeFirst();
      return Number(result.numUpdatedRows);
    } catch (error) {
      throw toInvalidTextError(toUniqueError(error, this.info(table), this.kind), this.kind);
    }
  }

  async delete(table: string, where: Condition): Promise<number> {
    try {
      const result = await this.db.deleteFrom(table).where(this.where(table, where)).executeTakeFirst();
      return Number(result.numDeletedRows);
    } catch (error) {
      throw toInvalidTextError(error, this.kind);
    }
  }

  async transaction<T>(fn: (driver: TableDriver) => Promise<T>): Promise<T> {
    if (this.inTransaction) return fn(this);
    return this.db.transaction().execute((trx) => fn(new KyselyDriver(this.kind, trx, this.registry, true)));
  }

  close(): Promise<void> {
    return this.onClose();
  }
}
