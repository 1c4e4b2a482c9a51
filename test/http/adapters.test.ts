import { createServer, type IncomingMessage, type Server } from "node:http";
import { type AddressInfo, connect } from "node:net";
import express from "express";
import { Hono } from "hono";
import Koa from "koa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toExpressMiddleware } from "../../src/http/adapters/express.js";
import { toKoaMiddleware } from "../../src/http/adapters/koa.js";
import { toNodeListener } from "../../src/http/adapters/node.js";

/** The tiny app every mount serves; it echoes what it received so each adapter's translation is observable. */
function echoApp() {
  const app = new Hono();
  app.all("/echo/*", async (c) => {
    const type = c.req.header("content-type") ?? "";
    const body =
      c.req.method === "GET" || c.req.method === "HEAD"
        ? undefined
        : type.startsWith("application/json")
          ? { json: await c.req.json() }
          : type.startsWith("application/x-www-form-urlencoded")
            ? { form: [...new URLSearchParams(await c.req.text())] }
            : { bytes: (await c.req.arrayBuffer()).byteLength };
    const url = new URL(c.req.url);
    return c.json({
      method: c.req.method,
      path: url.pathname,
      query: [...url.searchParams],
      host: url.host,
      prefix: c.req.header("x-forwarded-prefix") ?? null,
      contentLength: c.req.header("content-length") ?? null,
      body,
    });
  });
  app.get("/", (c) => c.json({ path: "/" }));
  app.get("/teapot", (c) => {
    c.header("x-custom", "yes");
    c.header("set-cookie", "a=1; Path=/", { append: true });
    c.header("set-cookie", "b=2; Path=/; HttpOnly", { append: true });
    return c.json({ brewing: false }, 418);
  });
  app.delete("/empty", (c) => c.body(null, 204));
  app.get("/stream", () => {
    let i = 0;
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (i === 3) return controller.close();
        await new Promise((resolve) => setTimeout(resolve, 5));
        controller.enqueue(new TextEncoder().encode(`chunk${i++};`));
      },
    });
    return new Response(stream, { headers: { "content-type": "text/plain" } });
  });
  return app;
}

const app = echoApp();
const handler = async (request: Request): Promise<Response> => {
  if (new URL(request.url).pathname === "/crash") throw new Error("secret internal detail at /srv/x.js:1");
  return app.fetch(request);
};

/** A minimal stand-in for koa-bodyparser: parses JSON and forms into `ctx.request.body`, keeps no raw body. */
async function koaBodyParser(ctx: Koa.Context, next: Koa.Next): Promise<void> {
  const type = ctx.get("content-type");
  const json = type.startsWith("application/json");
  const form = type.startsWith("application/x-www-form-urlencoded");
  if (json || form) {
    const text = await readAll(ctx.req);
    const request = ctx.request as Koa.Request & { body?: unknown };
    if (json) request.body = JSON.parse(text);
    else {
      const parsed: Record<string, string | string[]> = {};
      for (const [key, value] of new URLSearchParams(text)) {
        const existing = parsed[key];
        parsed[key] = existing === undefined ? value : [...(Array.isArray(existing) ? existing : [existing]), value];
      }
      request.body = parsed;
    }
  }
  await next();
}

async function readAll(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function notFound404(_req: unknown, res: { statusCode: number; end(body: string): void }) {
  res.statusCode = 404;
  res.end("host 404");
}

const NativeResponse = globalThis.Response;

/** Every way the handler is mounted; each must serve it under `/prefix`. */
const mounts: Record<string, () => Server> = {
  // First, so it runs before any other mount replaces the globals.
  "node:http, native globals kept": () => {
    const server = createServer(toNodeListener(handler, { prefix: "/prefix", overrideGlobalObjects: false }));
    expect(globalThis.Response).toBe(NativeResponse);
    return server;
  },
  "node:http": () => createServer(toNodeListener(handler, { prefix: "/prefix" })),
  "express, mounted at /prefix, no body parser": () => {
    const host = express();
    host.use("/prefix", toExpressMiddleware(handler));
    return createServer(host);
  },
  "express, json + urlencoded parsers, mounted at /prefix": () => {
    const host = express();
    host.use(express.json());
    host.use(express.urlencoded({ extended: true }));
    host.use("/prefix", toExpressMiddleware(handler));
    return createServer(host);
  },
  "express, json (with rawBody) + urlencoded parsers, prefix option": () => {
    const host = express();
    host.use(
      express.json({
        verify: (req, _res, buf) => {
          (req as IncomingMessage & { rawBody?: Buffer }).rawBody = buf;
        },
      }),
    );
    host.use(express.urlencoded({ extended: false }));
    host.use(toExpressMiddleware(handler, { prefix: "/prefix" }));
    host.use(notFound404);
    return createServer(host);
  },
  "express, nested: /pre mount + fix prefix option": () => {
    const host = express();
    host.use("/pre", toExpressMiddleware(handler, { prefix: "/fix" }));
    const outer = express();
    outer.use((req, _res, next) => {
      // Serve /prefix/... as /pre/fix/... so the public paths stay the same as the other mounts.
      if (req.url.startsWith("/prefix")) req.url = `/pre/fix${req.url.slice("/prefix".length)}`;
      next();
    });
    outer.use(host);
    return createServer(outer);
  },
  "koa, prefix option": () => {
    const host = new Koa();
    host.use(toKoaMiddleware(handler, { prefix: "/prefix" }));
    host.use((ctx) => {
      ctx.status = 404;
      ctx.body = "koa 404";
    });
    return createServer(host.callback());
  },
  "koa, body parser, prefix option": () => {
    const host = new Koa();
    host.use(koaBodyParser);
    host.use(toKoaMiddleware(handler, { prefix: "/prefix" }));
    return createServer(host.callback());
  },
};

describe.each(Object.entries(mounts))("%s", (name, mount) => {
  let server: Server;
  let origin: string;
  const nested = name.includes("nested");

  beforeAll(async () => {
    server = mount();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const call = (path: string, init?: RequestInit) => fetch(`${origin}${path}`, init);
  const expectedPrefix = nested ? "/pre/fix" : "/prefix";

  it("passes method, path (prefix stripped), query, host and the prefix header", async () => {
    const response = await call("/prefix/echo/a%20b/c?x=1&y[]=2&y[]=3&e=%C3%A9", {
      headers: { "x-forwarded-prefix": "/spoofed" },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      method: "GET",
      path: "/echo/a%20b/c",
      query: [
        ["x", "1"],
        ["y[]", "2"],
        ["y[]", "3"],
        ["e", "é"],
      ],
      host: new URL(origin).host,
      prefix: expectedPrefix,
      contentLength: null,
    });
  });

  it("maps the bare prefix to /", async () => {
    expect(await (await call("/prefix")).json()).toEqual({ path: "/" });
    expect(await (await call("/prefix/")).json()).toEqual({ path: "/" });
  });

  it("passes a JSON body", async () => {
    const payload = { a: 1, nested: { b: [1, "two", null] }, text: "grüezi" };
    const response = await call("/prefix/echo/json", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(payload),
    });
    const echoed = await response.json();
    expect(echoed.body).toEqual({ json: payload });
    expect(echoed.method).toBe("POST");
    expect(Number(echoed.contentLength)).toBe(Buffer.byteLength(JSON.stringify(payload)));
  });

  it("passes a form body (repeated keys kept)", async () => {
    for (const method of ["POST", "PUT", "PATCH"]) {
      const response = await call("/prefix/echo/form", {
        method,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "grant_type=urn%3Aietf%3Aparams&code=x+y&scope=a&scope=b",
      });
      const echoed = await response.json();
      expect(echoed.method).toBe(method);
      expect(echoed.body).toEqual({
        form: [
          ["grant_type", "urn:ietf:params"],
          ["code", "x y"],
          ["scope", "a"],
          ["scope", "b"],
        ],
      });
    }
  });

  it("streams a large non-JSON request body through", async () => {
    const big = new Uint8Array(3 * 1024 * 1024).fill(7);
    const response = await call("/prefix/echo/upload", {
      method: "POST",
      headers: { "content-type": "application/octet-stream" },
      body: big,
    });
    expect((await response.json()).body).toEqual({ bytes: big.byteLength });
  });

  it("passes an empty POST body", async () => {
    const response = await call("/prefix/echo/none", { method: "POST" });
    expect((await response.json()).body).toEqual({ bytes: 0 });
  });

  it("returns custom status, headers and several cookies", async () => {
    const response = await call("/prefix/teapot");
    expect(response.status).toBe(418);
    expect(response.headers.get("x-custom")).toBe("yes");
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(response.headers.getSetCookie()).toEqual(["a=1; Path=/", "b=2; Path=/; HttpOnly"]);
    expect(await response.json()).toEqual({ brewing: false });
  });

  it("returns 204 without a body and answers HEAD without a body", async () => {
    const empty = await call("/prefix/empty", { method: "DELETE" });
    expect(empty.status).toBe(204);
    expect(await empty.text()).toBe("");
    const head = await call("/prefix/echo/x", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
  });

  it("streams a response body", async () => {
    const response = await call("/prefix/stream");
    expect(await response.text()).toBe("chunk0;chunk1;chunk2;");
  });

  it("turns a handler failure into a 500 without details", async () => {
    const response = await call("/prefix/crash");
    expect(response.status).toBe(500);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ code: "BR_0000", message: "Unmapped error code" });
    expect(text).not.toContain("secret");
  });

  it("leaves requests outside the prefix to the host (404)", async () => {
    for (const path of ["/other", "/prefixed/echo/x", "/"]) {
      const response = await call(path);
      expect(response.status).toBe(404);
      expect(await response.text()).not.toContain('"method"');
    }
  });
});

describe("node listener details", () => {
  let server: Server;
  let port: number;
  const errors: unknown[] = [];

  beforeAll(async () => {
    server = createServer(
      toNodeListener(handler, { prefix: "/prefix/", trustForwardedPrefix: true, onError: (e) => errors.push(e) }),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  /** Sends a raw HTTP/1.x request (to control Host and the version) and returns the status line and body. */
  function raw(text: string): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, "127.0.0.1", () => socket.end(text));
      let data = "";
      socket.setEncoding("utf8");
      socket.on("data", (chunk) => {
        data += chunk;
      });
      socket.on("error", reject);
      socket.on("close", () => {
        const [head = "", body = ""] = data.split("\r\n\r\n");
        resolve({ status: Number(head.split(" ")[1]), body });
      });
    });
  }

  it("puts the mount prefix after a trusted proxy prefix", async () => {
    const response = await fetch(`http://127.0.0.1:${port}/prefix/echo/x`, {
      headers: { "x-forwarded-prefix": "/proxy/" },
    });
    expect((await response.json()).prefix).toBe("/proxy/prefix");
  });

  it("reports handler failures to onError", async () => {
    errors.length = 0;
    expect((await fetch(`http://127.0.0.1:${port}/prefix/crash`)).status).toBe(500);
    expect(errors).toHaveLength(1);
    expect((errors[0] as Error).message).toContain("secret internal detail");
  });

  it("answers a malformed Host header with 400 and serves HTTP/1.0 without Host", async () => {
    const bad = await raw("GET /prefix/echo/x HTTP/1.1\r\nHost: evil.com/x?\r\nConnection: close\r\n\r\n");
    expect(bad.status).toBe(400);
    const old = await raw("GET /prefix/echo/x HTTP/1.0\r\n\r\n");
    expect(old.status).toBe(200);
    expect(JSON.parse(old.body)).toMatchObject({ path: "/echo/x", host: "localhost" });
  });
});
