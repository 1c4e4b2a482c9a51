import { type Expression, type ExpressionBuilder, type RawBuilder, type SqlBool, sql } from "kysely";
import type { Condition, Scalar } from "../../ports/storage.js";
import { encodeColumn } from "../column-codec.js";
import type { TableInfo } from "../spec-registry.js";

function encode(info: TableInfo, column: string, value: Scalar): unknown {
  const type = info.columns[column];
  if (type === undefined) throw new Error(`unknown column ${info.table}.${column}`);
  return type === "json" ? value : encodeColumn(type, value);
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

const ref = (table: string, column: string) => sql.ref(`${table}.${column}`);

/**
 * Compiles a storage Condition to a SQL boolean expression over `table` (qualified column references, so `exists`
 * subqueries can correlate). Text matches are `lower(col) LIKE lower(pattern)` with escaping, as evaluate-condition.
 */
export function compileCondition(
  condition: Condition,
  info: TableInfo,
  tables: Map<string, TableInfo>,
  alias: string = info.table,
  depth = 0,
): RawBuilder<SqlBool> {
  const column = (name: string) => {
    if (info.columns[name] === undefined) throw new Error(`unknown column ${info.table}.${name}`);
    return ref(alias, name);
  };
  switch (condition.op) {
    case "eq":
    case "ne":
    case "lt":
    case "lte":
    case "gt":
    case "gte": {
      const operator = { eq: "=", ne: "<>", lt: "<", lte: "<=", gt: ">", gte: ">=" }[condition.op];
      const value = encode(info, condition.column, condition.value);
      if (value === null) return sql<SqlBool>`1 = 0`;
      return sql<SqlBool>`${column(condition.column)} ${sql.raw(operator)} ${value}`;
    }
    case "in":
    case "notIn": {
      if (condition.values.length === 0)
        return condition.op === "in" ? sql<SqlBool>`1 = 0` : sql<SqlBool>`${column(condition.column)} is not null`;
      const values = sql.join(condition.values.map((v) => sql`${encode(info, condition.column, v)}`));
      return condition.op === "in"
        ? sql<SqlBool>`${column(condition.column)} in (${values})`
        : sql<SqlBool>`${column(condition.column)} not in (${values})`;
    }
    case "isNull":
      return sql<SqlBool>`${column(condition.column)} is null`;
    case "notNull":
      return sql<SqlBool>`${column(condition.column)} is not null`;
    case "startsWith":
    case "contains":
    case "equalsIgnoreCase": {
      const needle = escapeLike(condition.value);
      const pattern =
        condition.op === "startsWith" ? `${needle}%` : condition.op === "contains" ? `%${needle}%` : needle;
      return sql<SqlBool>`lower(${column(condition.column)}) like lower(${pattern}) escape '\\'`;
    }
    case "and":
    case "or": {
      if (condition.conditions.length === 0) return condition.op === "and" ? sql<SqlBool>`1 = 1` : sql<SqlBool>`1 = 0`;
      const parts = condition.conditions.map((c) => sql`(${compileCondition(c, info, tables, alias, depth)})`);
      return sql<SqlBool>`${sql.join(parts, sql.raw(condition.op === "and" ? " and " : " or "))}`;
    }
    case "not":
      return sql<SqlBool>`not (${compileCondition(condition.condition, info, tables, alias, depth)})`;
    case "exists": {
      const related = tables.get(condition.table);
      if (!related) throw new Error(`unknown table ${condition.table}`);
      const inner = `t${depth + 1}`;
      const joins = Object.entries(condition.on).map(([theirs, ours]) => sql`${ref(inner, theirs)} = ${column(ours)}`);
      const filters = condition.where
        ? [sql`(${compileCondition(condition.where, related, tables, inner, depth + 1)})`]
        : [];
      return sql<SqlBool>`exists (select 1 from ${sql.table(condition.table)} as ${sql.raw(`"${inner}"`)} where ${sql.join([...joins, ...filters], sql.raw(" and "))})`;
    }
  }
}

export type { Expression, ExpressionBuilder };
