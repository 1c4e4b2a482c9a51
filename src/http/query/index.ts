export {
  enumArrayParam,
  type ListQueryBase,
  type ListQueryOptions,
  listQueryBaseShape,
  listQuerySchema,
  pageParam,
  pageSizeParam,
  rfc3339DateParam,
  type SortDirection,
  sortDirectionParam,
  uuidArrayParam,
} from "./list-query.js";
export { parseQuery } from "./parse-query.js";
