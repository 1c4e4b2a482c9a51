import { HTTPException } from "hono/http-exception";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { CredkitError } from "../../src/errors/index.js";
import { AuthenticationError } from "../../src/http/auth/authenticate.js";
import { SECURITY_HEADERS, toErrorResponse, toOAuthErrorResponse } from "../../src/http/errors/to-error-response.js";

const shown = { hideCause: false };
const hidden = { hideCause: true };

function expectSecurityHeaders(response: Response): void {
  expect(response.headers.get("cache-control")).toBe("no-store");
  expect(response.headers.get("x-content-type-options")).toBe("nosniff");
}

async function bodyOf(response: Response): Promise<unknown> {
  expect(response.headers.get("content-type")).toBe("application/json");
  return JSON.parse(await response.text());
}

describe("toErrorResponse", () => {
  it("exports the two security headers", () => {
    expect(SECURITY_HEADERS).toEqual({ "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" });
  });

  it("maps a CredkitError to its status, code, message and cause", async () => {
    const response = toErrorResponse(new CredkitError("BR_0001", "credential 42 does not exist"), shown);
    expect(response.status).toBe(404);
    expectSecurityHeaders(response);
    expect(await bodyOf(response)).toEqual({
      code: "BR_0001",
      message: "Credential not found",
      cause: { message: "credential 42 does not exist" },
    });
  });

  it("leaves cause out when hidden or when there is no detail", async () => {
    const hiddenResponse = toErrorResponse(new CredkitError("BR_0066", "key name taken"), hidden);
    expect(hiddenResponse.status).toBe(400);
    expect(await bodyOf(hiddenResponse)).toEqual({ code: "BR_0066", message: "Key already exists" });
    const noDetail = toErrorResponse(new CredkitError("BR_0002"), shown);
    expect(await bodyOf(noDetail)).toEqual({ code: "BR_0002", message: "Credential state invalid" });
  });

  it.each([
    ["BR_0178 (403)", new CredkitError("BR_0178", "secret reason"), 403],
    ["BR_0358 (401)", new CredkitError("BR_0358", "expired at ..."), 401],
    ["AuthenticationError", new AuthenticationError("wrong token"), 401],
    ["HTTPException 401", new HTTPException(401, { message: "no" }), 401],
    ["HTTPException 403", new HTTPException(403, { message: "no" }), 403],
  ])("answers %s with a bare status", async (_, error, status) => {
    const response = toErrorResponse(error, shown);
    expect(response.status).toBe(status);
    expectSecurityHeaders(response);
    expect(response.headers.get("content-type")).toBeNull();
    expect(await response.text()).toBe("");
  });

  it("maps a zod error to 400 BR_0084 with a readable cause", async () => {
    const schema = z.strictObject({ keyType: z.string(), name: z.string().min(1), keyParams: z.object({}) });
    const result = schema.safeParse({ keyType: 5, name: "", foo: 1 });
    expect(result.success).toBe(false);
    const response = toErrorResponse(result.error, shown);
    expect(response.status).toBe(400);
    expectSecurityHeaders(response);
    expect(await bodyOf(response)).toEqual({
      code: "BR_0084",
      message: "General input validation error",
      cause: {
        message:
          "keyType: expected string, received number; name: must have at least 1 character; keyParams: required; foo: unknown field",
      },
    });
  });

  it("maps 413 and 415 to BR_0084 with their own status", async () => {
    const tooLarge = toErrorResponse(new HTTPException(413, { message: "request body exceeds 10 bytes" }), shown);
    expect(tooLarge.status).toBe(413);
    expect(await bodyOf(tooLarge)).toEqual({
      code: "BR_0084",
      message: "General input validation error",
      cause: { message: "Payload too large" },
    });
    const mediaType = toErrorResponse(new HTTPException(415), shown);
    expect(mediaType.status).toBe(415);
    expectSecurityHeaders(mediaType);
    expect(await bodyOf(mediaType)).toEqual({
      code: "BR_0084",
      message: "General input validation error",
      cause: { message: "Content-Type must be application/json" },
    });
    expect(await bodyOf(toErrorResponse(new HTTPException(415), hidden))).toEqual({
      code: "BR_0084",
      message: "General input validation error",
    });
  });

  it("keeps other 4xx statuses from HTTPException or status-carrying errors", async () => {
    const response = toErrorResponse(new HTTPException(405, { message: "method not allowed" }), shown);
    expect(response.status).toBe(405);
    expect(await bodyOf(response)).toMatchObject({ code: "BR_0084", cause: { message: "method not allowed" } });
    const bodyParser = Object.assign(new Error("request entity too large"), { statusCode: 413 });
    expect(toErrorResponse(bodyParser, shown).status).toBe(413);
  });

  it("answers unknown failures with 500 BR_0000, logs them, and never leaks a stack or message", async () => {
    const log = vi.fn();
    const secret = new TypeError("cannot read property 'password' of undefined at /srv/app.js:12");
    const response = toErrorResponse(secret, { hideCause: false, log });
    expect(response.status).toBe(500);
    expectSecurityHeaders(response);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ code: "BR_0000", message: "Unmapped error code" });
    expect(text).not.toContain("password");
    expect(text).not.toContain("at ");
    expect(log).toHaveBeenCalledWith(secret);

    for (const thrown of ["a string", null, undefined, 42, { status: 503 }, new HTTPException(502)]) {
      const r = toErrorResponse(thrown, shown);
      expect(r.status).toBe(500);
      expect(await r.json()).toEqual({ code: "BR_0000", message: "Unmapped error code" });
    }
  });

  it("logs 5xx CredkitErrors but not client errors", () => {
    const log = vi.fn();
    toErrorResponse(new CredkitError("BR_0054", "connection refused"), { hideCause: true, log });
    toErrorResponse(new CredkitError("BR_0001"), { hideCause: true, log });
    expect(log).toHaveBeenCalledTimes(1);
  });
});

describe("toOAuthErrorResponse", () => {
  it("builds {error} with status 400 by default", async () => {
    const response = toOAuthErrorResponse("invalid_grant");
    expect(response.status).toBe(400);
    expectSecurityHeaders(response);
    expect(await bodyOf(response)).toEqual({ error: "invalid_grant" });
  });

  it("adds error_description and a WWW-Authenticate header on 401", async () => {
    const response = toOAuthErrorResponse({ error: "invalid_token", error_description: "expired" }, 401);
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe('Bearer error="invalid_token"');
    expect(await bodyOf(response)).toEqual({ error: "invalid_token", error_description: "expired" });
  });
});
