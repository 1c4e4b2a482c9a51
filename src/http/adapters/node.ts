import type { IncomingMessage, ServerResponse } from "node:http";
import {
  type AdapterOptions,
  createHandOverListener,
  type FetchHandler,
  normalizePrefix,
  stripPrefix,
} from "./bridge.js";

/** A Node request, possibly already read by a body parser (connect/express style `body`, `rawBody`). */
export type NodeRequest = IncomingMessage & { body?: unknown; rawBody?: unknown };

/** A `node:http` request listener that can also sit in a connect-style middleware chain. */
export type NodeListener = (req: NodeRequest, res: ServerResponse, next?: (error?: unknown) => void) => void;

/** Options of {@link toNodeListener}. */
export type NodeListenerOptions = AdapterOptions;

/**
 * Mounts a fetch handler on plain `node:http`: `http.createServer(toNodeListener(app.fetch, { prefix: "/credkit" }))`.
 * Requests outside `prefix` call `next()` when given, else get a bare 404. The handler sees the path without the
 * prefix and the prefix in `x-forwarded-prefix`. A body already read by a body parser (`req.rawBody`, `req.body`) is
 * passed on; otherwise the request body is streamed. Handler failures become a 500 `BR_0000` without details.
 */
export function toNodeListener(handler: FetchHandler, options: NodeListenerOptions = {}): NodeListener {
  const prefix = normalizePrefix(options.prefix);
  const serve = createHandOverListener(handler, options);
  return (req, res, next) => {
    const target = stripPrefix(req.url ?? "/", prefix);
    if (target === undefined) {
      if (next) next();
      else {
        res.writeHead(404, { "Content-Length": "0" });
        res.end();
      }
      return;
    }
    const consumed = req.rawBody !== undefined || req.body !== undefined ? req : undefined;
    void serve(req, res, { target, forwardedPrefix: prefix, consumed });
  };
}
