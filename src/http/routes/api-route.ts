import type { z } from "zod";
import type { CredkitConfig } from "../../config/schema.js";
import type { Credkit } from "../../credkit.js";
import type { CallContext } from "../../engines/common/call-context.js";
import type { Permission } from "../auth/permissions.js";

export interface ApiRouteInput<B, Q> {
  kit: Credkit;
  context: CallContext;
  params: Record<string, string>;
  body: B;
  query: Q;
  request: Request;
}

/**
 * One management endpoint, declared once: the app mounts it (auth, permission, strict body/query parsing, error
 * mapping) and the OpenAPI document is generated from the same schemas.
 */
export interface ApiRoute<B = unknown, Q = unknown> {
  method: "get" | "post" | "patch" | "put" | "delete";
  /** OpenAPI-style path: /api/key/v1/{id} */
  path: string;
  /** any one of these is enough; empty = authenticated only */
  permissions: readonly Permission[];
  summary: string;
  tag: string;
  body?: z.ZodType<B>;
  /** body may be absent (e.g. share with optional params) */
  optionalBody?: boolean;
  query?: z.ZodObject;
  /** success status: 200 JSON, 201 JSON, 204 empty */
  status: 200 | 201 | 204;
  /** route exists only when this returns true */
  enabled?: (config: CredkitConfig) => boolean;
  handle(input: ApiRouteInput<B, Q>): Promise<unknown>;
}

/** Declares a route with its body and query types inferred from the schemas. */
export function defineRoute<
  BS extends z.ZodType | undefined = undefined,
  QS extends z.ZodObject | undefined = undefined,
>(
  route: Omit<ApiRoute, "body" | "query" | "handle"> & {
    body?: BS;
    query?: QS;
    handle(
      input: ApiRouteInput<
        BS extends z.ZodType ? z.output<BS> : undefined,
        QS extends z.ZodObject ? z.output<QS> : undefined
      >,
    ): Promise<unknown>;
  },
): ApiRoute {
  return route as unknown as ApiRoute;
}
