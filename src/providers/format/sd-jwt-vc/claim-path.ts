/** A claim path: object member names and array indexes from the root of the claims (`["address", "street"]`). */
export type ClaimPath = readonly (string | number)[];

/** `address.street`, `nationalities[0]`: a path as people read it, for error details. */
export function formatClaimPath(path: ClaimPath): string {
  let text = "";
  for (const segment of path) {
    text += typeof segment === "number" ? `[${segment}]` : text === "" ? segment : `.${segment}`;
  }
  return text === "" ? "(root)" : text;
}

/** true when `prefix` is the path itself or one of its ancestors. */
export function isPathPrefix(prefix: ClaimPath, path: ClaimPath): boolean {
  if (prefix.length > path.length) return false;
  for (let i = 0; i < prefix.length; i++) if (prefix[i] !== path[i]) return false;
  return true;
}

/** Set an own property, also for the name `__proto__` (plain assignment would change the prototype instead). */
export function setOwnProperty(target: Record<string, unknown>, name: string, value: unknown): void {
  if (name === "__proto__") {
    Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
  } else {
    target[name] = value;
  }
}

/** A plain JSON object (not an array, not null, not a Date / Map / class instance). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
