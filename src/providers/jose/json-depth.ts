/**
 * Deepest nesting of arrays and objects accepted in JSON a remote party sends (request objects, presentation
 * definitions, attestations). JSON.parse reads any depth, but every recursive walk after it — validation, evaluation,
 * JSON.stringify when storing — overflows the stack at a few thousand levels, which would answer 5xx.
 */
export const MAX_JSON_DEPTH = 64;

/** Whether `value` nests arrays / objects deeper than `max` levels (checked without recursion). */
export function jsonDepthExceeds(value: unknown, max = MAX_JSON_DEPTH): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (typeof current !== "object" || current === null) continue;
    if (depth + 1 > max) return true;
    for (const member of Array.isArray(current) ? current : Object.values(current)) stack.push([member, depth + 1]);
  }
  return false;
}
