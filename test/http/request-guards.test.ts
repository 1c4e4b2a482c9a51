import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { toErrorResponse } from "../../src/http/errors/to-error-response.js";
import { readJsonBody, requireJsonBody } from "../../src/http/request-guards.js";

const createKey = z.strictObject({ keyType: z.string(), name: z.string(), keyParams: z.strictObject({}) });

function app(withGuard = true) {
  const hono = new Hono();
  hono.onError((error) => toErrorResponse(error, { hideCause: false }));
  if (withGuard) hono.use("*", requireJsonBody({ maxBytes: 64 }));
  hono.post("/key", async (c) => c.json(await readJsonBody(c, createKey), 201));
  hono.post("/raw", async (c) => c.json({ text: await c.req.text(), json: await c.req.json() }));
  hono.post("/optional", async (c) => c.json({ body: (await readJsonBody(c, createKey.optional())) ?? null }));
  hono.get("/key", (c) => c.text("ok"));
  return hono;
}

async function post(body: BodyInit | null, headers: Record<string, string> = {}, path = "/key", withGuard = true) {
  const response = await app(withGuard).request(path, { method: "POST", body, headers });
  const text = await response.text();
  return { status: response.status, body: text === "" ? undefined : JSON.parse(text) };
}

const valid = JSON.stringify({ keyType: "EDDSA", name: "k", keyParams: {} });
const json = { "content-type": "application/json" };

describe("requireJsonBody + readJsonBody", () => {
  it("accepts application/json with or without charset", async () => {
    expect(await post(valid, json)).toEqual({ status: 201, body: JSON.parse(valid) });
    expect((await post(valid, { "content-type": "Application/JSON; charset=utf-8" })).status).toBe(201);
  });

  it("refuses other content types with 415", async () => {
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "application/jsonx"]) {
      expect(await post(valid, { "content-type": type })).toEqual({
        status: 415,
        body: {
          code: "BR_0084",
          message: "General input validation error",
          cause: { message: "Content-Type must be application/json" },
        },
      });
    }
  });

  it("refuses a body without content type with 415", async () => {
    const request = new Request("http://x/key", { method: "POST", body: new Blob([valid]) });
    const response = await app().request(request);
    expect(response.status).toBe(415);
  });

  it("refuses bodies over maxBytes with 413, declared or streamed", async () => {
    const big = JSON.stringify({ keyType: "x".repeat(100), name: "k", keyParams: {} });
    expect((await post(big, json)).status).toBe(413);
    const stream = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 10; i++) controller.enqueue(new TextEncoder().encode("          "));
        controller.close();
      },
    });
    const response = await app().request(
      new Request("http://x/key", { method: "POST", body: stream, headers: json, duplex: "half" } as RequestInit),
    );
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ code: "BR_0084" });
  });

  it("refuses invalid JSON with 400 BR_0084", async () => {
    const result = await post("{bad", json);
    expect(result.status).toBe(400);
    expect(result.body.code).toBe("BR_0084");
    expect(result.body.cause.message).toMatch(/^invalid JSON: /);
  });

  it("reports schema failures readably", async () => {
    const result = await post(JSON.stringify({ keyType: 1, name: "k", keyParams: { a: 1 }, foo: true }), json);
    expect(result).toEqual({
      status: 400,
      body: {
        code: "BR_0084",
        message: "General input validation error",
        cause: { message: "keyType: expected string, received number; keyParams.a: unknown field; foo: unknown field" },
      },
    });
    expect((await post(JSON.stringify([1]), json)).body.cause.message).toBe("body: expected object, received array");
  });

  it("lets requests without a body through and reports a missing body only when the schema needs one", async () => {
    expect(await post(null)).toEqual({
      status: 400,
      body: { code: "BR_0084", message: "General input validation error", cause: { message: "body: required" } },
    });
    expect(await post(null, {}, "/optional")).toEqual({ status: 200, body: { body: null } });
    expect(await post("", json, "/optional")).toEqual({ status: 200, body: { body: null } });
  });

  it("keeps c.req.text() and c.req.json() usable after the guard read the body", async () => {
    expect(await post('{"a":1}', json, "/raw")).toEqual({ status: 200, body: { text: '{"a":1}', json: { a: 1 } } });
  });

  it("readJsonBody works without the guard too", async () => {
    expect(await post(valid, json, "/key", false)).toEqual({ status: 201, body: JSON.parse(valid) });
    expect((await post("nope", json, "/key", false)).body.cause.message).toMatch(/^invalid JSON/);
  });

  it("ignores GET requests", async () => {
    const response = await app().request("/key", { headers: { "content-type": "text/plain" } });
    expect(response.status).toBe(200);
  });
});
