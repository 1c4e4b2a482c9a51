import type { Credkit } from "../credkit.js";
import { type ExpressLikeMiddleware, type ExpressMiddlewareOptions, toExpressMiddleware } from "./adapters/express.js";
import { type KoaLikeMiddleware, type KoaMiddlewareOptions, toKoaMiddleware } from "./adapters/koa.js";
import { type NodeListener, type NodeListenerOptions, toNodeListener } from "./adapters/node.js";

/**
 * Embedding adapters do not patch the process-wide Request/Response globals unless asked
 * (`overrideGlobalObjects: true` is faster; the reference server `credkit serve` turns it on because it owns the process).
 */
const EMBEDDED = { overrideGlobalObjects: false } as const;

/** Express 5 middleware serving credkit: `app.use(credkitExpress(kit))` or `app.use("/credkit", credkitExpress(kit))`. */
export function credkitExpress(kit: Credkit, options: ExpressMiddlewareOptions = {}): ExpressLikeMiddleware {
  return toExpressMiddleware((request) => kit.http.fetch(request), { ...EMBEDDED, ...options });
}

/** Koa 3 middleware serving credkit: `app.use(credkitKoa(kit, { prefix: "/credkit" }))`. */
export function credkitKoa(kit: Credkit, options: KoaMiddlewareOptions = {}): KoaLikeMiddleware {
  return toKoaMiddleware((request) => kit.http.fetch(request), { ...EMBEDDED, ...options });
}

/** A `node:http` request listener serving credkit: `http.createServer(credkitNode(kit))`. */
export function credkitNode(kit: Credkit, options: NodeListenerOptions = {}): NodeListener {
  return toNodeListener((request) => kit.http.fetch(request), { ...EMBEDDED, ...options });
}
