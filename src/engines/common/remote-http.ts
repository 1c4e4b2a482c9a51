import type { z } from "zod";
import type { ErrorCode } from "../../errors/catalogue.js";
import { CredkitError } from "../../errors/credkit-error.js";
import type { HttpClient } from "../../ports/http-client.js";
import { describeZodError } from "../common/parse-input.js";

/**
 * Outbound HTTP of the wallet: every call names the protocol step it belongs to, so a failure reads "token request:
 * POST https://… answered HTTP 503" instead of a bare network error. Remote failures are 400 codes, never 500s:
 *
 * - BR_0347 "Remote HTTP request failed": no answer (DNS, connection refused, timeout) or a 5xx / 3xx answer;
 * - BR_0395 "Remote HTTP request status failure (4xx)": the remote answered 4xx;
 * - the caller's code (BR_0085, BR_0360 …) when the answer is not the document the step expects.
 *
 * Plain `http:` URLs are refused unless `app.http.allowInsecureHttpTransport` is set (development only).
 */
export interface RemoteHttp {
  /** `url` as a URL when it is https (http only when insecure transport is allowed); else throws `code` */
  checkUrl(url: string, what: string, code?: ErrorCode): URL;
  /** sends the request; throws BR_0347 when no answer arrives, never on the status */
  send(step: string, url: string, init?: RequestInit): Promise<RemoteResponse>;
  /** GET `url` and parse the JSON body with `schema`: status errors as above, a bad body is `malformed` */
  getJson<S extends z.ZodType>(step: string, url: string, schema: S, malformed: ErrorCode): Promise<z.output<S>>;
}

export interface RemoteResponse {
  method: string;
  url: string;
  status: number;
  ok: boolean;
  headers: Headers;
  text: string;
}

export interface RemoteHttpOptions {
  fetch: HttpClient;
  allowInsecureHttp: boolean;
  /** per request; default 15 s */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 15_000;
/** largest body read from a remote party (offers, metadata, credentials, status lists) */
const MAX_BODY_BYTES = 16 * 1024 * 1024;

export function createRemoteHttp(options: RemoteHttpOptions): RemoteHttp {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;

  function checkUrl(url: string, what: string, code: ErrorCode = "BR_0085"): URL {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new CredkitError(code, `${what} is not a URL: ${JSON.stringify(url)}`);
    }
    if (parsed.protocol === "https:") return parsed;
    if (parsed.protocol === "http:" && options.allowInsecureHttp) return parsed;
    throw new CredkitError(
      code,
      parsed.protocol === "http:"
        ? `${what} ${url} uses plain http (allowed only with app.http.allowInsecureHttpTransport)`
        : `${what} must be an https URL, got ${JSON.stringify(url)}`,
    );
  }

  async function send(step: string, url: string, init: RequestInit = {}): Promise<RemoteResponse> {
    const method = (init.method ?? "GET").toUpperCase();
    let response: Response;
    try {
      response = await options.fetch(url, { ...init, redirect: "follow", signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      const reason =
        error instanceof Error && error.name === "TimeoutError"
          ? `no answer within ${timeoutMs / 1000} s`
          : describeNetworkError(error);
      throw new CredkitError("BR_0347", `${step}: ${method} ${url} failed: ${reason}`, { cause: error });
    }
    const declared = Number(response.headers.get("content-length") ?? "0");
    if (declared > MAX_BODY_BYTES) {
      await response.body?.cancel();
      throw new CredkitError("BR_0347", `${step}: ${method} ${url} answered a body of ${declared} bytes (too large)`);
    }
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      throw new CredkitError(
        "BR_0347",
        `${step}: ${method} ${url}: reading the answer failed: ${describeNetworkError(error)}`,
        {
          cause: error,
        },
      );
    }
    return { method, url, status: response.status, ok: response.ok, headers: response.headers, text };
  }

  return {
    checkUrl,
    send,
    async getJson(step, url, schema, malformed) {
      const response = await send(step, url, { headers: { accept: "application/json" } });
      if (!response.ok) throw statusError(step, response);
      return parseJsonBody(step, response, schema, malformed);
    },
  };
}

/** The error for a non-2xx answer: BR_0395 for 4xx, BR_0347 otherwise; an OAuth `error` in the body is quoted. */
export function statusError(step: string, response: RemoteResponse): CredkitError {
  const oauth = readOAuthError(response);
  const suffix = oauth ? ` (${oauth.error}${oauth.description ? `: ${oauth.description}` : ""})` : "";
  return new CredkitError(
    response.status >= 400 && response.status < 500 ? "BR_0395" : "BR_0347",
    `${step}: ${response.method} ${response.url} answered HTTP ${response.status}${suffix}`,
  );
}

/** `{error, error_description}` of an OAuth / OpenID4VCI error answer (RFC 6749 §5.2), when the body is one. */
export function readOAuthError(response: RemoteResponse): { error: string; description?: string } | undefined {
  try {
    const body: unknown = JSON.parse(response.text);
    if (typeof body !== "object" || body === null || typeof (body as { error?: unknown }).error !== "string") {
      return undefined;
    }
    const { error, error_description } = body as { error: string; error_description?: unknown };
    return typeof error_description === "string" ? { error, description: error_description } : { error };
  } catch {
    return undefined;
  }
}

/** Parses a JSON answer with `schema`; anything else is `malformed` naming the step and the first problems. */
export function parseJsonBody<S extends z.ZodType>(
  step: string,
  response: RemoteResponse,
  schema: S,
  malformed: ErrorCode,
): z.output<S> {
  let body: unknown;
  try {
    body = JSON.parse(response.text);
  } catch {
    throw new CredkitError(malformed, `${step}: ${response.url} did not answer JSON`);
  }
  return parseRemoteDocument(step, body, schema, malformed);
}

/** Validates a document received from a remote party (offer, metadata …) with `schema`. */
export function parseRemoteDocument<S extends z.ZodType>(
  step: string,
  value: unknown,
  schema: S,
  malformed: ErrorCode,
): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new CredkitError(malformed, `${step}: ${describeZodError(result.error)}`);
  return result.data;
}

function describeNetworkError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof Error && cause.message && cause.message !== error.message) {
    return `${error.message} (${cause.message})`;
  }
  return error.message;
}
