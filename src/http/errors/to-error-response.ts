import { z } from "zod";
import { CredkitError, describeErrorCode, type ErrorCode } from "../../errors/index.js";
import { describeZodError } from "./format-zod-issues.js";

/** Headers every credkit response carries (One Core sends both on every response). */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "Cache-Control": "no-store",
  "X-Content-Type-Options": "nosniff",
});

/** Options of {@link toErrorResponse}. */
export interface ErrorResponseOptions {
  /** `app.hideErrorResponseCause`: leave `cause` out of every body. */
  hideCause: boolean;
  /** Receives errors that map to 500 (unexpected failures), for logging. Never shown to the client. */
  log?: (error: unknown) => void;
}

/** The JSON body of a management-API error (One Core `ErrorResponseRestDTO`). */
export interface ErrorBody {
  code: ErrorCode;
  message: string;
  cause?: { message: string };
}

/**
 * Maps anything thrown while handling a `/api` request to the One Core error response:
 *
 * - `CredkitError` → its status with `{code, message, cause?: {message: detail}}`; 401 and 403 are a bare status.
 * - a zod error → 400 `BR_0084` with a readable cause (`keyType: expected string; foo: unknown field`).
 * - an error with a 4xx `status` (Hono's `HTTPException`, body-parser errors): 401/403 bare; 413 and 415 keep their
 *   status with code `BR_0084`; any other 4xx keeps its status with `BR_0084` and the error's message as cause.
 * - anything else → 500 `{code: "BR_0000", message: "Unmapped error code"}`, and `log(error)` is called.
 *
 * `cause` is left out when `hideCause` is set or there is no detail. No stack trace ever reaches a body. Every
 * response carries {@link SECURITY_HEADERS}.
 */
export function toErrorResponse(error: unknown, options: ErrorResponseOptions): Response {
  if (error instanceof CredkitError) {
    if (error.status >= 500) options.log?.(error);
    return codeResponse(error.status, error.code, error.detail, options);
  }
  if (error instanceof z.core.$ZodError) {
    return codeResponse(400, "BR_0084", describeZodError(error), options);
  }
  const status = clientErrorStatus(error);
  if (status !== undefined) {
    const detail = status === 415 ? "Content-Type must be application/json" : clientErrorDetail(error, status);
    return codeResponse(status, "BR_0084", detail, options);
  }
  options.log?.(error);
  return codeResponse(500, "BR_0000", undefined, options);
}

/** A bare response (no body) with the security headers, e.g. for 401, 403, or 204. */
export function emptyResponse(status: number): Response {
  return new Response(null, { status, headers: SECURITY_HEADERS });
}

/** A JSON response with the security headers. */
export function jsonResponse(body: unknown, status = 200, headers?: Record<string, string>): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json", ...SECURITY_HEADERS, ...headers },
  });
}

function codeResponse(status: number, code: ErrorCode, detail: string | undefined, options: ErrorResponseOptions) {
  if (status === 401 || status === 403) return emptyResponse(status);
  const body: ErrorBody = { code, message: describeErrorCode(code).message };
  if (!options.hideCause && detail !== undefined && detail !== "") body.cause = { message: detail };
  // an unread oversized body is left on the wire: close the connection instead of keeping it alive
  return jsonResponse(body, status, status === 413 ? { Connection: "close" } : undefined);
}

/** The 4xx status an error says it stands for (Hono `HTTPException`, `http-errors` style `status`/`statusCode`). */
function clientErrorStatus(error: unknown): number | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const candidate =
    (error as { status?: unknown; statusCode?: unknown }).status ?? (error as { statusCode?: unknown }).statusCode;
  return typeof candidate === "number" && Number.isInteger(candidate) && candidate >= 400 && candidate <= 499
    ? candidate
    : undefined;
}

function clientErrorDetail(error: unknown, status: number): string | undefined {
  if (status === 413) return "Payload too large";
  const message = error instanceof Error ? error.message : undefined;
  return message === undefined || message === "" ? undefined : message;
}

/** OAuth 2.0 / OpenID4VC error codes used on `/ssi` endpoints (other strings are allowed). */
export type OAuthErrorCode =
  | "invalid_request"
  | "invalid_client"
  | "unsupported_grant_type"
  | "invalid_grant"
  | "invalid_token"
  | "invalid_nonce"
  | "invalid_or_missing_proof"
  | "invalid_proof"
  | "unsupported_credential_format"
  | "unsupported_credential_type"
  | "unknown_credential_configuration"
  | "unknown_credential_identifier"
  | "credential_request_denied"
  | "invalid_notification_id"
  | "invalid_notification_request"
  | "invalid_transaction_id"
  | "access_denied"
  | "server_error"
  | (string & {});

/** The body of an `/ssi` protocol error. */
export interface OAuthErrorBody {
  error: OAuthErrorCode;
  error_description?: string;
}

/**
 * An OAuth-style error response for `/ssi` protocol endpoints: `{error, error_description?}` with the given status
 * (400 by default) and {@link SECURITY_HEADERS}. Pass a code, or `{error, error_description}`.
 *
 * @example toOAuthErrorResponse("invalid_grant")
 * @example toOAuthErrorResponse({ error: "invalid_token", error_description: "access token expired" }, 401)
 */
export function toOAuthErrorResponse(error: OAuthErrorCode | OAuthErrorBody, status = 400): Response {
  const body: OAuthErrorBody = typeof error === "string" ? { error } : { error: error.error };
  if (typeof error !== "string" && error.error_description !== undefined) {
    body.error_description = error.error_description;
  }
  const headers: Record<string, string> = {};
  if (status === 401) headers["WWW-Authenticate"] = `Bearer error="${body.error.replace(/["\\]/g, "")}"`;
  return jsonResponse(body, status, headers);
}
