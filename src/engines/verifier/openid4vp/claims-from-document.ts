import type { Claim } from "../../../domain/credential.js";
import type { ClaimSchema } from "../../../domain/credential-schema.js";

function asString(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return undefined;
}

/**
 * Flattens a disclosed claims document into claim rows of a credential schema (`address/street`, `nationalities/0`);
 * members the schema does not describe are ignored.
 */
export function claimsFromDocument(
  schemas: readonly ClaimSchema[],
  document: Record<string, unknown>,
  newId: () => string,
): Claim[] {
  const out: Claim[] = [];
  const visit = (schema: ClaimSchema, value: unknown, path: string) => {
    if (schema.claims.length > 0) {
      if (typeof value !== "object" || value === null || Array.isArray(value)) return;
      for (const child of schema.claims) {
        const childValue = (value as Record<string, unknown>)[child.key];
        if (childValue !== undefined) walk(child, childValue, `${path}/${child.key}`);
      }
      return;
    }
    const text = asString(value);
    if (text !== undefined) out.push({ id: newId(), claimSchemaId: schema.id, path, value: text });
  };
  const walk = (schema: ClaimSchema, value: unknown, path: string) => {
    if (schema.array && Array.isArray(value)) {
      for (const [index, item] of value.entries()) visit(schema, item, `${path}/${index}`);
      return;
    }
    visit(schema, value, path);
  };
  for (const schema of schemas) {
    const value = document[schema.key];
    if (value !== undefined) walk(schema, value, schema.key);
  }
  return out;
}
