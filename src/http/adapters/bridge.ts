import type { IncomingMessage, ServerResponse } from "node:http";
import { getRequestListener, RequestError } from "@hono/node-server";
import { SECURITY_HEADERS } from "../errors/to-error-response.js";

/** The web-standard handler every adapter mounts (e.g. a Hono app's `fetch`). */
export type FetchHandler = (request: Request) => Promise<Response> | Response;

/** Options shared by every adapter. */
export interface AdapterOptions {
  /**
   * Path prefix the handler lives under (e.g. `/credkit`). It is stripped before the handler sees the path; requests
   * outside it are passed on to the host framework (or answered 404 by a bare node listener).
   */
  prefix?: string;
  /**
   * Keep an `x-forwarded-prefix` header sent by a trusted reverse proxy and put the mount prefix after it. By default
   * a client-sent value is dropped, so only the adapter's own prefix reaches the handler.
   */
  trustForwardedPrefix?: boolean;
  /** Receives errors thrown by the handler (the client gets a 500 `BR_0000` without details). */
  onError?: (error: unknown) => void;
  /**
   * Let `@hono/node-server` install its lightweight `Request`/`Response` as the process globals (subclasses of the
   * native ones, so `instanceof` keeps working). This roughly doubles throughput; it is what `@hono/node-server`
   * does by default. Set `false` to leave the host process's globals alone. Default `true`.
   */
  overrideGlobalObjects?: boolean;
}

/** Name of the header carrying the stripped path prefix to the handler (for building absolute URLs). */
export const FORWARDED_PREFIX_HEADER = "x-forwarded-prefix";

/** `"credkit/"` → `"/credkit"`, `"/"` or `""` → `""`. */
export function normalizePrefix(prefix: string | undefined): string {
  if (prefix === undefined) return "";
  let out = prefix.trim();
  while (out.endsWith("/")) out = out.slice(0, -1);
  if (out !== "" && !out.startsWith("/")) out = `/${out}`;
  return out;
}

/**
 * The rest of a request target (`/path?query`) below `prefix`, always starting with `/`, or `undefined` when the
 * target is outside the prefix (`/credkitx` is outside `/credkit`).
 */
export function stripPrefix(target: string, prefix: string): string | undefined {
  if (prefix === "") return target.startsWith("/") ? target : `/${target}`;
  if (!target.startsWith(prefix)) return undefined;
  const rest = target.slice(prefix.length);
  if (rest === "") return "/";
  if (rest[0] === "/") return rest;
  if (rest[0] === "?") return `/${rest}`;
  return undefined;
}

/** A body a host framework's body parser already read (`req.rawBody`, `req.body`). */
export interface ConsumedBody {
  rawBody?: unknown;
  body?: unknown;
}

/** The bytes of a body a host framework already consumed, or `undefined` when it left the stream alone. */
export function bodyFromHost(consumed: ConsumedBody | undefined, contentType: string | undefined): Buffer | undefined {
  if (consumed === undefined) return undefined;
  const raw = toBuffer(consumed.rawBody);
  if (raw !== undefined) return raw;
  const body = consumed.body;
  if (body === undefined || body === null) return undefined;
  const direct = toBuffer(body);
  if (direct !== undefined) return direct;
  if (typeof body !== "object") return Buffer.from(String(body), "utf8");
  const type = (contentType ?? "").split(";", 1)[0]!.trim().toLowerCase();
  if (type === "application/x-www-form-urlencoded") {
    return Buffer.from(encodeForm(body as Record<string, unknown>), "utf8");
  }
  return Buffer.from(JSON.stringify(body), "utf8");
}

function toBuffer(value: unknown): Buffer | undefined {
  if (typeof value === "string") return Buffer.from(value, "utf8");
  if (Buffer.isBuffer(value)) return value;
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  return undefined;
}

/** Form-encodes a parsed form body: arrays as repeated keys, nested objects qs-style (`a[b]=c`). */
export function encodeForm(body: Record<string, unknown>): string {
  const params = new URLSearchParams();
  const add = (key: string, value: unknown): void => {
    if (value === undefined) return;
    if (Array.isArray(value)) {
      const nested = value.some((item) => typeof item === "object" && item !== null);
      value.forEach((item, index) => {
        add(nested ? `${key}[${index}]` : key, item);
      });
    } else if (typeof value === "object" && value !== null) {
      for (const [child, item] of Object.entries(value)) add(`${key}[${child}]`, item);
    } else {
      params.append(key, value === null ? "" : String(value));
    }
  };
  for (const [key, value] of Object.entries(body)) add(key, value);
  return params.toString();
}

/** Replaces (or removes, with `undefined`) one header in both `headers` and `rawHeaders` of a Node request. */
function setIncomingHeader(req: IncomingMessage, name: string, value: string | undefined): void {
  const raw = req.rawHeaders;
  for (let i = raw.length - 2; i >= 0; i -= 2) {
    if (raw[i]!.toLowerCase() === name) raw.splice(i, 2);
  }
  if (value === undefined) delete req.headers[name];
  else {
    raw.push(name, value);
    req.headers[name] = value;
  }
}

/** Node request as `@hono/node-server` reads it: a kept raw body is served instead of the stream. */
type IncomingWithRawBody = IncomingMessage & { rawBody?: unknown };

/** How one request is handed over; see {@link handOver}. */
export interface HandOver {
  /** Request target the handler should see: path (prefix stripped) and query. */
  target: string;
  /** Full prefix stripped on the way (mount path plus adapter prefix), sent as `x-forwarded-prefix`. */
  forwardedPrefix: string;
  /** What a host body parser left behind, if anything. */
  consumed?: ConsumedBody;
}

/** A listener that serves one already-matched request and resolves once the response is written. */
export type HandOverListener = (req: IncomingMessage, res: ServerResponse, handOver: HandOver) => Promise<void>;

const INTERNAL_ERROR = JSON.stringify({ code: "BR_0000", message: "Unmapped error code" });

/**
 * Builds the shared core of every adapter on `@hono/node-server` (lazy `Request`, fast response writing, client
 * disconnects, draining unread bodies). Before handing a request over it rewrites the Node request in place: the
 * path without the prefix, `x-forwarded-prefix`, and a body a host parser consumed as `rawBody` (re-encoded when only
 * the parsed `body` is left; Content-Length adjusted).
 */
export function createHandOverListener(handler: FetchHandler, options: AdapterOptions): HandOverListener {
  const listener = getRequestListener((request) => handler(request), {
    overrideGlobalObjects: options.overrideGlobalObjects ?? true,
    hostname: "localhost", // HTTP/1.0 requests without Host
    errorHandler: (error) => {
      if (error instanceof RequestError) {
        return new Response(null, { status: 400, headers: SECURITY_HEADERS });
      }
      options.onError?.(error);
      return new Response(INTERNAL_ERROR, {
        status: 500,
        headers: { "Content-Type": "application/json", ...SECURITY_HEADERS },
      });
    },
  });

  return async (req, res, handOver) => {
    req.url = handOver.target;

    const incoming = options.trustForwardedPrefix ? req.headers[FORWARDED_PREFIX_HEADER] : undefined;
    const forwarded = normalizePrefix(typeof incoming === "string" ? incoming : undefined) + handOver.forwardedPrefix;
    setIncomingHeader(req, FORWARDED_PREFIX_HEADER, forwarded === "" ? undefined : forwarded);

    if (req.method !== "GET" && req.method !== "HEAD") {
      const body = bodyFromHost(handOver.consumed, req.headers["content-type"]);
      if (body !== undefined) {
        (req as IncomingWithRawBody).rawBody = body;
        setIncomingHeader(req, "transfer-encoding", undefined);
        setIncomingHeader(req, "content-length", String(body.byteLength));
      } else if (req.readableEnded) {
        // Someone read the stream and kept nothing: the handler sees an empty body rather than hanging.
        (req as IncomingWithRawBody).rawBody = Buffer.alloc(0);
      }
    }
    await listener(req, res);
  };
}
