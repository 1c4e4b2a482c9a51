import { CredkitError } from "../errors/credkit-error.js";

/**
 * Management input must not carry NUL (U+0000): PostgreSQL cannot store it, and no name, claim or identifier needs it.
 * Refusing it at the boundary keeps every storage adapter answering the same 400 BR_0084. Walks the parsed JSON
 * iteratively (a deeply nested body must not overflow the stack); `where` names the first offending field.
 */
export function rejectNulCharacters(value: unknown, root: string): void {
  const stack: [unknown, string][] = [[value, root]];
  while (stack.length > 0) {
    const [current, path] = stack.pop()!;
    if (typeof current === "string") {
      if (current.includes("\u0000")) {
        throw new CredkitError("BR_0084", `${path}: must not contain NUL (U+0000) characters`);
      }
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push([current[i], `${path}[${i}]`]);
    } else if (typeof current === "object" && current !== null) {
      for (const [key, child] of Object.entries(current)) {
        if (key.includes("\u0000")) throw new CredkitError("BR_0084", `${path}: a field name contains NUL (U+0000)`);
        stack.push([child, `${path}.${key}`]);
      }
    }
  }
}

/** Query parameters and path parameters of a management request (see {@link rejectNulCharacters}). */
export function rejectNulInParameters(searchParams: URLSearchParams, params: Record<string, string>): void {
  for (const [name, value] of searchParams) {
    if (name.includes("\u0000") || value.includes("\u0000")) {
      throw new CredkitError(
        "BR_0084",
        `query parameter ${JSON.stringify(name.replace(/\0/g, ""))}: must not contain NUL (U+0000) characters`,
      );
    }
  }
  for (const [name, value] of Object.entries(params)) {
    if (value.includes("\u0000"))
      throw new CredkitError("BR_0084", `${name}: must not contain NUL (U+0000) characters`);
  }
}
