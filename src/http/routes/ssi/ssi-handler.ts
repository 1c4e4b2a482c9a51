import type { Context } from "hono";
import { OAuthError } from "../../../engines/issuer/openid4vci/oauth-error.js";
import { isCredkitError } from "../../../errors/credkit-error.js";
import { emptyResponse, toOAuthErrorResponse } from "../../errors/to-error-response.js";

/** Largest body a protocol endpoint reads (token, credential, notification requests are small). */
export const MAX_PROTOCOL_BODY_BYTES = 256 * 1024;

/**
 * Runs a /ssi protocol handler: OAuth errors become `{error, error_description}` with their status, unknown
 * entities a bare 404, other input errors `invalid_request`; unexpected errors go to the app's error handler.
 */
export async function handleProtocol(_c: Context, run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof OAuthError) {
      return toOAuthErrorResponse({ error: error.error as never, error_description: error.description }, error.status);
    }
    if (isCredkitError(error)) {
      if (error.status === 404) return emptyResponse(404);
      if (error.status < 500) {
        return toOAuthErrorResponse(
          { error: "invalid_request", error_description: error.detail ?? error.message },
          400,
        );
      }
    }
    throw error;
  }
}

/** Reads a bounded request body as text (413 beyond the limit). */
export async function readBoundedText(c: Context, maxBytes = MAX_PROTOCOL_BODY_BYTES): Promise<string> {
  const declared = Number(c.req.header("content-length") ?? "0");
  if (declared > maxBytes) throw new OAuthError("invalid_request", "request body too large", 413);
  const text = await c.req.text();
  if (Buffer.byteLength(text) > maxBytes) throw new OAuthError("invalid_request", "request body too large", 413);
  return text;
}

/** Parses a JSON request body or answers invalid_request. */
export async function readJsonRequest(c: Context): Promise<unknown> {
  const text = await readBoundedText(c);
  try {
    return JSON.parse(text);
  } catch {
    throw new OAuthError("invalid_request", "body is not valid JSON");
  }
}

/** The bearer access token of a protocol request (RFC 6750 §2.1). */
export function bearerOf(c: Context): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header("authorization") ?? "");
  return match?.[1];
}
