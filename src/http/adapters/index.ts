export {
  type AdapterOptions,
  type FetchHandler,
  FORWARDED_PREFIX_HEADER,
  normalizePrefix,
  stripPrefix,
} from "./bridge.js";
export { type ExpressLikeMiddleware, type ExpressMiddlewareOptions, toExpressMiddleware } from "./express.js";
export { type KoaLikeMiddleware, type KoaMiddlewareOptions, toKoaMiddleware } from "./koa.js";
export { type NodeListener, type NodeListenerOptions, type NodeRequest, toNodeListener } from "./node.js";
