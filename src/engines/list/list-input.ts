import { z } from "zod";
import { SORT_DIRECTIONS } from "../../domain/enums.js";
import type { Condition, ListQuery, OrderBy } from "../../ports/storage.js";

/** RFC 3339 timestamp with offset (string in, Date out) or a Date. */
export const timestampInput = z.union([
  z.date(),
  z
    .string()
    .transform((value) => value.toUpperCase()) // RFC 3339 §5.6 allows lower-case "t" and "z"
    .pipe(z.iso.datetime({ offset: true }))
    .transform((value) => new Date(value)),
]);

/** Shared list conventions (reference §3.0, spec §4.1): 0-based page, pageSize 1..1000, sort, exact[], dates. */
export function listInputSchema<
  const Sort extends readonly [string, ...string[]],
  const Exact extends readonly [string, ...string[]],
  Extra extends z.ZodRawShape,
>(options: { sort: Sort; exact: Exact; extra: Extra }) {
  return z
    .object({
      page: z.number().int().min(0),
      pageSize: z.number().int().min(1).max(1000),
      sort: z.enum(options.sort).optional(),
      sortDirection: z.enum(SORT_DIRECTIONS).optional(),
      exact: z.array(z.enum(options.exact)).optional(),
      name: z.string().optional(),
      ids: z.array(z.uuid()).optional(),
      createdDateAfter: timestampInput.optional(),
      createdDateBefore: timestampInput.optional(),
      lastModifiedAfter: timestampInput.optional(),
      lastModifiedBefore: timestampInput.optional(),
      ...options.extra,
    })
    .strict();
}

export interface ListInputBase {
  page: number;
  pageSize: number;
  sort?: string;
  sortDirection?: "ASC" | "DESC";
  exact?: string[];
  name?: string;
  ids?: string[];
  createdDateAfter?: Date;
  createdDateBefore?: Date;
  lastModifiedAfter?: Date;
  lastModifiedBefore?: Date;
}

/** Condition for a text filter: case-insensitive prefix, or case-insensitive equality when listed in exact[]. */
export function textFilter(
  column: string,
  value: string | undefined,
  exact: readonly string[] | undefined,
  exactName = column,
): Condition | undefined {
  if (value === undefined) return undefined;
  return exact?.includes(exactName) ? { op: "equalsIgnoreCase", column, value } : { op: "startsWith", column, value };
}

export function dateRange(column: string, after: Date | undefined, before: Date | undefined): Condition[] {
  const conditions: Condition[] = [];
  if (after) conditions.push({ op: "gte", column, value: after });
  if (before) conditions.push({ op: "lte", column, value: before });
  return conditions;
}

export function inFilter(column: string, values: readonly (string | boolean)[] | undefined): Condition | undefined {
  return values === undefined ? undefined : { op: "in", column, values };
}

export function allOf(...conditions: (Condition | undefined)[]): Condition {
  return { op: "and", conditions: conditions.filter((c): c is Condition => c !== undefined) };
}

/**
 * Turns a parsed list input into a storage ListQuery: the common filters (name, ids, created/lastModified ranges)
 * plus the endpoint's own conditions, and the sort (default createdDate DESC; ASC when sort has no direction).
 */
export function buildListQuery(
  input: ListInputBase,
  options: {
    sortColumns: Readonly<Record<string, string>>;
    conditions: (Condition | undefined)[];
    nameColumn?: string | false;
  },
): ListQuery {
  const orderBy: OrderBy[] = input.sort
    ? [{ column: options.sortColumns[input.sort] ?? input.sort, direction: input.sortDirection ?? "ASC" }]
    : [{ column: "createdDate", direction: input.sortDirection ?? "DESC" }];
  const nameColumn = options.nameColumn === undefined ? "name" : options.nameColumn;
  return {
    page: input.page,
    pageSize: input.pageSize,
    orderBy,
    where: allOf(
      ...options.conditions,
      nameColumn ? textFilter(nameColumn, input.name, input.exact, "name") : undefined,
      inFilter("id", input.ids),
      ...dateRange("createdDate", input.createdDateAfter, input.createdDateBefore),
      ...dateRange("lastModified", input.lastModifiedAfter, input.lastModifiedBefore),
    ),
  };
}
