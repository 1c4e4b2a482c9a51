import type { Credkit } from "../credkit.js";
import { type ExpressLikeMiddleware, type ExpressMiddlewareOptions, toExpressMiddleware } from "./adapters/express.js";
import { type KoaLikeMiddleware, type KoaMiddlewareOptions, toKoaMiddleware } from "./adapters/koa.js";
import { type NodeListener, type NodeListenerOptions, toNodeListener } from "./adapters/node.js";

/** Express 5 middleware serving credkit: `app.use(credkitExpress(kit))` or `app.use("/credkit", credkitExpress(kit))`. */
export function credkitExpress(kit: Credkit, options: ExpressMiddlewareOptions = {}): ExpressLikeMiddleware {
  return toExpressMiddleware((request) => kit.http.fetch(request), options);
}

/** Koa 3 middleware serving credkit: `app.use(credkitKoa(kit, { prefix: "/credkit" }))`. */
export function credkitKoa(kit: Credkit, options: KoaMiddlewareOptions = {}): KoaLikeMiddleware {
  return toKoaMiddleware((request) => kit.http.fetch(request), options);
}

/** A `node:http` request listener serving credkit: `http.createServer(credkitNode(kit))`. */
export function credkitNode(kit: Credkit, options: NodeListenerOptions = {}): NodeListener {
  return toNodeListener((request) => kit.http.fetch(request), options);
}
