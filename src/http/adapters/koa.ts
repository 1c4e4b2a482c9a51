import type { IncomingMessage, ServerResponse } from "node:http";
import {
  type AdapterOptions,
  createHandOverListener,
  type FetchHandler,
  normalizePrefix,
  stripPrefix,
} from "./bridge.js";

/** The parts of a Koa 3 context the adapter uses (structural, so `koa` is not a runtime dependency). */
export interface KoaLikeContext {
  req: IncomingMessage;
  res: ServerResponse;
  /** Set to `false` so Koa leaves the response to the adapter. */
  respond?: boolean;
  /** koa-bodyparser and friends put the parsed body (and sometimes the raw text) here. */
  request: { body?: unknown; rawBody?: unknown };
  /** Set by koa-mount. */
  mountPath?: string;
}

/** A Koa middleware. */
export type KoaLikeMiddleware = (ctx: KoaLikeContext, next: () => Promise<unknown>) => Promise<void>;

/** Options of {@link toKoaMiddleware}. */
export type KoaMiddlewareOptions = AdapterOptions;

/**
 * Mounts a fetch handler in Koa 3: `app.use(toKoaMiddleware(app.fetch, { prefix: "/credkit" }))`. Requests outside
 * `prefix` fall through to `await next()`. A body parser's `ctx.request.rawBody` / `ctx.request.body` is used when
 * present. The response is written by the adapter (`ctx.respond = false`) and the middleware resolves once it is.
 */
export function toKoaMiddleware(handler: FetchHandler, options: KoaMiddlewareOptions = {}): KoaLikeMiddleware {
  const prefix = normalizePrefix(options.prefix);
  const serve = createHandOverListener(handler, options);
  return async (ctx, next) => {
    const target = stripPrefix(ctx.req.url ?? "/", prefix);
    if (target === undefined) {
      await next();
      return;
    }
    ctx.respond = false;
    const { body, rawBody } = ctx.request;
    const consumed = body !== undefined || rawBody !== undefined ? { body, rawBody } : undefined;
    await serve(ctx.req, ctx.res, { target, forwardedPrefix: normalizePrefix(ctx.mountPath) + prefix, consumed });
  };
}
