import { z } from "zod";

/**
 * zod building blocks shared by every list endpoint (One Core conventions: reference §3.0, platform spec §4.1).
 * Feed the result of {@link listQuerySchema} to `parseQuery`, which turns the query string into the shapes below.
 */

/** 0-based page index, required. */
export const pageParam = z.number().int().min(0);

/** Items per page, 1..1000, required (One Core's deserializer requires it although its docs say 30). */
export const pageSizeParam = z.number().int().min(1).max(1000);

/** `ASC` (the default when absent) or `DESC`. */
export const sortDirectionParam = z.enum(["ASC", "DESC"]);
export type SortDirection = z.output<typeof sortDirectionParam>;

const RFC3339_MESSAGE = "expected an RFC 3339 timestamp with offset, e.g. 2024-01-31T12:00:00Z";

/**
 * An RFC 3339 timestamp with seconds and a `Z` or `±hh:mm` offset (`T`/`Z` in either case), checked for a real
 * calendar date (`2024-13-01`, `2023-02-29` are refused), parsed into a `Date`.
 */
export const rfc3339DateParam = z
  .string()
  .transform((value) => value.toUpperCase())
  .pipe(z.iso.datetime({ offset: true, error: RFC3339_MESSAGE }))
  .transform((value) => new Date(value));

/** An array of UUIDs (`ids[]=...`). */
export const uuidArrayParam = z.array(z.uuid({ error: "expected a UUID" }));

/** An array of values from a fixed list (`keyTypes[]=EDDSA&keyTypes[]=ECDSA`). */
export function enumArrayParam<const T extends readonly [string, ...string[]]>(values: T) {
  return z.array(z.enum(values));
}

type NonEmpty = readonly [string, ...string[]];

/** Shape of the fields every list endpoint shares. */
export function listQueryBaseShape<const Sort extends NonEmpty>(sort: Sort) {
  return {
    page: pageParam,
    pageSize: pageSizeParam,
    sort: z.enum(sort).optional(),
    sortDirection: sortDirectionParam.optional(),
    name: z.string().optional(),
    createdDateAfter: rfc3339DateParam.optional(),
    createdDateBefore: rfc3339DateParam.optional(),
    lastModifiedAfter: rfc3339DateParam.optional(),
    lastModifiedBefore: rfc3339DateParam.optional(),
    ids: uuidArrayParam.optional(),
  };
}

type BaseShape<Sort extends NonEmpty> = ReturnType<typeof listQueryBaseShape<Sort>>;
type ExactShape<Exact> = Exact extends NonEmpty
  ? { exact: z.ZodOptional<z.ZodArray<z.ZodEnum<{ [K in Exact[number]]: K }>>> }
  : // biome-ignore lint/complexity/noBannedTypes: an empty shape
    {};

/** Options of {@link listQuerySchema}. */
export interface ListQueryOptions<
  Sort extends NonEmpty,
  Exact extends NonEmpty | undefined,
  Extra extends z.ZodRawShape,
> {
  /** Allowed `sort=` columns of this endpoint. */
  sort: Sort;
  /** Columns `exact[]=` may switch from prefix to exact match; omit when the endpoint has no `exact[]`. */
  exact?: Exact;
  /** Endpoint-specific filters (e.g. `organisationId: z.uuid()`, `keyTypes: enumArrayParam([...]).optional()`). */
  extra?: Extra;
}

/**
 * The strict zod object of one list endpoint's query: `page`, `pageSize` (required), `sort`, `sortDirection`,
 * `exact` (only when `exact` is given), `name`, the four `createdDate*` / `lastModified*` ranges, `ids`, plus `extra`
 * (which may also override a base field). Unknown params are rejected.
 *
 * @example
 * const keyListQuery = listQuerySchema({
 *   sort: ["name", "createdDate", "publicKey", "keyType", "storageType"],
 *   exact: ["name"],
 *   extra: { organisationId: z.uuid().optional(), keyTypes: z.array(z.string()).optional() },
 * });
 * const query = parseQuery(new URL(c.req.url).searchParams, keyListQuery);
 */
export function listQuerySchema<
  const Sort extends NonEmpty,
  const Exact extends NonEmpty | undefined = undefined,
  // biome-ignore lint/complexity/noBannedTypes: no extra fields by default
  const Extra extends z.ZodRawShape = {},
>(options: ListQueryOptions<Sort, Exact, Extra>) {
  const base = listQueryBaseShape(options.sort);
  const exact = options.exact ? { exact: z.array(z.enum(options.exact)).optional() } : {};
  const shape = { ...base, ...exact } as BaseShape<Sort> & ExactShape<Exact>;
  return z.strictObject(shape).extend((options.extra ?? {}) as Extra);
}

/** What every list endpoint's parsed query has in common (the output of {@link listQuerySchema}, minus extras). */
export interface ListQueryBase {
  page: number;
  pageSize: number;
  sort?: string;
  sortDirection?: SortDirection;
  exact?: string[];
  name?: string;
  createdDateAfter?: Date;
  createdDateBefore?: Date;
  lastModifiedAfter?: Date;
  lastModifiedBefore?: Date;
  ids?: string[];
}
