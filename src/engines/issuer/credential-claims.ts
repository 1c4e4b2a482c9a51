import type { CredkitConfig } from "../../config/schema.js";
import type { Claim } from "../../domain/credential.js";
import type { ClaimSchema } from "../../domain/credential-schema.js";
import { CredkitError } from "../../errors/credkit-error.js";
import { type ClaimSchemaDto, toClaimSchemaDto } from "./credential-schema-dto.js";

/** A claim as shown in credential detail (reference §3.6): leaves carry typed values, containers nested claims. */
export interface ClaimDto {
  path: string;
  schema: ClaimSchemaDto;
  value: string | number | boolean | ClaimDto[];
}

type Datatype = (name: string) => string;

export function datatypeResolver(config: CredkitConfig): Datatype {
  return (name) => config.datatype[name]?.type ?? name;
}

function typedValue(type: string, value: string): string | number | boolean {
  if (type === "NUMBER") return Number(value);
  if (type === "BOOLEAN") return value === "true";
  return value;
}

function indicesUnder(prefixes: readonly string[], path: string): number[] {
  const found = new Set<number>();
  const pattern = `${path}/`;
  for (const key of prefixes) {
    if (!key.startsWith(pattern)) continue;
    const index = Number(key.slice(pattern.length).split("/")[0]);
    if (Number.isInteger(index) && index >= 0) found.add(index);
  }
  return [...found].sort((a, b) => a - b);
}

/** Builds the nested claim view of a credential from its flat claim rows and its schema tree. */
export function toClaimDtos(
  schemaClaims: readonly ClaimSchema[],
  claims: readonly Claim[],
  datatype: Datatype,
): ClaimDto[] {
  const values = new Map(claims.map((c) => [c.path, c.value]));
  const paths = [...values.keys()];
  const hasUnder = (path: string) => values.has(path) || paths.some((p) => p.startsWith(`${path}/`));

  const build = (schemas: readonly ClaimSchema[], prefix: string): ClaimDto[] =>
    schemas.flatMap((schema): ClaimDto[] => {
      const path = prefix ? `${prefix}/${schema.key}` : schema.key;
      const type = datatype(schema.datatype);
      const node = (at: string): ClaimDto | undefined => {
        if (type === "OBJECT") {
          return hasUnder(at)
            ? { path: at, schema: toClaimSchemaDto(schema), value: build(schema.claims, at) }
            : undefined;
        }
        const value = values.get(at);
        return value === undefined
          ? undefined
          : { path: at, schema: toClaimSchemaDto(schema), value: typedValue(type, value) };
      };
      if (schema.array) {
        const items = indicesUnder(paths, path)
          .map((i) => node(`${path}/${i}`))
          .filter((c): c is ClaimDto => c !== undefined);
        return items.length > 0 ? [{ path, schema: toClaimSchemaDto(schema), value: items }] : [];
      }
      const single = node(path);
      return single ? [single] : [];
    });

  return build(schemaClaims, "");
}

/** The credential's claims as a JSON object tree (what a format puts in the credential). */
export function toClaimObject(
  schemaClaims: readonly ClaimSchema[],
  claims: readonly Claim[],
  datatype: Datatype,
): Record<string, unknown> {
  const unwrap = (dtos: readonly ClaimDto[]): Record<string, unknown> =>
    Object.fromEntries(dtos.map((dto) => [dto.schema.key, toJson(dto)]));
  const toJson = (dto: ClaimDto): unknown => {
    if (!Array.isArray(dto.value)) return dto.value;
    if (dto.schema.array && dto.value.every((item) => /\/\d+$/.test(item.path))) {
      return dto.value.map((item) => (Array.isArray(item.value) ? unwrap(item.value) : item.value));
    }
    return unwrap(dto.value);
  };
  return unwrap(toClaimDtos(schemaClaims, claims, datatype));
}

const DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/;

/** Validates one claim value against its datatype and the datatype instance's params (BR_0061 on mismatch). */
export function validateClaimValue(config: CredkitConfig, schema: ClaimSchema, path: string, value: string): void {
  const entry = config.datatype[schema.datatype];
  const type = entry?.type ?? schema.datatype;
  const params = { ...entry?.params.public, ...entry?.params.private } as Record<string, unknown>;
  const fail = (why: string) => {
    throw new CredkitError("BR_0061", `${path}: ${why}`);
  };
  switch (type) {
    case "NUMBER": {
      if (value.trim() === "" || !Number.isFinite(Number(value))) fail(`"${value}" is not a number`);
      const n = Number(value);
      if (typeof params.min === "number" && n < params.min) fail(`must be >= ${params.min}`);
      if (typeof params.max === "number" && n > params.max) fail(`must be <= ${params.max}`);
      break;
    }
    case "BOOLEAN":
      if (value !== "true" && value !== "false") fail(`"${value}" is not true or false`);
      break;
    case "DATE":
      if (!DATE.test(value) || Number.isNaN(Date.parse(value))) fail(`"${value}" is not an ISO 8601 date`);
      break;
    case "OBJECT":
      fail("an object claim has no value of its own; give its nested claims");
      break;
    default: {
      if (typeof params.min === "number" && value.length < params.min)
        fail(`must be at least ${params.min} characters`);
      if (typeof params.max === "number" && value.length > params.max) fail(`must be at most ${params.max} characters`);
      if (typeof params.pattern === "string" && !new RegExp(params.pattern).test(value))
        fail(`does not match ${params.pattern}`);
    }
  }
}
