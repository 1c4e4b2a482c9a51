import { z } from "zod";
import type { ClaimSchema, CredentialSchema } from "../../domain/credential-schema.js";
import type { ProofCredentialSet, ProofInputSchema, ProofSchema } from "../../domain/proof-schema.js";
import { CredkitError } from "../../errors/credkit-error.js";
import type { Page } from "../../ports/storage.js";
import type { CallContext } from "../common/call-context.js";
import { UNSCOPED } from "../common/call-context.js";
import type { EngineDeps } from "../common/engine-deps.js";
import { requireActiveOrganisation, requireInScope, resolveTargetOrganisation } from "../common/organisation-scope.js";
import { parseId } from "../common/parse-id.js";
import { parseInput } from "../common/parse-input.js";
import { recordHistory } from "../history/record-history.js";
import {
  type CredentialSchemaListItemDto,
  flattenClaimSchemas,
  toCredentialSchemaListItem,
} from "../issuer/credential-schema-dto.js";
import type { CredentialSchemaService } from "../issuer/credential-schema-service.js";
import { buildListQuery, listInputSchema } from "../list/list-input.js";

/** POST /api/proof-schema/v1 (reference §3.5) */
export const createProofSchemaInputSchema = z
  .object({
    name: z.string().min(1).max(255),
    organisationId: z.uuid().optional(),
    expireDuration: z.number().int().min(0).max(4294967295).optional(),
    proofInputSchemas: z
      .array(
        z
          .object({
            credentialSchemaId: z.uuid(),
            claimSchemas: z.array(z.object({ id: z.uuid(), required: z.boolean() }).strict()).min(1),
          })
          .strict(),
      )
      .min(1),
    /**
     * credkit extension: alternatives between proof inputs (DCQL `credential_sets`). Each option lists credential
     * schema ids of proof inputs that together satisfy the set; `required: false` makes the whole set optional.
     */
    credentialSets: z
      .array(
        z
          .object({
            options: z.array(z.array(z.uuid()).min(1)).min(1),
            required: z.boolean().optional(),
          })
          .strict(),
      )
      .min(1)
      .optional(),
  })
  .strict();
export type CreateProofSchemaInput = z.input<typeof createProofSchemaInputSchema>;

export const listProofSchemasInputSchema = listInputSchema({
  sort: ["name", "createdDate"],
  exact: ["name"],
  extra: { organisationId: z.uuid().optional() },
});
export type ListProofSchemasInput = z.input<typeof listProofSchemasInputSchema>;

export const importProofSchemaInputSchema = z
  .object({ organisationId: z.uuid().optional(), schema: z.record(z.string(), z.unknown()) })
  .strict();
export type ImportProofSchemaInput = z.input<typeof importProofSchemaInputSchema>;

export interface ProofClaimSchemaDto {
  id: string;
  requested: boolean;
  required: boolean;
  key: string;
  dataType: string;
  claims: ProofClaimSchemaDto[];
  array: boolean;
}

export interface ProofSchemaListItemDto {
  id: string;
  createdDate: Date;
  lastModified: Date;
  deletedAt?: Date;
  name: string;
  expireDuration: number;
}

export interface ProofSchemaDetailDto extends Omit<ProofSchemaListItemDto, "deletedAt"> {
  importedSourceUrl?: string;
  organisationId: string;
  proofInputSchemas: { claimSchemas: ProofClaimSchemaDto[]; credentialSchema: CredentialSchemaListItemDto }[];
  /** credkit extension: alternatives between inputs, options as credential schema ids */
  credentialSets?: { options: string[][]; required: boolean }[];
}

/**
 * The stored form of `credentialSets`: options as proof input positions. Every id must name exactly one proof input
 * and no option may repeat an input (BR_0084).
 */
function toStoredCredentialSets(
  sets: readonly { options: string[][]; required?: boolean | undefined }[],
  inputs: readonly ProofInputSchema[],
): ProofCredentialSet[] {
  const orderOf = (credentialSchemaId: string): number => {
    const matches = inputs.filter((input) => input.credentialSchemaId === credentialSchemaId);
    if (matches.length !== 1) {
      throw new CredkitError(
        "BR_0084",
        matches.length === 0
          ? `credentialSets names ${credentialSchemaId}, which is not a proof input of this schema`
          : `credentialSets names ${credentialSchemaId}, which several proof inputs request: ambiguous`,
      );
    }
    return matches[0]!.order;
  };
  return sets.map((set, index) => ({
    options: set.options.map((option) => {
      const orders = option.map(orderOf);
      if (new Set(orders).size !== orders.length) {
        throw new CredkitError("BR_0084", `credentialSets[${index}] has an option naming one input twice`);
      }
      return orders;
    }),
    required: set.required ?? true,
  }));
}

export interface ProofSchemaService {
  create(input: CreateProofSchemaInput, context?: CallContext): Promise<{ id: string }>;
  get(id: string, context?: CallContext): Promise<ProofSchemaDetailDto>;
  list(input: ListProofSchemasInput, context?: CallContext): Promise<Page<ProofSchemaListItemDto>>;
  delete(id: string, context?: CallContext): Promise<void>;
  share(id: string, context?: CallContext): Promise<{ url: string }>;
  import(input: ImportProofSchemaInput, context?: CallContext): Promise<{ id: string }>;
  /** the document served at /ssi/proof-schema/v1/{id} */
  sharedDocument(id: string): Promise<ProofSchemaDetailDto>;
  load(id: string, context?: CallContext): Promise<ProofSchema>;
}

/** A requested claim schema with its nested claims (all requested when their parent is). */
function toProofClaimSchema(claim: ClaimSchema, required: boolean): ProofClaimSchemaDto {
  return {
    id: claim.id,
    requested: true,
    required,
    key: claim.key,
    dataType: claim.datatype,
    claims: claim.claims.map((child) => toProofClaimSchema(child, child.required)),
    array: claim.array,
  };
}

export function toProofSchemaListItem(schema: ProofSchema): ProofSchemaListItemDto {
  return {
    id: schema.id,
    createdDate: schema.createdDate,
    lastModified: schema.lastModified,
    ...(schema.deletedAt !== undefined && { deletedAt: schema.deletedAt }),
    name: schema.name,
    expireDuration: schema.expireDuration,
  };
}

export function createProofSchemaService(
  deps: EngineDeps,
  credentialSchemas: CredentialSchemaService,
): ProofSchemaService {
  const { storage, clock } = deps;

  async function load(id: string, context: CallContext = UNSCOPED): Promise<ProofSchema> {
    const schema = await storage.proofSchemas.get(parseId(id, "BR_0014"));
    return requireInScope(context, schema?.deletedAt ? undefined : schema, "BR_0014", id);
  }

  async function detail(schema: ProofSchema): Promise<ProofSchemaDetailDto> {
    const inputs = await Promise.all(
      schema.proofInputSchemas.map(async (input) => {
        const credentialSchema = await storage.credentialSchemas.get(input.credentialSchemaId);
        if (!credentialSchema)
          throw new CredkitError("BR_0006", `credential schema ${input.credentialSchemaId} not found`);
        const claims = new Map(flattenClaimSchemas(credentialSchema.claims).map((e) => [e.claim.id, e.claim]));
        return {
          claimSchemas: input.claimSchemas.map((c) => toProofClaimSchema(claims.get(c.claimSchemaId)!, c.required)),
          credentialSchema: toCredentialSchemaListItem(credentialSchema),
        };
      }),
    );
    const idOf = (order: number) =>
      schema.proofInputSchemas.find((input) => input.order === order)?.credentialSchemaId ?? "";
    return {
      ...toProofSchemaListItem(schema),
      ...(schema.importedSourceUrl !== undefined && { importedSourceUrl: schema.importedSourceUrl }),
      organisationId: schema.organisationId,
      proofInputSchemas: inputs,
      ...(schema.credentialSets && {
        credentialSets: schema.credentialSets.map((set) => ({
          options: set.options.map((option) => option.map(idOf)),
          required: set.required,
        })),
      }),
    };
  }

  async function create(rawInput: CreateProofSchemaInput, context: CallContext, importedFrom?: string) {
    const input = parseInput(createProofSchemaInputSchema, rawInput);
    const organisationId = resolveTargetOrganisation(context, input.organisationId);
    await requireActiveOrganisation(storage, organisationId);
    const proofInputSchemas: ProofInputSchema[] = [];
    for (const [order, proofInput] of input.proofInputSchemas.entries()) {
      let credentialSchema: CredentialSchema;
      try {
        credentialSchema = await credentialSchemas.load(proofInput.credentialSchemaId, { organisationId });
      } catch {
        throw new CredkitError("BR_0006", `credential schema ${proofInput.credentialSchemaId} not found`);
      }
      const claims = new Map(flattenClaimSchemas(credentialSchema.claims).map((e) => [e.claim.id, e]));
      const seen = new Set<string>();
      for (const claim of proofInput.claimSchemas) {
        if (!claims.has(claim.id))
          throw new CredkitError("BR_0010", `claim schema ${claim.id} is not part of ${credentialSchema.name}`);
        if (seen.has(claim.id)) throw new CredkitError("BR_0018", `claim schema ${claim.id} requested twice`);
        seen.add(claim.id);
      }
      if (!proofInput.claimSchemas.some((c) => c.required)) {
        throw new CredkitError("BR_0017", `proof input for ${credentialSchema.name} requests no required claim`);
      }
      proofInputSchemas.push({
        credentialSchemaId: credentialSchema.id,
        order,
        claimSchemas: proofInput.claimSchemas.map((c, i) => ({ claimSchemaId: c.id, required: c.required, order: i })),
      });
    }
    const credentialSets = input.credentialSets && toStoredCredentialSets(input.credentialSets, proofInputSchemas);
    const id = deps.newId();
    const now = clock.now();
    const schema: ProofSchema = {
      id,
      organisationId,
      name: input.name,
      expireDuration: input.expireDuration ?? 0,
      ...(importedFrom !== undefined && { importedSourceUrl: importedFrom }),
      proofInputSchemas,
      ...(credentialSets && { credentialSets }),
      createdDate: now,
      lastModified: now,
    };
    await storage.transaction(async (tx) => {
      await tx.proofSchemas.insert(schema);
      await recordHistory(deps, tx, context, {
        action: importedFrom ? "IMPORTED" : "CREATED",
        entityType: "PROOF_SCHEMA",
        entityId: id,
        name: schema.name,
        organisationId,
      });
    });
    return { id };
  }

  return {
    create: (input, context = UNSCOPED) => create(input, context),
    get: async (id, context = UNSCOPED) => detail(await load(id, context)),
    async list(rawInput, context = UNSCOPED) {
      const input = parseInput(listProofSchemasInputSchema, rawInput);
      const organisationId = resolveTargetOrganisation(context, input.organisationId);
      const page = await storage.proofSchemas.list(
        buildListQuery(input, {
          sortColumns: {},
          conditions: [
            { op: "eq", column: "organisationId", value: organisationId },
            { op: "isNull", column: "deletedAt" },
          ],
        }),
      );
      return { ...page, values: page.values.map(toProofSchemaListItem) };
    },
    async delete(id, context = UNSCOPED) {
      const schema = await load(id, context);
      const now = clock.now();
      await storage.transaction(async (tx) => {
        await tx.proofSchemas.update(id, { deletedAt: now, lastModified: now });
        await recordHistory(deps, tx, context, {
          action: "DELETED",
          entityType: "PROOF_SCHEMA",
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
          entityType: "PROOF_SCHEMA",
          entityId: id,
          name: schema.name,
          organisationId: schema.organisationId,
        }),
      );
      return { url: `${deps.baseUrl}/ssi/proof-schema/v1/${id}` };
    },
    async import(rawInput, context = UNSCOPED) {
      const input = parseInput(importProofSchemaInputSchema, rawInput);
      const shared = input.schema as {
        name?: unknown;
        expireDuration?: unknown;
        proofInputSchemas?: unknown;
        credentialSets?: unknown;
        importedSourceUrl?: unknown;
        id?: unknown;
      };
      if (typeof shared.name !== "string" || !Array.isArray(shared.proofInputSchemas)) {
        throw new CredkitError("BR_0084", "schema: name and proofInputSchemas are required");
      }
      // the document is another party's: entries that are not objects are refused before anything reads them
      const isObject = (value: unknown): value is Record<string, unknown> =>
        typeof value === "object" && value !== null && !Array.isArray(value);
      const objects = (value: unknown) => value === undefined || (Array.isArray(value) && value.every(isObject));
      if (
        !shared.proofInputSchemas.every((entry) => isObject(entry) && objects(entry.claimSchemas)) ||
        !objects(shared.credentialSets)
      ) {
        throw new CredkitError("BR_0084", "schema: proofInputSchemas / credentialSets entries must be objects");
      }
      const organisationId = resolveTargetOrganisation(context, input.organisationId);
      // map the shared credential schemas onto this organisation's schemas with the same schemaId
      const proofInputSchemas = [];
      /** shared credential schema id → this organisation's (credentialSets name inputs by credential schema id) */
      const localIds = new Map<string, string>();
      for (const entry of shared.proofInputSchemas as {
        credentialSchema?: { id?: string; schemaId?: string };
        claimSchemas?: { key: string; required: boolean }[];
      }[]) {
        const local = await storage.credentialSchemas.findOne({
          op: "and",
          conditions: [
            { op: "eq", column: "organisationId", value: organisationId },
            { op: "eq", column: "schemaId", value: String(entry.credentialSchema?.schemaId ?? "") },
            { op: "isNull", column: "deletedAt" },
          ],
        });
        if (!local)
          throw new CredkitError("BR_0006", `import the credential schema ${entry.credentialSchema?.schemaId} first`);
        // the shared document names a requested claim by its own key only (`street` for address/street): match a full
        // path first, then a key that occurs once anywhere in the schema
        const flat = flattenClaimSchemas(local.claims);
        const localClaim = (key: string) => {
          const byPath = flat.find((e) => e.path === key);
          if (byPath) return byPath.claim;
          const byKey = flat.filter((e) => e.claim.key === key);
          if (byKey.length === 1) return byKey[0]!.claim;
          throw new CredkitError(
            "BR_0010",
            `claim ${key} ${byKey.length > 1 ? "is ambiguous" : "not"} in ${local.name}`,
          );
        };
        if (typeof entry.credentialSchema?.id === "string") localIds.set(entry.credentialSchema.id, local.id);
        proofInputSchemas.push({
          credentialSchemaId: local.id,
          claimSchemas: (entry.claimSchemas ?? []).map((c) => ({
            id: localClaim(c.key).id,
            required: c.required === true,
          })),
        });
      }
      const source =
        typeof shared.importedSourceUrl === "string"
          ? shared.importedSourceUrl
          : `${deps.baseUrl}/ssi/proof-schema/v1/${String(shared.id ?? "")}`;
      return create(
        {
          name: shared.name,
          organisationId,
          ...(typeof shared.expireDuration === "number" && { expireDuration: shared.expireDuration }),
          proofInputSchemas,
          ...(Array.isArray(shared.credentialSets) && {
            credentialSets: (shared.credentialSets as { options?: unknown; required?: unknown }[]).map((set) => ({
              options: (Array.isArray(set.options) ? set.options : []).map((option: unknown) =>
                (Array.isArray(option) ? option : []).map((id: unknown) => localIds.get(String(id)) ?? String(id)),
              ),
              ...(typeof set.required === "boolean" && { required: set.required }),
            })),
          }),
        },
        context,
        source,
      );
    },
    sharedDocument: async (id) => detail(await load(id)),
    load,
  };
}
