import type { z } from "zod";

/** Options for {@link formatZodIssues}. */
export interface FormatZodIssuesOptions {
  /** Noun used for keys the schema does not know, e.g. `"unknown field"` (default) or `"unknown query param"`. */
  unknownKey?: string;
  /** Label used when an issue concerns the whole input rather than one field (default `"(root)"`). */
  rootLabel?: string;
}

type Issue = z.core.$ZodIssue;

/** `["claims", 0, "key"]` → `claims[0].key`. */
export function formatIssuePath(path: readonly PropertyKey[], rootLabel = "(root)"): string {
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else out += out === "" ? String(segment) : `.${String(segment)}`;
  }
  return out === "" ? rootLabel : out;
}

/**
 * Turns zod issues into short human-readable lines, one per problem, such as `keyType: expected string, received
 * number`, `name: required`, `foo: unknown field`, `pageSize: must be <= 1000`. Never a JSON dump. A message given
 * explicitly in a schema (`z.string({ error: "..." })`) is kept as written.
 */
export function formatZodIssues(issues: readonly Issue[], options: FormatZodIssuesOptions = {}): string[] {
  const unknownKey = options.unknownKey ?? "unknown field";
  const rootLabel = options.rootLabel ?? "(root)";
  const lines: string[] = [];
  for (const issue of issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) lines.push(`${formatIssuePath([...issue.path, key], rootLabel)}: ${unknownKey}`);
      continue;
    }
    if (issue.code === "invalid_union" && issue.errors.length > 0) {
      // Report the branch that got furthest (fewest issues) rather than "invalid input".
      const best = [...issue.errors].sort((a, b) => a.length - b.length)[0];
      if (best !== undefined && best.length > 0) {
        lines.push(
          ...formatZodIssues(
            best.map((nested) => ({ ...nested, path: [...issue.path, ...nested.path] })),
            options,
          ),
        );
        continue;
      }
    }
    lines.push(`${formatIssuePath(issue.path, rootLabel)}: ${describeIssue(issue)}`);
  }
  return lines;
}

/** All issues of a zod error as one line, problems separated by `; `. */
export function describeZodError(error: { issues: readonly Issue[] }, options?: FormatZodIssuesOptions): string {
  return formatZodIssues(error.issues, options).join("; ");
}

function describeIssue(issue: Issue): string {
  const message = issue.message;
  switch (issue.code) {
    case "invalid_type": {
      if (!message.startsWith("Invalid input")) return message; // custom message from the schema
      if ("input" in issue ? issue.input === undefined : message.endsWith("received undefined")) return "required";
      const received = "input" in issue ? describeValue(issue.input) : message.match(/received (\S+)$/)?.[1];
      const expected = issue.expected === "int" ? "integer" : issue.expected;
      return received === undefined ? `expected ${expected}` : `expected ${expected}, received ${received}`;
    }
    case "invalid_value": {
      if (!message.startsWith("Invalid")) return message;
      const values = issue.values.map((v) => (typeof v === "string" ? v : String(v)));
      return values.length === 1 ? `expected ${values[0]}` : `expected one of ${values.join(", ")}`;
    }
    case "too_small": {
      if (!message.startsWith("Too small")) return message;
      return describeBound(issue.origin, issue.inclusive ? ">=" : ">", issue.minimum, "at least");
    }
    case "too_big": {
      if (!message.startsWith("Too big")) return message;
      return describeBound(issue.origin, issue.inclusive ? "<=" : "<", issue.maximum, "at most");
    }
    case "invalid_format":
      return issue.format === "regex" && message.startsWith("Invalid string")
        ? "does not match the expected pattern"
        : lowerFirst(message);
    case "not_multiple_of":
      return `must be a multiple of ${String(issue.divisor)}`;
    default:
      return lowerFirst(message);
  }
}

function describeBound(origin: string, op: string, bound: number | bigint, words: string): string {
  const n = String(bound);
  switch (origin) {
    case "string":
      return `must have ${words} ${n} character${n === "1" ? "" : "s"}`;
    case "array":
    case "set":
      return `must have ${words} ${n} item${n === "1" ? "" : "s"}`;
    case "date":
      return `must be ${op} ${new Date(Number(bound)).toISOString()}`;
    default:
      return `must be ${op} ${n}`;
  }
}

function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number" && Number.isNaN(value)) return "NaN";
  return typeof value;
}

function lowerFirst(text: string): string {
  return text.length > 1 && /^[A-Z][a-z]/.test(text) ? text[0]!.toLowerCase() + text.slice(1) : text;
}
