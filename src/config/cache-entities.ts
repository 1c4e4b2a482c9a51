import { z } from "zod";
import { CACHE_ENTITY_TYPES, CACHE_TYPES } from "./type-enums.js";

// `cacheEntities` (reference §7): keyed by the cached entity type.

export const cacheEntitySchema = z
  .strictObject({
    cacheType: z.enum(CACHE_TYPES),
    /** Maximum number of cached items. */
    cacheSize: z.number().int().nonnegative(),
    /** Seconds after which an entry is refreshed on next use (soft refresh; the stale value is served on failure). */
    refreshAfter: z.number().int().nonnegative(),
    /** Seconds after which an entry is no longer used at all (hard expiry). */
    cacheRefreshTimeout: z.number().int().nonnegative(),
  })
  .superRefine((entry, ctx) => {
    if (entry.refreshAfter > entry.cacheRefreshTimeout) {
      ctx.addIssue({ code: "custom", path: ["refreshAfter"], message: "must not exceed cacheRefreshTimeout" });
    }
  });

export const cacheEntitiesSchema = z
  .partialRecord(z.enum(CACHE_ENTITY_TYPES), cacheEntitySchema, {
    error: (issue) =>
      (issue.code as string) === "unrecognized_keys"
        ? `not a cache entity type (allowed: ${CACHE_ENTITY_TYPES.join(", ")})`
        : undefined,
  })
  .default(() => ({}));

export type CacheEntityConfig = z.output<typeof cacheEntitySchema>;
