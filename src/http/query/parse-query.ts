import type { z } from "zod";
import { CredkitError } from "../../errors/index.js";
import { formatZodIssues } from "../errors/format-zod-issues.js";

/** What the query parser needs to know about one field of the schema. */
interface FieldShape {
  /** The field takes several values (`a[]=x`, `a=x&a=y`, `a[0]=x`). */
  readonly array: boolean;
  /** How to convert each raw string before zod sees it. */
  readonly scalar: "number" | "boolean" | "string";
}

/** Wrappers whose inner schema decides what the raw value looks like. */
const WRAPPERS = new Set(["optional", "nullable", "default", "prefault", "catch", "readonly", "nonoptional"]);

function unwrap(schema: z.core.$ZodType): z.core.$ZodType {
  let current = schema;
  for (let depth = 0; depth < 32; depth++) {
    const def = current._zod.def as z.core.$ZodTypeDef & {
      innerType?: z.core.$ZodType;
      in?: z.core.$ZodType;
      getter?: () => z.core.$ZodType;
    };
    if (WRAPPERS.has(def.type) && def.innerType) current = def.innerType;
    else if (def.type === "pipe" && def.in) current = def.in;
    else if (def.type === "lazy" && def.getter) current = def.getter();
    else break;
  }
  return current;
}

function scalarKind(schema: z.core.$ZodType): FieldShape["scalar"] {
  const inner = unwrap(schema);
  const def = inner._zod.def as z.core.$ZodTypeDef & { entries?: Record<string, unknown>; values?: unknown[] };
  switch (def.type) {
    case "number":
    case "int":
      return "number";
    case "boolean":
      return "boolean";
    case "enum": {
      const values = Object.values(def.entries ?? {});
      return values.length > 0 && values.every((v) => typeof v === "number") ? "number" : "string";
    }
    case "literal": {
      const values = def.values ?? [];
      if (values.length > 0 && values.every((v) => typeof v === "number")) return "number";
      if (values.length > 0 && values.every((v) => typeof v === "boolean")) return "boolean";
      return "string";
    }
    default:
      return "string";
  }
}

function describeField(schema: z.core.$ZodType): FieldShape {
  const inner = unwrap(schema);
  const def = inner._zod.def as z.core.$ZodTypeDef & { element?: z.core.$ZodType; valueType?: z.core.$ZodType };
  if (def.type === "array" && def.element) return { array: true, scalar: scalarKind(def.element) };
  if (def.type === "set" && def.valueType) return { array: true, scalar: scalarKind(def.valueType) };
  return { array: false, scalar: scalarKind(inner) };
}

const shapeCache = new WeakMap<object, Map<string, FieldShape>>();

function fieldsOf(schema: z.ZodObject): Map<string, FieldShape> {
  let fields = shapeCache.get(schema);
  if (fields === undefined) {
    fields = new Map();
    for (const [key, field] of Object.entries(schema.shape)) fields.set(key, describeField(field as z.core.$ZodType));
    shapeCache.set(schema, fields);
  }
  return fields;
}

/** `a[]` → `{ name: "a", index: -1 }`, `a[3]` → `{ name: "a", index: 3 }`, `a` → `{ name: "a" }`. */
const BRACKETS = /^(.+?)\[(\d{0,9})\]$/;

interface RawValue {
  readonly value: string;
  /** `undefined`: plain `a=x`; `-1`: `a[]=x`; `n >= 0`: `a[n]=x`. */
  readonly index: number | undefined;
}

const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

function coerce(raw: string, kind: FieldShape["scalar"]): { ok: true; value: unknown } | { ok: false; why: string } {
  if (kind === "number") {
    const n = Number(raw);
    return NUMBER.test(raw) && Number.isFinite(n)
      ? { ok: true, value: n }
      : { ok: false, why: `expected a number, got ${JSON.stringify(raw)}` };
  }
  if (kind === "boolean") {
    if (raw === "true") return { ok: true, value: true };
    if (raw === "false") return { ok: true, value: false };
    return { ok: false, why: `expected true or false, got ${JSON.stringify(raw)}` };
  }
  return { ok: true, value: raw };
}

/**
 * Converts a query string into an object guided by a zod object schema, then validates it with that schema.
 *
 * - Array fields (`z.array(...)`, possibly optional/default) accept `a[]=x&a[]=y`, repeated `a=x&a=y`, a single
 *   `a=x`, and qs-style `a[0]=x&a[1]=y` (ordered by index).
 * - Number fields (and number array elements) are coerced; anything that is not a finite decimal number is refused.
 * - Boolean fields accept exactly `true` / `false`.
 * - Keys that are not in the schema's shape are refused (`Unknown query params: foo, bar`), as are repeated values or
 *   `[]` notation on a single-valued field.
 *
 * The schema may be strict. Failures throw `CredkitError("BR_0084")` whose detail lists every bad param and why, e.g.
 * `Unknown query params: foo; pageSize: must be <= 1000; page: required`.
 */
export function parseQuery<S extends z.ZodObject>(params: URLSearchParams, schema: S): z.output<S> {
  const fields = fieldsOf(schema);
  const collected = new Map<string, RawValue[]>();
  const unknown: string[] = [];

  for (const [key, value] of params) {
    let name = key;
    let index: number | undefined;
    if (!Object.hasOwn(schema.shape, key)) {
      const match = BRACKETS.exec(key);
      if (match) {
        name = match[1]!;
        index = match[2] === "" ? -1 : Number(match[2]);
      }
    }
    if (!Object.hasOwn(schema.shape, name)) {
      if (!unknown.includes(name)) unknown.push(name);
      continue;
    }
    let values = collected.get(name);
    if (values === undefined) {
      values = [];
      collected.set(name, values);
    }
    values.push({ value, index });
  }

  const problems: string[] = [];
  if (unknown.length > 0) problems.push(`Unknown query params: ${unknown.join(", ")}`);

  const input: Record<string, unknown> = {};
  const failed = new Set<string>();
  for (const [name, values] of collected) {
    const field = fields.get(name)!;
    if (field.array) {
      const ordered = values.some((v) => v.index !== undefined && v.index >= 0)
        ? [...values].sort((a, b) => orderOf(a) - orderOf(b))
        : values;
      const items: unknown[] = [];
      for (const raw of ordered) {
        const result = coerce(raw.value, field.scalar);
        if (result.ok) items.push(result.value);
        else {
          problems.push(`${name}: ${result.why}`);
          failed.add(name);
          break;
        }
      }
      input[name] = items;
    } else if (values.length > 1 || values[0]!.index !== undefined) {
      problems.push(`${name}: expected a single value`);
      failed.add(name);
    } else {
      const result = coerce(values[0]!.value, field.scalar);
      if (result.ok) input[name] = result.value;
      else {
        problems.push(`${name}: ${result.why}`);
        failed.add(name);
      }
    }
  }

  const parsed = schema.safeParse(input, { reportInput: true });
  if (parsed.success && problems.length === 0) return parsed.data as z.output<S>;
  if (!parsed.success) {
    const issues = parsed.error.issues.filter((issue) => !failed.has(String(issue.path[0])));
    problems.push(...formatZodIssues(issues, { unknownKey: "unknown query param" }));
  }
  throw new CredkitError("BR_0084", problems.join("; "));
}

function orderOf(value: RawValue): number {
  return value.index === undefined || value.index < 0 ? Number.MAX_SAFE_INTEGER : value.index;
}
