import { CredkitError } from "../../errors/credkit-error.js";
import type { Condition, OrderBy } from "../../ports/storage.js";
import type { TableInfo } from "../spec-registry.js";
import type { Row, SelectOptions, TableDriver } from "../table-driver.js";
import { evaluateCondition } from "./evaluate-condition.js";

type Undo = () => void;

interface MemoryState {
  tables: Map<string, Row[]>;
  /** serialises transactions and standalone operations: a transaction is invisible until it commits or undoes */
  lock: Promise<void>;
}

function compareValues(a: unknown, b: unknown): number {
  const nullA = a === null || a === undefined;
  const nullB = b === null || b === undefined;
  if (nullA || nullB) return nullA === nullB ? 0 : nullA ? -1 : 1;
  if (a === b) return 0;
  return (a as number) < (b as number) ? -1 : 1;
}

function sortRows(rows: Row[], orderBy: readonly OrderBy[], related: (table: string) => Row[]): Row[] {
  const sortValueOf = (row: Row, order: OrderBy): unknown => {
    if (!order.from) return row[order.column];
    const joins = Object.entries(order.from.on);
    const match = related(order.from.table).find((candidate) =>
      joins.every(([theirs, ours]) => candidate[theirs] === row[ours]),
    );
    return match?.[order.column];
  };
  return rows.sort((x, y) => {
    for (const order of orderBy) {
      const { direction } = order;
      const c = compareValues(sortValueOf(x, order), sortValueOf(y, order));
      if (c !== 0) return direction === "ASC" ? c : -c;
    }
    return 0;
  });
}

/** In-process TableDriver: rows in arrays, the same semantics as the SQL adapters (checked by the contract suite). */
export class MemoryDriver implements TableDriver {
  readonly kind = "memory";
  private readonly undo: Undo[] | undefined;

  constructor(
    private readonly registry: Map<string, TableInfo>,
    private readonly state: MemoryState = { tables: new Map(), lock: Promise.resolve() },
    undo?: Undo[],
  ) {
    this.undo = undo;
    for (const table of registry.keys()) if (!state.tables.has(table)) state.tables.set(table, []);
  }

  private info(table: string): TableInfo {
    const info = this.registry.get(table);
    if (!info) throw new Error(`unknown table ${table}`);
    return info;
  }

  private rows(table: string): Row[] {
    return this.state.tables.get(table) ?? [];
  }

  private matches(table: string, where: Condition | undefined): Row[] {
    const info = this.info(table);
    const source = (t: string) => this.rows(t);
    return where
      ? this.rows(table).filter((row) => evaluateCondition(where, row, info, this.registry, source))
      : [...this.rows(table)];
  }

  /** Runs a standalone operation under the lock, or directly when inside a transaction (which holds it). */
  private async exclusive<T>(fn: () => T): Promise<T> {
    if (this.undo) return fn();
    const previous = this.state.lock;
    let release!: () => void;
    this.state.lock = new Promise((resolve) => {
      release = resolve;
    });
    await previous;
    try {
      return fn();
    } finally {
      release();
    }
  }

  private checkUnique(table: string, candidate: Row, ignore?: Row): void {
    const info = this.info(table);
    for (const unique of info.unique) {
      if (unique.whereNull?.some((c) => (candidate[c] ?? null) !== null)) continue;
      if (unique.columns.some((c) => (candidate[c] ?? null) === null)) continue;
      const clash = this.rows(table).some(
        (row) =>
          row !== ignore &&
          !unique.whereNull?.some((c) => (row[c] ?? null) !== null) &&
          unique.columns.every((c) => row[c] === candidate[c]),
      );
      if (clash) throw new CredkitError(unique.code, `unique constraint ${unique.name} violated`);
    }
  }

  insert(table: string, rows: readonly Row[]): Promise<void> {
    return this.exclusive(() => {
      const target = this.rows(table);
      const added: Row[] = [];
      try {
        for (const row of rows) {
          const stored: Row = {};
          for (const column of Object.keys(this.info(table).columns)) stored[column] = row[column] ?? null;
          this.checkUnique(table, stored);
          target.push(stored);
          added.push(stored);
        }
      } catch (error) {
        for (const row of added) target.splice(target.indexOf(row), 1);
        throw error;
      }
      this.undo?.push(() => {
        for (const row of added) {
          const index = target.indexOf(row);
          if (index >= 0) target.splice(index, 1);
        }
      });
    });
  }

  select(table: string, options: SelectOptions): Promise<Row[]> {
    return this.exclusive(() => {
      let rows = this.matches(table, options.where);
      if (options.orderBy && options.orderBy.length > 0) rows = sortRows(rows, options.orderBy, (t) => this.rows(t));
      const start = options.offset ?? 0;
      const end = options.limit === undefined ? undefined : start + options.limit;
      return rows.slice(start, end).map((row) => ({ ...row }));
    });
  }

  count(table: string, where?: Condition): Promise<number> {
    return this.exclusive(() => this.matches(table, where).length);
  }

  update(table: string, where: Condition, values: Row): Promise<number> {
    return this.exclusive(() => {
      const rows = this.matches(table, where);
      const previous = rows.map((row) => ({ ...row }));
      const restore = () => {
        for (const [i, row] of rows.entries()) Object.assign(row, previous[i]);
      };
      try {
        for (const row of rows) {
          this.checkUnique(table, { ...row, ...values }, row);
          Object.assign(row, values);
        }
      } catch (error) {
        restore();
        throw error;
      }
      this.undo?.push(restore);
      return rows.length;
    });
  }

  delete(table: string, where: Condition): Promise<number> {
    return this.exclusive(() => {
      const doomed = new Set(this.matches(table, where));
      const target = this.rows(table);
      const kept = target.filter((row) => !doomed.has(row));
      const before = [...target];
      target.splice(0, target.length, ...kept);
      this.undo?.push(() => target.splice(0, target.length, ...before));
      return doomed.size;
    });
  }

  async transaction<T>(fn: (driver: TableDriver) => Promise<T>): Promise<T> {
    if (this.undo) return fn(this);
    const previous = this.state.lock;
    let release!: () => void;
    this.state.lock = new Promise((resolve) => {
      release = resolve;
    });
    await previous;
    const undo: Undo[] = [];
    try {
      return await fn(new MemoryDriver(this.registry, this.state, undo));
    } catch (error) {
      for (const step of undo.reverse()) step();
      throw error;
    } finally {
      release();
    }
  }

  async close(): Promise<void> {}
}
