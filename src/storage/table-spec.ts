import type { ErrorCode } from "../errors/catalogue.js";

/** How a column is kept: booleans as 0/1 integers and dates as epoch milliseconds in every adapter, JSON as text. */
export type ColumnType = "text" | "integer" | "boolean" | "date" | "json" | "blob";

export interface UniqueSpec {
  /** constraint / index name, identical in every adapter */
  name: string;
  columns: readonly string[];
  /** partial uniqueness: only among rows where these columns are NULL (soft delete) */
  whereNull?: readonly string[];
  /** BR code thrown when a write breaks it */
  code: ErrorCode;
}

/** A one-to-many collection kept in its own table, loaded with its parent (e.g. a DID's keys). */
export interface ChildSpec {
  table: string;
  /** column of the child table holding the parent id */
  parentColumn: string;
  columns: Readonly<Record<string, ColumnType>>;
}

/** Declarative description of one aggregate's table: the repositories and all adapters work from it. */
export interface TableSpec {
  table: string;
  /** entity field -> column type; `id` (text) is the primary key */
  columns: Readonly<Record<string, ColumnType>>;
  children?: Readonly<Record<string, ChildSpec>>;
  unique?: readonly UniqueSpec[];
  /** BR code when a referenced row is not found (unused by adapters, for documentation) */
  notFound?: ErrorCode;
}

/** Column name that keeps a child row's position within its parent collection. */
export const CHILD_POSITION_COLUMN = "position";
