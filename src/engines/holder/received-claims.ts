import type { Claim } from "../../domain/credential.js";
import type { ClaimSchema } from "../../domain/credential-schema.js";
import type { ClaimDescription } from "./openid4vci/issuer-metadata.js";

/**
 * How a wallet describes a credential it received: a claim schema tree derived from the values (strings → STRING,
 * numbers → NUMBER, booleans → BOOLEAN, objects → OBJECT with nested claims, arrays → `array: true` typed by their
 * first element) completed by the claim paths the issuer metadata declares (OpenID4VCI 1.0 Appendix B.2), and the
 * flat claim rows (`address/street`, `nationalities/0`, values as strings) pointing into that tree.
 */

export interface ClaimSchemaFactory {
  newId(): string;
  now: Date;
}

/** A claim name as a schema key: `/` separates path segments, so `/` and `%` are percent-encoded. */
export function claimKey(name: string): string {
  return name.replaceAll("%", "%25").replaceAll("/", "%2F");
}

type Datatype = "STRING" | "NUMBER" | "BOOLEAN" | "OBJECT";

function datatypeOf(value: unknown): Datatype | undefined {
  if (typeof value === "string") return "STRING";
  if (typeof value === "number") return "NUMBER";
  if (typeof value === "boolean") return "BOOLEAN";
  if (isObject(value)) return "OBJECT";
  if (Array.isArray(value)) return "STRING"; // nested arrays are stored as JSON text
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function cloneTree(nodes: readonly ClaimSchema[]): ClaimSchema[] {
  return nodes.map((node) => ({ ...node, claims: cloneTree(node.claims) }));
}

/**
 * `existing` extended so every received claim and every claim the metadata declares has a node. Existing nodes keep
 * their datatype; `changed` tells whether anything was added or made required.
 */
export function mergeClaimSchemas(
  existing: readonly ClaimSchema[],
  claims: Record<string, unknown>,
  declared: readonly ClaimDescription[],
  factory: ClaimSchemaFactory,
): { claims: ClaimSchema[]; changed: boolean } {
  const tree = cloneTree(existing);
  let changed = false;

  function node(nodes: ClaimSchema[], key: string, datatype: Datatype, array: boolean): ClaimSchema {
    let found = nodes.find((candidate) => candidate.key === key);
    if (!found) {
      found = {
        id: factory.newId(),
        key,
        datatype,
        required: false,
        array,
        claims: [],
        createdDate: factory.now,
        lastModified: factory.now,
      };
      nodes.push(found);
      changed = true;
    }
    return found;
  }

  // disclosure order is random: new nodes follow the metadata's claim order, then the claim names' order
  const rank = new Map<string, number>();
  declared.forEach((description, index) => {
    const names = description.path.filter((segment): segment is string => typeof segment === "string");
    for (let length = 1; length <= names.length; length++) {
      const prefix = names.slice(0, length).join("/");
      if (!rank.has(prefix)) rank.set(prefix, index);
    }
  });
  const ordered = (object: Record<string, unknown>, parent: string): [string, unknown][] => {
    const rankOf = (name: string) => rank.get(parent ? `${parent}/${name}` : name) ?? Number.MAX_SAFE_INTEGER;
    return Object.entries(object).sort(([a], [b]) => rankOf(a) - rankOf(b) || (a < b ? -1 : a > b ? 1 : 0));
  };

  function addValue(nodes: ClaimSchema[], name: string, value: unknown, parent: string): void {
    const array = Array.isArray(value);
    const items = array ? (value as unknown[]) : [value];
    const sample = items.find((item) => item !== null && item !== undefined);
    const datatype = datatypeOf(sample);
    if (datatype === undefined && !array) return;
    const target = node(nodes, claimKey(name), datatype ?? "STRING", array);
    if (target.datatype !== "OBJECT") return;
    const path = parent ? `${parent}/${name}` : name;
    for (const item of items) {
      if (!isObject(item)) continue;
      for (const [childName, childValue] of ordered(item, path)) addValue(target.claims, childName, childValue, path);
    }
  }

  function addDeclared(description: ClaimDescription): void {
    const { path } = description;
    let nodes = tree;
    for (let index = 0; index < path.length; index++) {
      const segment = path[index];
      if (typeof segment !== "string") continue; // an array position (null = every element, or an index)
      const rest = path.slice(index + 1);
      const array = rest.length > 0 && typeof rest[0] !== "string";
      const isLeaf = !rest.some((later) => typeof later === "string");
      const target = node(nodes, claimKey(segment), isLeaf ? "STRING" : "OBJECT", array);
      if (isLeaf) {
        if (description.mandatory === true && !target.required) {
          target.required = true;
          changed = true;
        }
        return;
      }
      nodes = target.claims;
    }
  }

  for (const [name, value] of ordered(claims, "")) addValue(tree, name, value, "");
  for (const description of declared) addDeclared(description);
  return { claims: tree, changed };
}

/** The claim rows of `claims`: one per leaf value, on the node of `schema` its path names. */
export function flattenClaims(
  schema: readonly ClaimSchema[],
  claims: Record<string, unknown>,
  newId: () => string,
): Claim[] {
  const rows: Claim[] = [];

  function leaf(node: ClaimSchema, path: string, value: unknown): void {
    if (value === null || value === undefined) return;
    if (node.datatype === "OBJECT" && isObject(value)) {
      for (const [name, child] of Object.entries(value)) {
        const childNode = node.claims.find((candidate) => candidate.key === claimKey(name));
        if (childNode) visit(childNode, `${path}/${childNode.key}`, child);
      }
      return;
    }
    const text = typeof value === "string" ? value : JSON.stringify(value);
    rows.push({ id: newId(), claimSchemaId: node.id, path, value: text });
  }

  function visit(node: ClaimSchema, path: string, value: unknown): void {
    if (node.array && Array.isArray(value)) {
      for (const [index, item] of value.entries()) leaf(node, `${path}/${index}`, item);
      return;
    }
    leaf(node, path, value);
  }

  for (const [name, value] of Object.entries(claims)) {
    const node = schema.find((candidate) => candidate.key === claimKey(name));
    if (node) visit(node, node.key, value);
  }
  return rows;
}
