import type { z } from "zod";

/** One problem found in a configuration: dotted path (`app.auth.mode`; empty for the whole document) and why. */
export interface ConfigIssue {
  path: string;
  message: string;
}

/**
 * Thrown when a configuration cannot be loaded: a file is missing or unparsable, or the merged configuration is
 * invalid. `issues` lists every problem; the message repeats them one per line (`<path>: <why>`).
 */
export class ConfigError extends Error {
  readonly issues: readonly ConfigIssue[];

  constructor(issues: readonly ConfigIssue[], options?: { cause?: unknown; heading?: string }) {
    const heading = options?.heading ?? "Invalid credkit configuration";
    const lines = issues.map((issue) => `  ${issue.path === "" ? "" : `${issue.path}: `}${issue.message}`);
    super(`${heading}:\n${lines.join("\n")}`, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ConfigError";
    this.issues = issues;
  }
}

export function isConfigError(value: unknown): value is ConfigError {
  return value instanceof ConfigError;
}

/** Dotted path of an issue path (`["keyStorage", "INTERNAL", "params"]` -> `keyStorage.INTERNAL.params`). */
export function formatConfigPath(path: readonly PropertyKey[]): string {
  return path.map((segment) => String(segment)).join(".");
}

/** Turns zod issues into config issues; an unrecognized-keys issue becomes one issue per key. */
export function toConfigIssues(issues: readonly z.core.$ZodIssue[]): ConfigIssue[] {
  const out: ConfigIssue[] = [];
  for (const issue of issues) {
    if (issue.code === "unrecognized_keys") {
      const custom = !issue.message.startsWith("Unrecognized key");
      for (const key of issue.keys) {
        out.push({ path: formatConfigPath([...issue.path, key]), message: custom ? issue.message : "unknown key" });
      }
    } else {
      out.push({ path: formatConfigPath(issue.path), message: issue.message });
    }
  }
  return out;
}

/**
 * Per-parse error map: a missing value reads "required"; everything else keeps zod's or the schema's own message.
 */
export function configErrorMap(issue: z.core.$ZodRawIssue): string | undefined {
  if (issue.code === "invalid_type" && issue.input === undefined) return "required";
  if (issue.code === "invalid_type") return `expected ${issue.expected}, got ${describeType(issue.input)}`;
  return undefined;
}

function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}
