import type { Condition, OrderBy } from "../ports/storage.js";

/** A stored row: column -> encoded value (see ColumnType). */
export type Row = Record<string, unknown>;

export interface SelectOptions {
  where?: Condition;
  orderBy?: readonly OrderBy[];
  limit?: number;
  offset?: number;
}

/**
 * The low-level contract an adapter implements over tables described by TableSpecs. Values are already encoded
 * (booleans 0/1, dates epoch ms, JSON text), conditions still carry decoded values (the driver encodes them using the
 * column types it was built with). Unique violations throw CredkitError with the spec's code.
 */
export interface TableDriver {
  readonly kind: string;
  insert(table: string, rows: readonly Row[]): Promise<void>;
  select(table: string, options: SelectOptions): Promise<Row[]>;
  count(table: string, where?: Condition): Promise<number>;
  update(table: string, where: Condition, values: Row): Promise<number>;
  delete(table: string, where: Condition): Promise<number>;
  /** runs fn in one transaction; a nested call on the transaction's driver joins it */
  transaction<T>(fn: (driver: TableDriver) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
