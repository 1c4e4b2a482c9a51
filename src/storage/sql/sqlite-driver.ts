import type Database from "better-sqlite3";
import type { Condition, OrderBy, Scalar } from "../../ports/storage.js";
import { encodeColumn } from "../column-codec.js";
import type { TableInfo } from "../spec-registry.js";
import type { Row, SelectOptions, TableDriver } from "../table-driver.js";
import { toUniqueError } from "./kysely-driver.js";

const quote = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;

function encode(info: TableInfo, column: string, value: Scalar): unknown {
  const type = info.columns[column];
  if (type === undefined) throw new Error(`unknown column ${info.table}.${column}`);
  return type === "json" ? value : encodeColumn(type, value);
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * Compiles a storage Condition to SQLite SQL text with `?` parameters — the same semantics as compile-condition.ts
 * (the contract suite runs both), without a query builder on the hot path.
 */
function compile(
  condition: Condition,
  info: TableInfo,
  tables: Map<string, TableInfo>,
  alias: string,
  depth: number,
  params: unknown[],
): string {
  const column = (name: string) => {
    if (info.columns[name] === undefined) throw new Error(`unknown column ${info.table}.${name}`);
    return `${quote(alias)}.${quote(name)}`;
  };
  switch (condition.op) {
    case "eq":
    case "ne":
    case "lt":
    case "lte":
    case "gt":
    case "gte": {
      const value = encode(info, condition.column, condition.value);
      if (value === null) return "1 = 0";
      params.push(value);
      return `${column(condition.column)} ${{ eq: "=", ne: "<>", lt: "<", lte: "<=", gt: ">", gte: ">=" }[condition.op]} ?`;
    }
    case "in":
    case "notIn": {
      if (condition.values.length === 0)
        return condition.op === "in" ? "1 = 0" : `${column(condition.column)} is not null`;
      for (const value of condition.values) params.push(encode(info, condition.column, value));
      const placeholders = condition.values.map(() => "?").join(", ");
      return `${column(condition.column)} ${condition.op === "in" ? "in" : "not in"} (${placeholders})`;
    }
    case "isNull":
      return `${column(condition.column)} is null`;
    case "notNull":
      return `${column(condition.column)} is not null`;
    case "startsWith":
    case "contains":
    case "equalsIgnoreCase": {
      const needle = escapeLike(condition.value);
      params.push(condition.op === "startsWith" ? `${needle}%` : condition.op === "contains" ? `%${needle}%` : needle);
      return `lower(${column(condition.column)}) like lower(?) escape '\\'`;
    }
    case "and":
    case "or": {
      if (condition.conditions.length === 0) return condition.op === "and" ? "1 = 1" : "1 = 0";
      return condition.conditions
        .map((c) => `(${compile(c, info, tables, alias, depth, params)})`)
        .join(condition.op === "and" ? " and " : " or ");
    }
    case "not":
      return `not (${compile(condition.condition, info, tables, alias, depth, params)})`;
    case "exists": {
      const related = tables.get(condition.table);
      if (!related) throw new Error(`unknown table ${condition.table}`);
      const inner = `t${depth + 1}`;
      const parts = Object.entries(condition.on).map(
        ([theirs, ours]) => `${quote(inner)}.${quote(theirs)} = ${column(ours)}`,
      );
      if (condition.where) parts.push(`(${compile(condition.where, related, tables, inner, depth + 1, params)})`);
      return `exists (select 1 from ${quote(condition.table)} as ${quote(inner)} where ${parts.join(" and ")})`;
    }
  }
}

function integerLiteral(value: number): string {
  if (!Number.isSafeInteger(value)) throw new Error(`not an integer: ${value}`);
  return String(value);
}

interface Lock {
  current: Promise<void>;
}

const STATEMENT_CACHE_SIZE = 512;
/** rows per multi-row INSERT (bounded so that one statement stays far below SQLite's parameter limit) */
const MAX_ROWS_PER_INSERT = 50;

/**
 * TableDriver straight on better-sqlite3 (the embedded default): SQL text compiled from the condition tree, prepared
 * statements cached per text, transactions as BEGIN IMMEDIATE … COMMIT on the one connection. While a transaction is
 * open, other operations wait (they would otherwise run inside it). Migrations still use Kysely.
 */
export class SqliteDriver implements TableDriver {
  readonly kind = "sqlite";

  constructor(
    private readonly db: Database.Database,
    private readonly registry: Map<string, TableInfo>,
    private readonly statements: Map<string, Database.Statement> = new Map(),
    private readonly lock: Lock = { current: Promise.resolve() },
    private readonly inTransaction = false,
    private readonly onClose: () => Promise<void> = async () => {},
  ) {}

  private transactionDriver: SqliteDriver | undefined;

  private info(table: string): TableInfo {
    const info = this.registry.get(table);
    if (!info) throw new Error(`unknown table ${table}`);
    return info;
  }

  private statement(text: string): Database.Statement {
    let statement = this.statements.get(text);
    if (statement) {
      this.statements.delete(text);
    } else {
      statement = this.db.prepare(text);
      if (this.statements.size >= STATEMENT_CACHE_SIZE) this.statements.delete(this.statements.keys().next().value!);
    }
    this.statements.set(text, statement);
    return statement;
  }

  /** Runs a synchronous operation, after any transaction in progress (unless we are that transaction). */
  private async run<T>(operation: () => T): Promise<T> {
    if (!this.inTransaction) await this.lock.current;
    return operation();
  }

  private where(table: string, condition: Condition | undefined, params: unknown[]): string {
    return condition ? compile(condition, this.info(table), this.registry, table, 0, params) : "1 = 1";
  }

  private orderBy(table: string, orderBy: readonly OrderBy[] | undefined): string {
    if (!orderBy || orderBy.length === 0) return "";
    const parts = orderBy.map(({ column, direction, from }) => {
      const source = from ? this.info(from.table) : this.info(table);
      if (source.columns[column] === undefined) throw new Error(`unknown column ${source.table}.${column}`);
      const value = from
        ? `(select "o".${quote(column)} from ${quote(from.table)} as "o" where ${Object.entries(from.on)
            .map(([theirs, ours]) => `"o".${quote(theirs)} = ${quote(table)}.${quote(ours)}`)
            .join(" and ")} limit 1)`
        : `${quote(table)}.${quote(column)}`;
      // NULL sorts as the smallest value, as in every adapter
      return direction === "ASC" ? `${value} asc nulls first` : `${value} desc nulls last`;
    });
    return ` order by ${parts.join(", ")}`;
  }

  insert(table: string, rows: readonly Row[]): Promise<void> {
    return this.run(() => {
      // consecutive rows with the same columns go in one multi-row statement (children of one parent)
      for (let start = 0; start < rows.length; ) {
        const columns = Object.keys(rows[start]!);
        const key = columns.join("\u0000");
        let end = start + 1;
        while (end < rows.length && end - start < MAX_ROWS_PER_INSERT && Object.keys(rows[end]!).join("\u0000") === key)
          end++;
        const tuple = `(${columns.map(() => "?").join(", ")})`;
        const text = `insert into ${quote(table)} (${columns.map(quote).join(", ")}) values ${Array(end - start)
          .fill(tuple)
          .join(", ")}`;
        const params: unknown[] = [];
        for (let i = start; i < end; i++) for (const c of columns) params.push(rows[i]![c] ?? null);
        try {
          this.statement(text).run(params);
        } catch (error) {
          throw toUniqueError(error, this.info(table), "sqlite");
        }
        start = end;
      }
    });
  }

  select(table: string, options: SelectOptions): Promise<Row[]> {
    return this.run(() => {
      const params: unknown[] = [];
      let text = `select * from ${quote(table)} where ${this.where(table, options.where, params)}${this.orderBy(table, options.orderBy)}`;
      if (options.limit !== undefined || (options.offset !== undefined && options.offset > 0)) {
        // the limit goes into the text: with a bound LIMIT a point select measured 2-3x slower (offsets stay bound)
        text += ` limit ${integerLiteral(options.limit ?? -1)}`;
        if (options.offset !== undefined && options.offset > 0) {
          text += " offset ?";
          params.push(options.offset);
        }
      }
      return this.statement(text).all(params) as Row[];
    });
  }

  count(table: string, where?: Condition): Promise<number> {
    return this.run(() => {
      const params: unknown[] = [];
      const text = `select count(*) as "count" from ${quote(table)} where ${this.where(table, where, params)}`;
      return Number((this.statement(text).get(params) as { count: number }).count);
    });
  }

  update(table: string, where: Condition, values: Row): Promise<number> {
    return this.run(() => {
      const columns = Object.keys(values);
      const params: unknown[] = columns.map((c) => values[c] ?? null);
      const text = `update ${quote(table)} set ${columns.map((c) => `${quote(c)} = ?`).join(", ")} where ${this.where(table, where, params)}`;
      try {
        return Number(this.statement(text).run(params).changes);
      } catch (error) {
        throw toUniqueError(error, this.info(table), "sqlite");
      }
    });
  }

  delete(table: string, where: Condition): Promise<number> {
    return this.run(() => {
      const params: unknown[] = [];
      const text = `delete from ${quote(table)} where ${this.where(table, where, params)}`;
      return Number(this.statement(text).run(params).changes);
    });
  }

  async transaction<T>(fn: (driver: TableDriver) => Promise<T>): Promise<T> {
    if (this.inTransaction) return fn(this);
    const previous = this.lock.current;
    let release!: () => void;
    this.lock.current = new Promise<void>((resolve) => {
      release = resolve;
    });
    await previous;
    try {
      this.db.exec("BEGIN IMMEDIATE");
      try {
        // one transaction at a time holds the connection: its driver (stateless) is made once and reused
        this.transactionDriver ??= new SqliteDriver(this.db, this.registry, this.statements, this.lock, true);
        const result = await fn(this.transactionDriver);
        this.db.exec("COMMIT");
        return result;
      } catch (error) {
        if (this.db.inTransaction) this.db.exec("ROLLBACK");
        throw error;
      }
    } finally {
      release();
    }
  }

  close(): Promise<void> {
    return this.onClose();
  }
}
