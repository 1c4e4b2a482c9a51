import type { Hono } from "hono";
import type { Credkit } from "../../credkit.js";
import { readBuildInfo } from "../build-info.js";
import { emptyResponse, jsonResponse, SECURITY_HEADERS } from "../errors/to-error-response.js";
import { type HttpMetrics, PROMETHEUS_CONTENT_TYPE } from "../metrics.js";
import { buildOpenApiDocument, renderApiDocsPage } from "../openapi/build-openapi.js";
import { API_ROUTES } from "./api/index.js";

/** Public system endpoints (spec §4.4): /health, /metrics, /build-info, and the API documents. */
export function mountSystemRoutes(app: Hono, kit: Credkit, metrics: HttpMetrics): void {
  const { app: config } = kit.config;
  if (config.enableServerInfo) {
    app.get("/health", () => emptyResponse(204));
    app.get("/build-info", () => jsonResponse(readBuildInfo()));
  }
  if (config.enableMetrics) {
    app.get(
      "/metrics",
      () =>
        new Response(metrics.render(), { headers: { "Content-Type": PROMETHEUS_CONTENT_TYPE, ...SECURITY_HEADERS } }),
    );
  }
  if (config.enableOpenApi) {
    let document: Record<string, unknown> | undefined;
    const openApi = () => {
      document ??= buildOpenApiDocument(
        API_ROUTES.filter((r) => r.enabled?.(kit.config) ?? true),
        kit.config,
      );
      return document;
    };
    app.get("/api-docs/openapi.json", () => jsonResponse(openApi()));
    app.get(
      "/api-docs",
      () =>
        new Response(renderApiDocsPage(openApi()), {
          headers: { "Content-Type": "text/html; charset=utf-8", ...SECURITY_HEADERS },
        }),
    );
  }
}
