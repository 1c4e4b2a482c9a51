import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import express from "express";
import Koa from "koa";
import type { Credkit } from "../../src/credkit.js";
import { credkitExpress, credkitKoa, credkitNode } from "../../src/http/mount.js";

export interface MountedKit {
  /** base URL including the mount prefix, e.g. http://127.0.0.1:1234/credkit */
  baseUrl: string;
  close: () => Promise<void>;
}

export interface AdapterCase {
  name: string;
  mount: (kit: Credkit) => Promise<MountedKit>;
}

async function listen(server: Server, prefix = ""): Promise<MountedKit> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${prefix}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Every way credkit can be mounted; the HTTP e2e suites run once per entry. */
export const HTTP_ADAPTERS: AdapterCase[] = [
  { name: "node:http", mount: (kit) => listen(createServer(credkitNode(kit))) },
  {
    name: "node:http under /credkit",
    mount: (kit) => {
      const listener = credkitNode(kit, { prefix: "/credkit" });
      return listen(
        createServer((req, res) => listener(req, res)),
        "/credkit",
      );
    },
  },
  {
    name: "express 5 with body parsers, under /credkit",
    mount: (kit) => {
      const app = express();
      app.use(express.json());
      app.use(express.urlencoded({ extended: false }));
      app.use("/credkit", credkitExpress(kit));
      return listen(createServer(app), "/credkit");
    },
  },
  {
    name: "koa 3 under /credkit",
    mount: (kit) => {
      const app = new Koa();
      app.use(credkitKoa(kit, { prefix: "/credkit" }));
      return listen(createServer(app.callback()), "/credkit");
    },
  },
  {
    name: "hono fetch (@hono/node-server)",
    mount: async (kit) => {
      let server!: Server;
      const port = await new Promise<number>((resolve) => {
        server = serve(
          { fetch: (request: Request) => kit.http.fetch(request), port: 0, hostname: "127.0.0.1" },
          (info) => resolve(info.port),
        ) as Server;
      });
      return {
        baseUrl: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise<void>((resolve) => {
            server.closeAllConnections?.();
            server.close(() => resolve());
          }),
      };
    },
  },
];

export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: test responses are inspected freely
  json: any;
}

/** A small HTTP client for tests: JSON in, parsed JSON out. */
export function createApiClient(baseUrl: string, defaults: Record<string, string> = {}) {
  return async function api(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<ApiResponse> {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        accept: "application/json",
        ...(body !== undefined && typeof body !== "string" && { "content-type": "application/json" }),
        ...defaults,
        ...headers,
      },
      ...(body !== undefined && { body: typeof body === "string" ? body : JSON.stringify(body) }),
    });
    const text = await response.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: response.status, headers: response.headers, text, json };
  };
}
