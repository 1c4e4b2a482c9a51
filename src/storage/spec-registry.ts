import type { ColumnType, TableSpec, UniqueSpec } from "./table-spec.js";
import { CHILD_POSITION_COLUMN } from "./table-spec.js";

export interface TableInfo {
  table: string;
  columns: Readonly<Record<string, ColumnType>>;
  unique: readonly UniqueSpec[];
  /** whether rows have an `id` primary key (child tables do not) */
  hasId: boolean;
}

/** Every physical table (aggregates and their child tables) by name, with column types for value encoding. */
export function buildTableRegistry(specs: readonly TableSpec[]): Map<string, TableInfo> {
  const registry = new Map<string, TableInfo>();
  for (const spec of specs) {
    registry.set(spec.table, { table: spec.table, columns: spec.columns, unique: spec.unique ?? [], hasId: true });
    for (const child of Object.values(spec.children ?? {})) {
      registry.set(child.table, {
        table: child.table,
        columns: { ...child.columns, [child.parentColumn]: "text", [CHILD_POSITION_COLUMN]: "integer" },
        unique: [],
        hasId: false,
      });
    }
  }
  return registry;
}
