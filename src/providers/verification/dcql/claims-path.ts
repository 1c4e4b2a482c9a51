import type { ClaimsPathComponent } from "./dcql-query-schema.js";

/**
 * Claims path pointers, OpenID for Verifiable Presentations 1.0 §7.
 *
 * §7.1 (JSON-based credentials) processes the pointer left to right over a set of selected elements, starting with
 * the top-level object: a string selects that key of every selected element (elements lacking the key drop out), a
 * non-negative integer selects that index of every selected array (arrays too short drop out), null selects every
 * element of every selected array. Processing aborts with an error when a string meets a selected element that is not
 * an object, when an integer or null meets one that is not an array, on any other component, and when nothing is left
 * selected at the end. §7.2 (mdoc) takes exactly `[namespace, data element identifier]`.
 */

/** Outcome of processing a pointer: the selected elements (never empty), or why processing aborted. */
export type ClaimsPathResult = { ok: true; selected: unknown[] } | { ok: false; error: string };

export interface ClaimsPathOptions {
  /**
   * Let a non-negative integer select every element of the array instead of the one at that index. For checking
   * SD-JWT presentations: undisclosed array elements are removed from the processed payload, so indexes of the
   * issued credential do not survive selective disclosure. Not §7 semantics; off by default.
   */
  indexMatchesAnyElement?: boolean;
}

/** `["degrees",null,"type"]`: how pointers appear in error details. */
export function formatClaimsPath(path: readonly unknown[]): string {
  return JSON.stringify(path);
}

/** A JSON object: neither an array nor a class instance (Date, Uint8Array, Map …). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function isArrayIndex(component: unknown): component is number {
  return typeof component === "number" && Number.isSafeInteger(component) && component >= 0;
}

function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return isJsonObject(value) ? "an object" : "a non-JSON object";
  return `a ${typeof value}`;
}

/** Processes a claims path pointer over a JSON-based credential per §7.1. */
export function processClaimsPath(
  document: unknown,
  path: readonly ClaimsPathComponent[],
  options: ClaimsPathOptions = {},
): ClaimsPathResult {
  if (!Array.isArray(path) || path.length === 0) return { ok: false, error: "claims path pointer must be non-empty" };
  let selected: unknown[] = [document];
  for (let i = 0; i < path.length; i++) {
    const component = path[i];
    const at = () => formatClaimsPath(path.slice(0, i + 1));
    if (typeof component === "string") {
      const next: unknown[] = [];
      for (const element of selected) {
        if (!isJsonObject(element)) {
          return { ok: false, error: `${at()}: key '${component}' applied to ${describeType(element)}` };
        }
        if (Object.hasOwn(element, component)) next.push(element[component]);
      }
      selected = next;
    } else if (component === null || isArrayIndex(component)) {
      const everyElement = component === null || options.indexMatchesAnyElement === true;
      const next: unknown[] = [];
      for (const element of selected) {
        if (!Array.isArray(element)) {
          const what = component === null ? "null" : `index ${component}`;
          return { ok: false, error: `${at()}: ${what} applied to ${describeType(element)}` };
        }
        if (everyElement) next.push(...element);
        else if (component !== null && component < element.length) next.push(element[component]);
      }
      selected = next;
    } else {
      return { ok: false, error: `${at()}: invalid component ${JSON.stringify(component) ?? String(component)}` };
    }
  }
  if (selected.length === 0) return { ok: false, error: `${formatClaimsPath(path)}: selects nothing` };
  return { ok: true, selected };
}

/**
 * The elements a claims path pointer selects in a JSON-based credential (§7.1), in document order; `[]` when
 * processing aborts with an error (a component meeting an element of the wrong type, or nothing selected).
 */
export function selectByClaimsPath(document: unknown, path: (string | number | null)[]): unknown[] {
  const result = processClaimsPath(document, path);
  return result.ok ? result.selected : [];
}

/**
 * Processes a claims path pointer over an mdoc per §7.2; `namespaces` is `{namespace: {element identifier: value}}`.
 * Selects the one data element value.
 */
export function processMdocClaimsPath(namespaces: unknown, path: readonly ClaimsPathComponent[]): ClaimsPathResult {
  const [namespace, element] = path;
  if (path.length !== 2 || typeof namespace !== "string" || typeof element !== "string") {
    return { ok: false, error: `${formatClaimsPath(path)}: an mdoc pointer is [namespace, data element identifier]` };
  }
  if (!isJsonObject(namespaces) || !Object.hasOwn(namespaces, namespace) || !isJsonObject(namespaces[namespace])) {
    return { ok: false, error: `${formatClaimsPath(path)}: namespace '${namespace}' not present` };
  }
  const elements = namespaces[namespace] as Record<string, unknown>;
  if (!Object.hasOwn(elements, element)) {
    return { ok: false, error: `${formatClaimsPath(path)}: data element '${element}' not present` };
  }
  return { ok: true, selected: [elements[element]] };
}
