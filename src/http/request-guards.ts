import type { Context, MiddlewareHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { z } from "zod";
import { CredkitError } from "../errors/index.js";
import { formatZodIssues } from "./errors/format-zod-issues.js";

/** Context variable where {@link requireJsonBody} leaves the parsed body. */
export const JSON_BODY_VARIABLE = "credkit.jsonBody";

/** What {@link requireJsonBody} stored: `present: false` when the request had no body. */
export type ParsedJsonBody = { present: true; value: unknown } | { present: false };

/** Hono `Variables` set by {@link requireJsonBody}, for apps that type their context. */
export type JsonBodyVariables = { [JSON_BODY_VARIABLE]: ParsedJsonBody };

/** Options of {@link requireJsonBody}. */
export interface RequireJsonBodyOptions {
  /** Largest accepted body in bytes; larger ones get 413. */
  maxBytes: number;
}

const BODY_METHODS = new Set(["POST", "PUT", "PATCH"]);

/** Whether a Content-Type header is `application/json`, parameters (charset) allowed. */
export function isJsonContentType(contentType: string | null | undefined): boolean {
  if (!contentType) return false;
  return contentType.split(";", 1)[0]!.trim().toLowerCase() === "application/json";
}

/**
 * Hono middleware for management endpoints that take JSON. For POST/PUT/PATCH requests with a body:
 * - a Content-Type other than `application/json` (`; charset=...` allowed) → 415,
 * - a body larger than `maxBytes` (declared by Content-Length or actually streamed) → 413, read no further,
 * - a body that is not valid JSON → 400 `BR_0084` "invalid JSON: ...".
 * The parsed body is kept for {@link readJsonBody} (and `c.req.json()` / `c.req.text()` keep working). Requests
 * without a body pass untouched; the route decides whether it needs one. Errors are thrown for `toErrorResponse`.
 */
export function requireJsonBody(options: RequireJsonBodyOptions): MiddlewareHandler {
  const { maxBytes } = options;
  return async (c, next) => {
    if (!BODY_METHODS.has(c.req.method)) return next();
    const raw = c.req.raw;
    const declared = raw.headers.get("content-length");
    // refuse an oversized declared body before touching the stream (the 413 closes the connection)
    if (declared !== null && Number(declared) > maxBytes) throw payloadTooLarge(maxBytes);
    if (raw.body === null || declared === "0") {
      c.set(JSON_BODY_VARIABLE, { present: false } satisfies ParsedJsonBody);
      return next();
    }
    if (declared !== null && Number(declared) > maxBytes) throw payloadTooLarge(maxBytes);
    const contentType = raw.headers.get("content-type");
    if (contentType !== null && !isJsonContentType(contentType)) throw unsupportedMediaType();

    const bytes = await readLimited(raw.body, maxBytes);
    if (bytes.byteLength === 0) {
      c.set(JSON_BODY_VARIABLE, { present: false } satisfies ParsedJsonBody);
      cacheBodyText(c, "");
      return next();
    }
    if (contentType === null) throw unsupportedMediaType();

    const text = decodeUtf8(bytes);
    cacheBodyText(c, text);
    c.set(JSON_BODY_VARIABLE, { present: true, value: parseJson(text) } satisfies ParsedJsonBody);
    return next();
  };
}

/**
 * Parses the request body with `schema` (use `z.strictObject` so unknown fields are refused) and returns the output.
 * Uses what {@link requireJsonBody} parsed, or reads and parses the body itself when that middleware did not run.
 * Failures throw `CredkitError("BR_0084")` with readable causes: `keyType: expected string, received number;
 * foo: unknown field`, or `body: required` when there is no body.
 */
export async function readJsonBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  let body = c.get(JSON_BODY_VARIABLE) as ParsedJsonBody | undefined;
  if (body === undefined) {
    const text = await c.req.text();
    body = text === "" ? { present: false } : { present: true, value: parseJson(text) };
  }
  const parsed = schema.safeParse(body.present ? body.value : undefined, { reportInput: true });
  if (parsed.success) return parsed.data as z.output<S>;
  if (!body.present) throw new CredkitError("BR_0084", "body: required");
  throw new CredkitError("BR_0084", formatZodIssues(parsed.error.issues, { rootLabel: "body" }).join("; "));
}

/** Lets later `c.req.text()` / `c.req.json()` calls see the body this middleware consumed (Hono caches promises). */
function cacheBodyText(c: Context, text: string): void {
  (c.req.bodyCache as Record<string, unknown>).text = Promise.resolve(text);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CredkitError("BR_0084", `invalid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}

const decoder = new TextDecoder("utf-8", { fatal: true });

function decodeUtf8(bytes: Uint8Array): string {
  try {
    return decoder.decode(bytes);
  } catch {
    throw new CredkitError("BR_0084", "invalid JSON: body is not valid UTF-8");
  }
}

async function readLimited(stream: ReadableStream<Uint8Array>, maxBytes: number): Promise<Uint8Array> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw payloadTooLarge(maxBytes);
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

function payloadTooLarge(maxBytes: number): HTTPException {
  return new HTTPException(413, { message: `request body exceeds ${maxBytes} bytes` });
}

function unsupportedMediaType(): HTTPException {
  return new HTTPException(415, { message: "Content-Type must be application/json" });
}
