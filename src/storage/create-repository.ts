import type { Condition, ListQuery, OrderBy, Page, Repository } from "../ports/storage.js";
import { decodeColumn, encodeColumn } from "./column-codec.js";
import type { Row, TableDriver } from "./table-driver.js";
import { CHILD_POSITION_COLUMN, type ChildSpec, type ColumnType, type TableSpec } from "./table-spec.js";

const byId = (id: string): Condition => ({ op: "eq", column: "id", value: id });
const DEFAULT_ORDER: readonly OrderBy[] = [{ column: "createdDate", direction: "DESC" }];

function and(a: Condition, b?: Condition): Condition {
  return b ? { op: "and", conditions: [a, b] } : a;
}

type Columns = Readonly<Record<string, ColumnType>>;

/** the [column, type] pairs of a spec's columns, computed once per spec (rows are encoded and decoded per call) */
const columnEntries = new WeakMap<Columns, readonly (readonly [string, ColumnType])[]>();

function entriesOf(columns: Columns): readonly (readonly [string, ColumnType])[] {
  let entries = columnEntries.get(columns);
  if (entries === undefined) {
    entries = Object.entries(columns);
    columnEntries.set(columns, entries);
  }
  return entries;
}

function encodeRow(columns: Columns, source: Record<string, unknown>, onlyPresent: boolean): Row {
  const row: Row = {};
  for (const [column, type] of entriesOf(columns)) {
    if (onlyPresent && !Object.hasOwn(source, column)) continue;
    row[column] = encodeColumn(type, source[column]);
  }
  return row;
}

function decodeRow<T>(columns: Columns, row: Row): T {
  const entity: Record<string, unknown> = {};
  for (const [column, type] of entriesOf(columns)) {
    const value = decodeColumn(type, row[column]);
    if (value !== undefined) entity[column] = value;
  }
  return entity as T;
}

function childRows(child: ChildSpec, parentId: string, items: readonly Record<string, unknown>[]): Row[] {
  return items.map((item, position) => ({
    ...encodeRow(child.columns, item, false),
    [child.parentColumn]: parentId,
    [CHILD_POSITION_COLUMN]: position,
  }));
}

/** A Repository over one TableSpec, for any TableDriver. */
export function createRepository<T extends { id: string }>(driver: TableDriver, spec: TableSpec): Repository<T> {
  const children = Object.entries(spec.children ?? {});

  async function attachChildren(entities: T[]): Promise<T[]> {
    if (children.length === 0 || entities.length === 0) return entities;
    const ids = entities.map((e) => e.id);
    const index = new Map(entities.map((e) => [e.id, e as Record<string, unknown>]));
    for (const [field, child] of children) {
      for (const entity of entities) (entity as Record<string, unknown>)[field] = [];
      const rows = await driver.select(child.table, {
        where: { op: "in", column: child.parentColumn, values: ids },
        orderBy: [
          { column: child.parentColumn, direction: "ASC" },
          { column: CHILD_POSITION_COLUMN, direction: "ASC" },
        ],
      });
      for (const row of rows) {
        const parent = index.get(row[child.parentColumn] as string);
        if (parent) (parent[field] as unknown[]).push(decodeRow(child.columns, row));
      }
    }
    return entities;
  }

  async function select(where: Condition | undefined, orderBy: readonly OrderBy[], limit?: number, offset?: number) {
    const ordering = orderBy.some((o) => o.column === "id")
      ? orderBy
      : [...orderBy, { column: "id", direction: "ASC" as const }];
    const rows = await driver.select(spec.table, { where, orderBy: ordering, limit, offset });
    return attachChildren(rows.map((row) => decodeRow<T>(spec.columns, row)));
  }

  const inTransaction = <R>(fn: (d: TableDriver) => Promise<R>) =>
    children.length === 0 ? fn(driver) : driver.transaction(fn);
  /** a write that touches no child table is one statement: no transaction of its own */
  const touchesChildren = (values: Record<string, unknown>, nonEmpty: boolean) =>
    children.some(([field]) =>
      nonEmpty ? ((values[field] ?? []) as unknown[]).length > 0 : Object.hasOwn(values, field),
    );

  return {
    async insert(entity) {
      const row = encodeRow(spec.columns, entity as Record<string, unknown>, false);
      if (!touchesChildren(entity as Record<string, unknown>, true)) return driver.insert(spec.table, [row]);
      await inTransaction(async (d) => {
        await d.insert(spec.table, [row]);
        for (const [field, child] of children) {
          const items = ((entity as Record<string, unknown>)[field] ?? []) as Record<string, unknown>[];
          if (items.length > 0) await d.insert(child.table, childRows(child, entity.id, items));
        }
      });
    },
    async get(id) {
      const [entity] = await select(byId(id), [], 1);
      return entity;
    },
    async findOne(where) {
      const [entity] = await select(where, DEFAULT_ORDER, 1);
      return entity;
    },
    async findMany(where, options) {
      return select(where, options?.orderBy ?? DEFAULT_ORDER, options?.limit);
    },
    async list(query: ListQuery): Promise<Page<T>> {
      const totalItems = await driver.count(spec.table, query.where);
      const orderBy = query.orderBy && query.orderBy.length > 0 ? query.orderBy : DEFAULT_ORDER;
      const values = await select(query.where, orderBy, query.pageSize, query.page * query.pageSize);
      return { values, totalItems, totalPages: Math.ceil(totalItems / query.pageSize) };
    },
    count(where) {
      return driver.count(spec.table, where);
    },
    async update(id, patch, options) {
      const values = patch as Record<string, unknown>;
      const row = encodeRow(spec.columns, values, true);
      delete row.id;
      const write = touchesChildren(values, false)
        ? inTransaction
        : <R>(fn: (d: TableDriver) => Promise<R>) => fn(driver);
      return write(async (d) => {
        const where = and(byId(id), options?.where);
        const changed =
          Object.keys(row).length > 0 ? await d.update(spec.table, where, row) : await d.count(spec.table, where);
        if (changed === 0) return false;
        await replaceChildren(d, children, id, values);
        return true;
      });
    },
    async updateMany(where, patch) {
      const row = encodeRow(spec.columns, patch as Record<string, unknown>, true);
      delete row.id;
      return Object.keys(row).length > 0 ? driver.update(spec.table, where, row) : 0;
    },
    async delete(id, options) {
      return inTransaction(async (d) => {
        const removed = await d.delete(spec.table, and(byId(id), options?.where));
        if (removed > 0) {
          for (const [, child] of children)
            await d.delete(child.table, { op: "eq", column: child.parentColumn, value: id });
        }
        return removed > 0;
      });
    },
    async deleteMany(where) {
      if (children.length === 0) return driver.delete(spec.table, where);
      return driver.transaction(async (d) => {
        const doomed = await d.select(spec.table, { where });
        for (const [, child] of children) {
          await d.delete(child.table, {
            op: "in",
            column: child.parentColumn,
            values: doomed.map((r) => r.id as string),
          });
        }
        return d.delete(spec.table, where);
      });
    },
  };
}

async function replaceChildren(
  driver: TableDriver,
  children: [string, ChildSpec][],
  parentId: string,
  values: Record<string, unknown>,
): Promise<void> {
  for (const [field, child] of children) {
    if (!Object.hasOwn(values, field)) continue;
    await driver.delete(child.table, { op: "eq", column: child.parentColumn, value: parentId });
    const items = (values[field] ?? []) as Record<string, unknown>[];
    if (items.length > 0) await driver.insert(child.table, childRows(child, parentId, items));
  }
}
