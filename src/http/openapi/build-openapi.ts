import { z } from "zod";
import type { CredkitConfig } from "../../config/schema.js";
import { readBuildInfo } from "../build-info.js";
import type { ApiRoute } from "../routes/api-route.js";

type JsonObject = Record<string, unknown>;

function toSchema(schema: z.ZodType, io: "input" | "output"): JsonObject {
  try {
    return z.toJSONSchema(schema, { io, unrepresentable: "any", target: "openapi-3.0" }) as JsonObject;
  } catch {
    return { type: "object" };
  }
}

function queryParameters(schema: z.ZodObject): JsonObject[] {
  const json = toSchema(schema, "input") as { properties?: Record<string, JsonObject>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, property]) => {
    const isArray = property.type === "array";
    return {
      name: isArray ? `${name}[]` : name,
      in: "query",
      required: json.required?.includes(name) ?? false,
      schema: property,
      ...(isArray && { style: "form", explode: true }),
    };
  });
}

const ERROR_SCHEMA = {
  type: "object",
  required: ["code", "message"],
  properties: {
    code: { type: "string", example: "BR_0084" },
    message: { type: "string" },
    cause: { type: "object", properties: { message: { type: "string" } } },
  },
};

/** OpenAPI 3.0 document of the management API, generated from the same zod schemas the routes parse with. */
export function buildOpenApiDocument(routes: readonly ApiRoute[], config: CredkitConfig): JsonObject {
  const paths: Record<string, Record<string, JsonObject>> = {};
  for (const route of routes) {
    const pathParams = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
      name: m[1],
      in: "path",
      required: true,
      schema: { type: "string" },
    }));
    const operation: JsonObject = {
      tags: [route.tag],
      summary: route.summary,
      ...(route.permissions.length > 0 && { description: `Permissions (any of): ${route.permissions.join(", ")}` }),
      parameters: [...pathParams, ...(route.query ? queryParameters(route.query) : [])],
      ...(route.body && {
        requestBody: {
          required: !route.optionalBody,
          content: { "application/json": { schema: toSchema(route.body, "input") } },
        },
      }),
      responses: {
        [route.status]:
          route.status === 204
            ? { description: "No content" }
            : { description: "OK", content: { "application/json": { schema: { type: "object" } } } },
        "400": {
          description: "Invalid input",
          content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
        },
        "401": { description: "Missing or invalid bearer token" },
        "403": { description: "Missing permission" },
        "404": {
          description: "Not found",
          content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
        },
      },
      security: config.app.auth.mode === "UNSAFE_NONE" ? [] : [{ bearer: [] }],
    };
    paths[route.path] ??= {};
    paths[route.path]![route.method] = operation;
  }
  return {
    openapi: "3.0.3",
    info: {
      title: "credkit API",
      version: readBuildInfo().tag,
      description: "Payload-compatible with Procivis One Core.",
    },
    servers: [{ url: config.app.coreBaseUrl }],
    paths,
    components: {
      schemas: { Error: ERROR_SCHEMA },
      securitySchemes: { bearer: { type: "http", scheme: "bearer" } },
    },
  };
}

/** A self-contained HTML page listing the API (no external assets: the docs work offline). */
export function renderApiDocsPage(document: JsonObject): string {
  const escapeHtml = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  const rows: string[] = [];
  for (const [path, operations] of Object.entries(document.paths as Record<string, Record<string, JsonObject>>)) {
    for (const [method, operation] of Object.entries(operations)) {
      rows.push(
        `<tr><td class="m ${method}">${method.toUpperCase()}</td><td><code>${escapeHtml(path)}</code></td><td>${escapeHtml(String(operation.summary ?? ""))}</td><td>${escapeHtml(String(operation.description ?? ""))}</td></tr>`,
      );
    }
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>credkit API</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem}table{border-collapse:collapse;width:100%}td{border-bottom:1px solid #ddd;padding:.4rem .6rem;vertical-align:top}
.m{font-weight:700;font-family:monospace}.get{color:#0a7}.post{color:#06c}.patch{color:#b60}.delete{color:#c22}</style></head>
<body><h1>credkit API</h1><p>Machine-readable document: <a href="openapi.json">openapi.json</a></p>
<table><thead><tr><th>Method</th><th>Path</th><th>Summary</th><th>Permissions</th></tr></thead><tbody>${rows.join("")}</tbody></table></body></html>`;
}
