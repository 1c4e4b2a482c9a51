import type { Condition, Scalar } from "../../ports/storage.js";
import { encodeColumn } from "../column-codec.js";
import type { TableInfo } from "../spec-registry.js";
import type { Row } from "../table-driver.js";

export type RowSource = (table: string) => Iterable<Row>;

function encode(info: TableInfo, column: string, value: Scalar): unknown {
  const type = info.columns[column];
  if (type === undefined) throw new Error(`unknown column ${info.table}.${column}`);
  return type === "json" ? value : encodeColumn(type, value);
}

function compare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  return (a as number) < (b as number) ? -1 : 1;
}

/** SQLite's lower() folds ASCII only; the memory adapter does the same so results match across adapters. */
export function lowerAscii(value: string): string {
  return value.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

/** Evaluates a storage Condition against an encoded row, exactly as the SQL compiler's WHERE would. */
export function evaluateCondition(
  condition: Condition,
  row: Row,
  info: TableInfo,
  tables: Map<string, TableInfo>,
  rows: RowSource,
): boolean {
  switch (condition.op) {
    case "eq": {
      const value = row[condition.column] ?? null;
      const expected = encode(info, condition.column, condition.value);
      return expected !== null && value !== null && compare(value, expected) === 0;
    }
    case "ne": {
      const value = row[condition.column] ?? null;
      const expected = encode(info, condition.column, condition.value);
      return expected !== null && value !== null && compare(value, expected) !== 0;
    }
    case "lt":
    case "lte":
    case "gt":
    case "gte": {
      const value = row[condition.column] ?? null;
      const expected = encode(info, condition.column, condition.value);
      if (value === null || expected === null) return false;
      const c = compare(value, expected);
      return condition.op === "lt" ? c < 0 : condition.op === "lte" ? c <= 0 : condition.op === "gt" ? c > 0 : c >= 0;
    }
    case "in":
    case "notIn": {
      const value = row[condition.column] ?? null;
      if (value === null) return false;
      const found = condition.values.some((v) => compare(value, encode(info, condition.column, v)) === 0);
      return condition.op === "in" ? found : !found;
    }
    case "isNull":
      return (row[condition.column] ?? null) === null;
    case "notNull":
      return (row[condition.column] ?? null) !== null;
    case "startsWith":
    case "contains":
    case "equalsIgnoreCase": {
      const value = row[condition.column];
      if (typeof value !== "string") return false;
      const haystack = lowerAscii(value);
      const needle = lowerAscii(condition.value);
      if (condition.op === "startsWith") return haystack.startsWith(needle);
      if (condition.op === "contains") return haystack.includes(needle);
      return haystack === needle;
    }
    case "and":
      return condition.conditions.every((c) => evaluateCondition(c, row, info, tables, rows));
    case "or":
      return condition.conditions.some((c) => evaluateCondition(c, row, info, tables, rows));
    case "not":
      return !evaluateCondition(condition.condition, row, info, tables, rows);
    case "exists": {
      const related = tables.get(condition.table);
      if (!related) throw new Error(`unknown table ${condition.table}`);
      const joins = Object.entries(condition.on);
      for (const candidate of rows(condition.table)) {
        if (!joins.every(([theirs, ours]) => candidate[theirs] !== null && candidate[theirs] === row[ours])) continue;
        if (!condition.where || evaluateCondition(condition.where, candidate, related, tables, rows)) return true;
      }
      return false;
    }
  }
}
