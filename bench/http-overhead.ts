/**
 * HTTP overhead benchmark: throughput of credkit listeners next to a bare `node:http` hello-world measured in the same
 * run, so the ratio says what the stack on top of Node costs on this machine.
 *
 *   npx tsx bench/http-overhead.ts        # adapters (node, express, koa) around a tiny Hono app
 *
 * Programmatic use (e.g. feed it the real app's listener):
 *   const results = await benchHttp([{ name: "health", listener, path: "/health" }]);
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import autocannon from "autocannon";

/** One listener to measure. */
export interface HttpBenchTarget {
  /** Label in the results. */
  name: string;
  /** A `node:http` request listener (e.g. `toNodeListener(app.fetch)`, an Express app, `koa.callback()`). */
  listener: (req: IncomingMessage, res: ServerResponse) => void;
  /** Path (and query) requested, e.g. `/api/key/v1?page=0&pageSize=10`. */
  path: string;
  /** Request headers, e.g. `{ authorization: "Bearer test" }`. */
  headers?: Record<string, string>;
}

/** Throughput of one target next to the bare baseline of the same run. */
export interface HttpBenchResult {
  name: string;
  /** Mean requests per second over the measured window. */
  requestsPerSec: number;
  /** Mean requests per second of the bare `node:http` hello-world. */
  baselineRequestsPerSec: number;
  /** `requestsPerSec / baselineRequestsPerSec` (1 = no overhead). */
  ratio: number;
  /** Responses outside 2xx during the measured window (should be 0; otherwise the numbers measure errors). */
  non2xx: number;
  /** 99th percentile latency in milliseconds. */
  latencyP99Ms: number;
}

/** Tuning of {@link benchHttp}; the defaults are 10 connections, 1 s warm-up, 3 s measured. */
export interface HttpBenchOptions {
  connections?: number;
  warmupSeconds?: number;
  durationSeconds?: number;
}

const hello = (_req: IncomingMessage, res: ServerResponse): void => {
  res.writeHead(200, { "content-type": "text/plain", "content-length": "2" });
  res.end("ok");
};

async function listen(listener: HttpBenchTarget["listener"]): Promise<{ server: Server; origin: string }> {
  const server = createServer(listener);
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

async function measure(
  target: Omit<HttpBenchTarget, "name">,
  options: Required<HttpBenchOptions>,
): Promise<{ requestsPerSec: number; non2xx: number; latencyP99Ms: number }> {
  const { server, origin } = await listen(target.listener);
  try {
    const base = { url: `${origin}${target.path}`, connections: options.connections, headers: target.headers ?? {} };
    if (options.warmupSeconds > 0) await autocannon({ ...base, duration: options.warmupSeconds });
    const result = await autocannon({ ...base, duration: options.durationSeconds });
    return { requestsPerSec: result.requests.average, non2xx: result.non2xx, latencyP99Ms: result.latency.p99 };
  } finally {
    await close(server);
  }
}

/**
 * Starts a bare `node:http` hello-world and then each target on loopback ports (one at a time), runs autocannon
 * against each (10 connections, 1 s warm-up, then ~3 s measured by default), and returns each target's throughput
 * next to the baseline measured in the same run.
 */
export async function benchHttp(
  targets: HttpBenchTarget[],
  options: HttpBenchOptions = {},
): Promise<HttpBenchResult[]> {
  const settings: Required<HttpBenchOptions> = {
    connections: options.connections ?? 10,
    warmupSeconds: options.warmupSeconds ?? 1,
    durationSeconds: options.durationSeconds ?? 3,
  };
  const baseline = await measure({ listener: hello, path: "/" }, settings);
  const results: HttpBenchResult[] = [];
  for (const target of targets) {
    const measured = await measure(target, settings);
    results.push({
      name: target.name,
      requestsPerSec: measured.requestsPerSec,
      baselineRequestsPerSec: baseline.requestsPerSec,
      ratio: baseline.requestsPerSec > 0 ? measured.requestsPerSec / baseline.requestsPerSec : 0,
      non2xx: measured.non2xx,
      latencyP99Ms: measured.latencyP99Ms,
    });
  }
  return results;
}

/** Prints results as a small table. */
export function formatBenchResults(results: HttpBenchResult[]): string {
  const rows = results.map(
    (r) =>
      `${r.name.padEnd(50)} ${r.requestsPerSec.toFixed(0).padStart(8)} req/s  ratio ${r.ratio.toFixed(2)}  ` +
      `p99 ${r.latencyP99Ms} ms${r.non2xx > 0 ? `  non2xx ${r.non2xx}` : ""}`,
  );
  const baseline = results[0]?.baselineRequestsPerSec ?? 0;
  return [
    `${"bare node:http hello-world".padEnd(50)} ${baseline.toFixed(0).padStart(8)} req/s  ratio 1.00`,
    ...rows,
  ].join("\n");
}

async function main(): Promise<void> {
  const [{ Hono }, { default: express }, { default: Koa }, node, expressAdapter, koaAdapter] = await Promise.all([
    import("hono"),
    import("express"),
    import("koa"),
    import("../src/http/adapters/node.js"),
    import("../src/http/adapters/express.js"),
    import("../src/http/adapters/koa.js"),
  ]);
  const { getRequestListener } = await import("@hono/node-server");
  const app = new Hono();
  app.get("/health", (c) => c.body(null, 204));
  app.get("/api/key/v1", (c) => c.json({ values: [], totalPages: 0, totalItems: 0, page: c.req.query("page") }));
  const handler = (request: Request) => Promise.resolve(app.fetch(request));

  const expressApp = express();
  expressApp.use(express.json());
  expressApp.use("/credkit", expressAdapter.toExpressMiddleware(handler));
  const expressHello = express();
  expressHello.use(express.json());
  expressHello.get("/", (_req, res) => {
    res.send("ok");
  });
  const koaHello = new Koa();
  koaHello.use((ctx) => {
    ctx.body = "ok";
  });
  const koaApp = new Koa();
  koaApp.use(koaAdapter.toKoaMiddleware(handler, { prefix: "/credkit" }));

  const path = "/api/key/v1?page=0&pageSize=10";
  const results = await benchHttp([
    { name: "hono via toNodeListener", listener: node.toNodeListener(handler), path },
    { name: "hono via toNodeListener, /health (204)", listener: node.toNodeListener(handler), path: "/health" },
    { name: "express hello-world (+express.json), no credkit", listener: expressHello, path: "/" },
    { name: "hono via toExpressMiddleware (+express.json)", listener: expressApp, path: `/credkit${path}` },
    { name: "koa hello-world, no credkit", listener: koaHello.callback(), path: "/" },
    { name: "hono via toKoaMiddleware", listener: koaApp.callback(), path: `/credkit${path}` },
    { name: "hono via @hono/node-server directly", listener: getRequestListener(handler), path },
  ]);
  console.log(formatBenchResults(results));
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
}
