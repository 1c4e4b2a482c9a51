import { z } from "zod";
import type { CredkitConfig } from "../../config/schema.js";
import type { ClaimSchema, CredentialSchema } from "../../domain/credential-schema.js";
import { KEY_STORAGE_SECURITY_LEVELS, LAYOUT_TYPES, TRANSACTION_CODE_TYPES } from "../../domain/enums.js";
import { CredkitError } from "../../errors/credkit-error.js";
import type { Condition, Page } from "../../ports/storage.js";
import type { CallContext } from "../common/call-context.js";
import { UNSCOPED } from "../common/call-context.js";
import type { EngineDeps } from "../common/engine-deps.js";
import { requireActiveOrganisation, requireInScope, resolveTargetOrganisation } from "../common/organisation-scope.js";
import { parseId } from "../common/parse-id.js";
import { parseInput } from "../common/parse-input.js";
import { recordHistory } from "../history/record-history.js";
import { buildListQuery, inFilter, listInputSchema, textFilter } from "../list/list-input.js";
import {
  type CredentialSchemaDetailDto,
  type CredentialSchemaListItemDto,
  toCredentialSchemaDetail,
  toCredentialSchemaListItem,
} from "./credential-schema-dto.js";

export interface ClaimInput {
  key: string;
  datatype: string;
  required: boolean;
  array?: boolean;
  claims?: ClaimInput[];
}

const claimInputSchema: z.ZodType<ClaimInput> = z.lazy(() =>
  z
    .object({
      key: z.string().min(1),
      datatype: z.string().min(1),
      required: z.boolean(),
      array: z.boolean().optional(),
      claims: z.array(claimInputSchema).optional(),
    })
    .strict(),
);

const layoutPropertiesSchema = z
  .object({
    background: z.object({ color: z.string().optional(), image: z.string().optional() }).strict().optional(),
    logo: z
      .object({
        fontColor: z.string().optional(),
        backgroundColor: z.string().optional(),
        image: z.string().optional(),
      })
      .strict()
      .optional(),
    primaryAttribute: z.string().optional(),
    secondaryAttribute: z.string().optional(),
    pictureAttribute: z.string().optional(),
    code: z
      .object({ attribute: z.string(), type: z.enum(["BARCODE", "MRZ", "QR_CODE"]) })
      .strict()
      .optional(),
  })
  .strict();

/** POST /api/credential-schema/v1 (reference §3.4) */
export const createCredentialSchemaInputSchema = z
  .object({
    name: z.string().min(1).max(255),
    format: z.string().min(1),
    revocationMethod: z.string().min(1).optional(),
    organisationId: z.uuid().optional(),
    claims: z.array(claimInputSchema).min(1),
    keyStorageSecurity: z.enum(KEY_STORAGE_SECURITY_LEVELS).optional(),
    layoutType: z.enum(LAYOUT_TYPES).optional(),
    layoutProperties: layoutPropertiesSchema.optional(),
    schemaId: z.string().min(1).max(1024).optional(),
    allowSuspension: z.boolean().optional(),
    /** deprecated and ignored */
    externalSchema: z.boolean().optional(),
    requiresWalletInstanceAttestation: z.boolean().optional(),
    transactionCode: z
      .object({
        type: z.enum(TRANSACTION_CODE_TYPES),
        length: z.number().int().min(4).max(10),
        description: z.string().max(300).optional(),
      })
      .strict()
      .optional(),
  })
  .strict();
export type CreateCredentialSchemaInput = z.input<typeof createCredentialSchemaInputSchema>;

export const listCredentialSchemasInputSchema = listInputSchema({
  sort: ["name", "format", "createdDate"],
  exact: ["name", "schemaId"],
  extra: {
    organisationId: z.uuid().optional(),
    schemaId: z.string().optional(),
    formats: z.array(z.string()).optional(),
    requiresWalletInstanceAttestation: z.boolean().optional(),
    keySecurityLevels: z.array(z.enum(KEY_STORAGE_SECURITY_LEVELS)).optional(),
    include: z.array(z.enum(["layoutProperties"])).optional(),
  },
});
export type ListCredentialSchemasInput = z.input<typeof listCredentialSchemasInputSchema>;

/** POST /api/credential-schema/v1/import: a schema as shared at /ssi/schema/v1/{id} */
export const importCredentialSchemaInputSchema = z
  .object({ organisationId: z.uuid().optional(), schema: z.record(z.string(), z.unknown()) })
  .strict();
export type ImportCredentialSchemaInput = z.input<typeof importCredentialSchemaInputSchema>;

export interface CredentialSchemaService {
  create(input: CreateCredentialSchemaInput, context?: CallContext): Promise<{ id: string }>;
  get(id: string, context?: CallContext): Promise<CredentialSchemaDetailDto>;
  list(input: ListCredentialSchemasInput, context?: CallContext): Promise<Page<CredentialSchemaListItemDto>>;
  delete(id: string, context?: CallContext): Promise<void>;
  share(id: string, context?: CallContext): Promise<{ url: string }>;
  import(input: ImportCredentialSchemaInput, context?: CallContext): Promise<{ id: string }>;
  /** the shared document served at /ssi/schema/v1/{id} (public) */
  sharedDocument(id: string): Promise<CredentialSchemaDetailDto>;
  /** stored entity, scoped, not deleted */
  load(id: string, context?: CallContext): Promise<CredentialSchema>;
}

const CONTAINER_TYPES = new Set(["OBJECT"]);

function datatypeOf(config: CredkitConfig, datatype: string): string {
  const entry = config.datatype[datatype];
  if (!entry?.enabled) throw new CredkitError("BR_0061", `datatype ${datatype} is not configured`);
  return entry.type;
}

/** Checks a claims tree (keys, datatypes, nesting) and gives it ids (reference §3.4: BR_0108, BR_0126, BR_0117). */
function buildClaimSchemas(
  deps: EngineDeps,
  config: CredkitConfig,
  inputs: readonly ClaimInput[],
  now: Date,
  format: string,
  depth = 0,
): ClaimSchema[] {
  const seen = new Set<string>();
  return inputs.map((input) => {
    if (input.key.includes("/")) throw new CredkitError("BR_0108", `claim key "${input.key}" contains a slash`);
    if (input.key.length > 255) throw new CredkitError("BR_0126", `claim key "${input.key.slice(0, 32)}…" is too long`);
    if (seen.has(input.key))
      throw new CredkitError("BR_0084", `claim key "${input.key}" appears twice at the same level`);
    seen.add(input.key);
    const type = datatypeOf(config, input.datatype);
    const nested = input.claims ?? [];
    if (!CONTAINER_TYPES.has(type) && nested.length > 0) {
      throw new CredkitError("BR_0084", `claim "${input.key}" of datatype ${input.datatype} cannot have nested claims`);
    }
    if (CONTAINER_TYPES.has(type) && nested.length === 0) {
      throw new CredkitError("BR_0008", `object claim "${input.key}" needs nested claims`);
    }
    if (depth === 0 && format === "MDOC" && type !== "OBJECT") {
      throw new CredkitError("BR_0117", `mdoc root claim "${input.key}" must be an OBJECT (namespace)`);
    }
    return {
      id: deps.newId(),
      key: input.key,
      datatype: input.datatype,
      required: input.required,
      array: input.array ?? false,
      claims: buildClaimSchemas(deps, config, nested, now, format, depth + 1),
      createdDate: now,
      lastModified: now,
    };
  });
}

export function createCredentialSchemaService(deps: EngineDeps, config: CredkitConfig): CredentialSchemaService {
  const { storage, clock } = deps;

  async function load(id: string, context: CallContext = UNSCOPED): Promise<CredentialSchema> {
    const schema = await storage.credentialSchemas.get(parseId(id, "BR_0006"));
    return requireInScope(context, schema?.deletedAt ? undefined : schema, "BR_0006", id);
  }

  async function create(rawInput: CreateCredentialSchemaInput, context: CallContext, importedFrom?: string) {
    const input = parseInput(createCredentialSchemaInputSchema, rawInput);
    const organisationId = resolveTargetOrganisation(context, input.organisationId);
    const format = config.format[input.format];
    if (!format?.enabled) throw new CredkitError("BR_0089", `format ${input.format} is not configured`);
    if (input.revocationMethod !== undefined) {
      const method = config.revocation[input.revocationMethod];
      if (!method?.enabled)
        throw new CredkitError("BR_0089", `revocation method ${input.revocationMethod} is not configured`);
    }
    if (input.allowSuspension && input.revocationMethod === undefined) {
      throw new CredkitError("BR_0162", "suspension needs a revocation method that supports it");
    }
    await requireActiveOrganisation(storage, organisationId);
    const id = deps.newId();
    const now = clock.now();
    const claims = buildClaimSchemas(deps, config, input.claims, now, format.type);
    const schemaId =
      input.schemaId ?? (format.type === "MDOC" ? id : `${deps.baseUrl}/ssi/vct/v1/${organisationId}/${id}`);
    const schema: CredentialSchema = {
      id,
      organisationId,
      name: input.name,
      format: input.format,
      ...(input.revocationMethod !== undefined && { revocationMethod: input.revocationMethod }),
      schemaId,
      importedSourceUrl: importedFrom ?? `${deps.baseUrl}/ssi/schema/v1/${id}`,
      claims,
      ...(input.keyStorageSecurity !== undefined && { keyStorageSecurity: input.keyStorageSecurity }),
      layoutType: input.layoutType ?? "CARD",
      ...(input.layoutProperties !== undefined && { layoutProperties: input.layoutProperties }),
      allowSuspension: input.allowSuspension ?? false,
      requiresWalletInstanceAttestation: input.requiresWalletInstanceAttestation ?? false,
      ...(input.transactionCode !== undefined && { transactionCode: input.transactionCode }),
      createdDate: now,
      lastModified: now,
    };
    await storage.transaction(async (tx) => {
      await tx.credentialSchemas.insert(schema);
      await recordHistory(deps, tx, context, {
        action: importedFrom ? "IMPORTED" : "CREATED",
        entityType: "CREDENTIAL_SCHEMA",
        entityId: id,
        name: schema.name,
        organisationId,
      });
    });
    return { id };
  }

  return {
    create: (input, context = UNSCOPED) => create(input, context),

    async get(id, context = UNSCOPED) {
      return toCredentialSchemaDetail(await load(id, context));
    },

    async list(rawInput, context = UNSCOPED) {
      const input = parseInput(listCredentialSchemasInputSchema, rawInput);
      const organisationId = resolveTargetOrganisation(context, input.organisationId);
      const page = await storage.credentialSchemas.list(
        buildListQuery(input, {
          sortColumns: {},
          conditions: [
            { op: "eq", column: "organisationId", value: organisationId },
            { op: "isNull", column: "deletedAt" } satisfies Condition,
            textFilter("schemaId", input.schemaId, input.exact),
            inFilter("format", input.formats),
            inFilter("keyStorageSecurity", input.keySecurityLevels),
            input.requiresWalletInstanceAttestation === undefined
              ? undefined
              : {
                  op: "eq",
                  column: "requiresWalletInstanceAttestation",
                  value: input.requiresWalletInstanceAttestation,
                },
          ],
        }),
      );
      const includeLayout = input.include?.includes("layoutProperties") ?? false;
      return { ...page, values: page.values.map((s) => toCredentialSchemaListItem(s, includeLayout)) };
    },

    async delete(id, context = UNSCOPED) {
      const schema = await load(id, context);
      const now = clock.now();
      await storage.transaction(async (tx) => {
        const deleted = await tx.credentialSchemas.update(
          id,
          { deletedAt: now, lastModified: now },
          { where: { op: "isNull", column: "deletedAt" } },
        );
        if (!deleted) throw new CredkitError("BR_0006", `credential schema ${id} not found`);
        await recordHistory(deps, tx, context, {
          action: "DELETED",
          entityType: "CREDENTIAL_SCHEMA",
          entityId: id,
          name: schema.name,
          organisationId: schema.organisationId,
        });
      });
    },

    async share(id, context = UNSCOPED) {
      const schema = await load(id, context);
      await storage.transaction((tx) =>
        recordHistory(deps, tx, context, {
          action: "SHARED",
          entityType: "CREDENTIAL_SCHEMA",
          entityId: id,
          name: schema.name,
          organisationId: schema.organisationId,
        }),
      );
      return { url: `${deps.baseUrl}/ssi/schema/v1/${id}` };
    },

    async import(rawInput, context = UNSCOPED) {
      const input = parseInput(importCredentialSchemaInputSchema, rawInput);
      const shared = input.schema as Record<string, unknown>;
      const toClaimInput = (claim: Record<string, unknown>): ClaimInput => ({
        key: String(claim.key),
        datatype: String(claim.datatype),
        required: claim.required === true,
        array: claim.array === true,
        ...(Array.isArray(claim.claims) &&
          claim.claims.length > 0 && { claims: (claim.claims as Record<string, unknown>[]).map(toClaimInput) }),
      });
      if (!Array.isArray(shared.claims) || typeof shared.name !== "string" || typeof shared.format !== "string") {
        throw new CredkitError("BR_0084", "schema: name, format and claims are required");
      }
      const candidate = {
        name: shared.name,
        format: shared.format,
        ...(typeof shared.revocationMethod === "string" && { revocationMethod: shared.revocationMethod }),
        ...(input.organisationId !== undefined && { organisationId: input.organisationId }),
        claims: (shared.claims as Record<string, unknown>[]).map(toClaimInput),
        ...(typeof shared.schemaId === "string" && { schemaId: shared.schemaId }),
        ...(typeof shared.layoutType === "string" && { layoutType: shared.layoutType }),
        ...(shared.layoutProperties !== undefined && { layoutProperties: shared.layoutProperties }),
        ...(typeof shared.allowSuspension === "boolean" && { allowSuspension: shared.allowSuspension }),
        ...(typeof shared.requiresWalletInstanceAttestation === "boolean" && {
          requiresWalletInstanceAttestation: shared.requiresWalletInstanceAttestation,
        }),
        ...(shared.transactionCode !== undefined && { transactionCode: shared.transactionCode }),
      } as CreateCredentialSchemaInput;
      const source = typeof shared.importedSourceUrl === "string" ? shared.importedSourceUrl : undefined;
      return create(candidate, context, source ?? `${deps.baseUrl}/ssi/schema/v1/${String(shared.id ?? "")}`);
    },

    async sharedDocument(id) {
      return toCredentialSchemaDetail(await load(id));
    },

    load,
  };
}
