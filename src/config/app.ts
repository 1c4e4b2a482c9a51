import { z } from "zod";
import { authSchema } from "./auth.js";

// `app` block: deployment settings (reference §7 `ServerConfig`, platform spec §5 and §8): storage, listen address,
// public base URL, feature switches, body-size limits and management API authentication.

const DATABASE_URL = /^(sqlite::memory:|sqlite:.+|postgres(ql)?:\/\/.+)$/;

export const databaseUrlSchema = z.string().regex(DATABASE_URL, {
  error: "must be sqlite:<file>, sqlite::memory: or postgres://… (postgresql://…)",
});

const byteCount = z.number().int().positive();

export const appSchema = z
  .strictObject({
    /** Storage: `sqlite:<file>`, `sqlite::memory:`, `postgres://user:pass@host:5432/db`. */
    databaseUrl: databaseUrlSchema.default("sqlite:./credkit.db"),
    /** Address the reference server listens on. */
    serverIp: z.string().min(1).default("127.0.0.1"),
    serverPort: z.number().int().min(0).max(65535).default(3000),
    /** Public base URL put into every `/ssi` URL handed to wallets. Derived from serverIp/serverPort when absent. */
    coreBaseUrl: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).optional(),
    hideErrorResponseCause: z.boolean().default(false),
    enableManagementEndpoints: z.boolean().default(true),
    enableExternalEndpoints: z.boolean().default(true),
    enableMetrics: z.boolean().default(true),
    enableServerInfo: z.boolean().default(true),
    enableOpenApi: z.boolean().default(true),
    enableHistoryCreateEndpoint: z.boolean().default(false),
    /** Largest accepted OpenID4VP presentation submission (`direct_post`) body. */
    maxOid4vpResponseBodyBytes: byteCount.default(10 * 1024 * 1024),
    /** Largest accepted body on every other endpoint. */
    maxRequestBodyBytes: byteCount.default(1024 * 1024),
    traceLevel: z.string().min(1).default("info"),
    http: z
      .strictObject({
        /** Allows outbound calls (metadata, JWKS, status lists, webhooks) over plain http. Development only. */
        allowInsecureHttpTransport: z.boolean().default(false),
      })
      .prefault({}),
    auth: authSchema,
  })
  .transform(({ coreBaseUrl, ...app }) => ({
    ...app,
    coreBaseUrl: (coreBaseUrl ?? deriveBaseUrl(app.serverIp, app.serverPort)).replace(/\/+$/, ""),
  }))
  .prefault({});

/** `http://<serverIp>:<serverPort>`; a wildcard listen address is replaced by `localhost`, IPv6 gets brackets. */
function deriveBaseUrl(serverIp: string, serverPort: number): string {
  const host =
    serverIp === "0.0.0.0" || serverIp === "::" ? "localhost" : serverIp.includes(":") ? `[${serverIp}]` : serverIp;
  return `http://${host}:${serverPort}`;
}

/** Parsed `app` block (`coreBaseUrl` always set, without trailing slash). */
export type AppConfig = z.output<typeof appSchema>;
export type AppConfigInput = z.input<typeof appSchema>;
