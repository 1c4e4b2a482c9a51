// Deep merge of configuration layers: objects merge key by key, arrays and scalars replace, `null` deletes the key
// (to drop a shipped instance, e.g. `verificationProtocol: {OPENID4VP_DRAFT20: null}`), `undefined` changes nothing.

/** A layer of configuration: every key optional at every depth; `null` removes the key from the layers below. */
export type DeepPartial<T> = T extends readonly unknown[]
  ? T
  : T extends Record<string, unknown>
    ? { [K in keyof T]?: DeepPartial<T[K]> | null }
    : T;

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Keys that must never be copied from untrusted input (prototype pollution). */
const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"]);

function cloneValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(cloneValue);
  if (isPlainObject(value)) return mergeConfigLayers([value]);
  return value;
}

/** Merges layers left to right (later wins) into a new object; the inputs are not modified. */
export function mergeConfigLayers(layers: readonly unknown[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const layer of layers) {
    if (!isPlainObject(layer)) continue;
    for (const [key, value] of Object.entries(layer)) {
      if (FORBIDDEN_KEYS.has(key) || value === undefined) continue;
      if (value === null) {
        delete out[key];
      } else if (isPlainObject(value) && isPlainObject(out[key])) {
        out[key] = mergeConfigLayers([out[key], value]);
      } else {
        out[key] = cloneValue(value);
      }
    }
  }
  return out;
}
