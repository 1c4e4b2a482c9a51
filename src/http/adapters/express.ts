import type { IncomingMessage, ServerResponse } from "node:http";
import {
  type AdapterOptions,
  createHandOverListener,
  type FetchHandler,
  normalizePrefix,
  stripPrefix,
} from "./bridge.js";

/** The parts of an Express 5 request the adapter reads (structural, so `express` is not a runtime dependency). */
export type ExpressLikeRequest = IncomingMessage & {
  /** Path the router was mounted at (`app.use("/prefix", mw)` → `"/prefix"`). */
  baseUrl?: string;
  /** URL before Express stripped the mount path. */
  originalUrl?: string;
  body?: unknown;
  rawBody?: unknown;
};

/** An Express-compatible middleware `(req, res, next)`. */
export type ExpressLikeMiddleware = (
  req: ExpressLikeRequest,
  res: ServerResponse,
  next: (error?: unknown) => void,
) => void;

/** Options of {@link toExpressMiddleware}. */
export type ExpressMiddlewareOptions = AdapterOptions;

/**
 * Mounts a fetch handler in Express 5: `app.use("/credkit", toExpressMiddleware(app.fetch))` or
 * `app.use(toExpressMiddleware(app.fetch, { prefix: "/credkit" }))`. The mount path (`req.baseUrl`) and `prefix` are
 * stripped and sent together as `x-forwarded-prefix`; requests outside `prefix` go to `next()`. Works with or without
 * `express.json()` / `express.urlencoded()` installed before it (a parsed body is re-encoded, `req.rawBody` preferred).
 */
export function toExpressMiddleware(
  handler: FetchHandler,
  options: ExpressMiddlewareOptions = {},
): ExpressLikeMiddleware {
  const prefix = normalizePrefix(options.prefix);
  const serve = createHandOverListener(handler, options);
  return (req, res, next) => {
    const target = stripPrefix(req.url ?? "/", prefix);
    if (target === undefined) {
      next();
      return;
    }
    const consumed = req.rawBody !== undefined || req.body !== undefined ? req : undefined;
    void serve(req, res, { target, forwardedPrefix: normalizePrefix(req.baseUrl) + prefix, consumed });
  };
}
