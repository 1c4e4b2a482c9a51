import type { ConfigIssue } from "./config-error.js";

// Environment overrides: `CREDKIT_<path joined by __>=<value>`, e.g. `CREDKIT_app__serverPort=8080` or
// `CREDKIT_keyStorage__INTERNAL__params__private__encryption=<64 hex>`. The prefix is upper case; the path after it is
// case-sensitive, exactly as the keys are written in a file. A value that parses as JSON (number, boolean, null, array,
// object, "quoted string") is used parsed, anything else as the raw string.

export const ENV_PREFIX = "CREDKIT_";
const SEPARATOR = "__";

export interface EnvOverride {
  /** The variable name, e.g. `CREDKIT_app__serverPort`. */
  variable: string;
  /** Configuration path, e.g. `["app", "serverPort"]`. */
  path: string[];
  raw: string;
  /** `raw` parsed as JSON when it parses, else `raw`. */
  value: unknown;
}

/** Collects the `CREDKIT_` variables, least specific first (a whole object before the keys inside it). */
export function readEnvOverrides(env: Record<string, string | undefined>): {
  overrides: EnvOverride[];
  issues: ConfigIssue[];
} {
  const overrides: EnvOverride[] = [];
  const issues: ConfigIssue[] = [];
  for (const [variable, raw] of Object.entries(env)) {
    if (!variable.startsWith(ENV_PREFIX) || raw === undefined) continue;
    const path = variable.slice(ENV_PREFIX.length).split(SEPARATOR);
    if (path.some((segment) => segment === "")) {
      issues.push({ path: variable, message: `environment variable name must be ${ENV_PREFIX}<key>__<key>…` });
      continue;
    }
    overrides.push({ variable, path, raw, value: parseEnvValue(raw) });
  }
  overrides.sort((a, b) => a.path.length - b.path.length || a.variable.localeCompare(b.variable));
  return { overrides, issues };
}

export function parseEnvValue(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/** `{a: {b: value}}` for path `["a", "b"]`. */
export function envOverrideLayer(path: readonly string[], value: unknown): Record<string, unknown> {
  let layer: unknown = value;
  for (let i = path.length - 1; i >= 0; i--) layer = { [path[i]!]: layer };
  return layer as Record<string, unknown>;
}
