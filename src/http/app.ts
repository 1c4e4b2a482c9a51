import { Hono } from "hono";
import { matchedRoutes } from "hono/route";
import { z } from "zod";
import type { Credkit } from "../credkit.js";
import type { CallContext } from "../engines/common/call-context.js";
import { CredkitError } from "../errors/credkit-error.js";
import { type AuthContext, createAuthenticator } from "./auth/authenticate.js";
import { requirePermission } from "./auth/authorize.js";
import { emptyResponse, jsonResponse, SECURITY_HEADERS, toErrorResponse } from "./errors/to-error-response.js";
import { createHttpMetrics, type HttpMetrics } from "./metrics.js";
import { parseQuery } from "./query/parse-query.js";
import { rejectNulCharacters, rejectNulInParameters } from "./reject-nul.js";
import { JSON_BODY_VARIABLE, type ParsedJsonBody, readJsonBody, requireJsonBody } from "./request-guards.js";
import { API_ROUTES } from "./routes/api/index.js";
import type { ApiRoute } from "./routes/api-route.js";
import { mountDidWebRoutes } from "./routes/ssi/did-web-routes.js";
import { mountOpenid4vciRoutes } from "./routes/ssi/openid4vci-routes.js";
import { mountOpenid4vpDraft20Routes } from "./routes/ssi/openid4vp-draft20-routes.js";
import { mountOpenid4vpRoutes } from "./routes/ssi/openid4vp-routes.js";
import { mountSystemRoutes } from "./routes/system-routes.js";

export interface HttpAppOptions {
  /** receives unexpected errors (mapped to 500 BR_0000 for the client) */
  log?: (error: unknown) => void;
  /** fetch used for the STS JWKS (default: the kit's outbound fetch) */
  fetch?: typeof fetch;
}

/** credkit's HTTP surface as one web-standard handler: mount it with an adapter or hand `fetch` to Hono/Bun/Deno. */
export interface CredkitHttp {
  readonly app: Hono;
  readonly metrics: HttpMetrics;
  fetch(request: Request): Promise<Response>;
  /** releases the JWKS cache */
  close(): void;
}

type Env = { Variables: { auth: AuthContext; [JSON_BODY_VARIABLE]: ParsedJsonBody } };

const NO_QUERY = z.object({}).strict();

function toHonoPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ":$1");
}

function isPublicPath(path: string): boolean {
  return !path.startsWith("/api/") || path.startsWith("/api-docs");
}

/** Builds the Hono app serving /api, /ssi, /.well-known and the system endpoints of one kit. */
export function createHttpApp(kit: Credkit, options: HttpAppOptions = {}): CredkitHttp {
  const config = kit.config.app;
  const log = options.log ?? ((error: unknown) => console.error("[credkit] unexpected error", error));
  const metrics = createHttpMetrics();
  const authenticator = createAuthenticator(config.auth, {
    fetch: options.fetch ?? ((input, init) => kit.fetch(input, init)),
    log,
  });
  const app = new Hono<Env>();

  app.use("*", async (c, next) => {
    const started = performance.now();
    await next();
    const route = matchedRoutes(c)
      .filter((r) => r.method !== "ALL")
      .at(-1)?.path;
    metrics.observe(c.req.method, route ?? "unmatched", c.res.status, (performance.now() - started) / 1000);
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
      if (!c.res.headers.has(name)) c.res.headers.set(name, value);
    }
  });

  app.onError((error) => toErrorResponse(error, { hideCause: config.hideErrorResponseCause, log }));
  app.notFound(() => emptyResponse(404));

  mountSystemRoutes(app as unknown as Hono, kit, metrics);

  if (config.enableExternalEndpoints) {
    mountDidWebRoutes(app as unknown as Hono, kit);
    mountOpenid4vciRoutes(app as unknown as Hono, kit);
    mountOpenid4vpRoutes(app as unknown as Hono, kit);
    mountOpenid4vpDraft20Routes(app as unknown as Hono, kit);
  }

  if (config.enableManagementEndpoints) {
    app.use("/api/*", async (c, next) => {
      if (isPublicPath(c.req.path)) return next();
      c.set("auth", await authenticator.authenticate(c.req.raw));
      return next();
    });
    app.use("/api/*", requireJsonBody({ maxBytes: config.maxRequestBodyBytes }));
    for (const route of API_ROUTES) {
      if (route.enabled && !route.enabled(kit.config)) continue;
      app.on(route.method.toUpperCase(), toHonoPath(route.path), (c) => handleApiRoute(kit, route, c));
    }
  }

  return {
    app: app as unknown as Hono,
    metrics,
    fetch: async (request) => app.fetch(request),
    close: () => authenticator.close(),
  };
}

async function handleApiRoute(kit: Credkit, route: ApiRoute, c: import("hono").Context<Env>): Promise<Response> {
  const auth = c.get("auth");
  if (route.permissions.length > 0) requirePermission(auth, ...route.permissions);
  const context: CallContext = {
    ...(auth.organisationId !== undefined && { organisationId: auth.organisationId }),
    ...(auth.user !== undefined && { user: auth.user }),
    ...(auth.actor !== undefined && { actor: auth.actor }),
  };
  const searchParams = new URL(c.req.url).searchParams;
  rejectNulInParameters(searchParams, c.req.param() as Record<string, string>);
  const query = parseQuery(searchParams, route.query ?? NO_QUERY);
  let body: unknown;
  if (route.body) {
    const parsed = c.get(JSON_BODY_VARIABLE);
    body = route.optionalBody && !parsed?.present ? undefined : await readJsonBody(c, route.body);
    if (body !== undefined) rejectNulCharacters(body, "body");
  } else {
    const parsed = c.get(JSON_BODY_VARIABLE);
    if (parsed?.present && !isEmptyObject(parsed.value)) {
      throw new CredkitError("BR_0084", "this endpoint takes no request body");
    }
  }
  const result = await route.handle({
    kit,
    context,
    params: c.req.param() as Record<string, string>,
    body,
    query,
    request: c.req.raw,
  });
  return route.status === 204 ? emptyResponse(204) : jsonResponse(result, route.status);
}

function isEmptyObject(value: unknown): boolean {
  return typeof value === "object" && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;
}
