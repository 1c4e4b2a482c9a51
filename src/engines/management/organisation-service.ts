import { z } from "zod";
import type { Organisation } from "../../domain/organisation.js";
import { CredkitError } from "../../errors/credkit-error.js";
import type { Page, StorageRepositories } from "../../ports/storage.js";
import type { CallContext } from "../common/call-context.js";
import { UNSCOPED } from "../common/call-context.js";
import type { EngineDeps } from "../common/engine-deps.js";
import { parseId } from "../common/parse-id.js";
import { parseInput } from "../common/parse-input.js";
import { recordHistory } from "../history/record-history.js";
import { buildListQuery, listInputSchema } from "../list/list-input.js";
import { type OrganisationDto, toOrganisationDto } from "./organisation-dto.js";

/** letters, digits and hyphens (spec §8) */
export const organisationSlugSchema = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[A-Za-z0-9-]+$/, "slug must contain only letters, digits and hyphens");

/** POST /api/organisation/v1 (and /api/sts/organisation/v1 with slug) */
export const createOrganisationInputSchema = z
  .object({
    id: z.uuid().optional(),
    name: z.string().min(1).max(255).optional(),
    slug: organisationSlugSchema.optional(),
  })
  .strict();
export type CreateOrganisationInput = z.input<typeof createOrganisationInputSchema>;

/** PATCH /api/organisation/v1/{id} (upsert) and /api/sts/organisation/v1/{id} */
export const updateOrganisationInputSchema = z
  .object({
    name: z.string().min(1).max(255).optional(),
    slug: organisationSlugSchema.optional(),
    deactivate: z.boolean().optional(),
    walletProvider: z.string().min(1).nullable().optional(),
    walletProviderIssuer: z.uuid().nullable().optional(),
  })
  .strict();
export type UpdateOrganisationInput = z.input<typeof updateOrganisationInputSchema>;

export const listOrganisationsInputSchema = listInputSchema({
  sort: ["name", "createdDate"],
  exact: ["name"],
  extra: {},
});
export type ListOrganisationsInput = z.input<typeof listOrganisationsInputSchema>;

export interface OrganisationService {
  create(input: CreateOrganisationInput, context?: CallContext): Promise<{ id: string }>;
  get(id: string, context?: CallContext): Promise<OrganisationDto>;
  list(input: ListOrganisationsInput, context?: CallContext): Promise<Page<OrganisationDto>>;
  /** upsert: creates the organisation with this id when it does not exist */
  update(id: string, input: UpdateOrganisationInput, context?: CallContext): Promise<void>;
}

export function createOrganisationService(deps: EngineDeps): OrganisationService {
  const { storage, clock } = deps;

  function requireOwn(context: CallContext, id: string) {
    if (context.organisationId !== undefined && context.organisationId !== id) {
      throw new CredkitError("BR_0022", `organisation ${id} not found`);
    }
  }

  async function insert(tx: StorageRepositories, context: CallContext, organisation: Organisation) {
    await tx.organisations.insert(organisation);
    await recordHistory(deps, tx, context, {
      action: "CREATED",
      entityType: "ORGANISATION",
      entityId: organisation.id,
      name: organisation.name,
      organisationId: organisation.id,
    });
  }

  return {
    async create(rawInput, context = UNSCOPED) {
      const input = parseInput(createOrganisationInputSchema, rawInput);
      const id = input.id ?? deps.newId();
      const now = clock.now();
      await storage.transaction((tx) =>
        insert(tx, context, {
          id,
          name: input.name ?? id,
          ...(input.slug !== undefined && { slug: input.slug }),
          createdDate: now,
          lastModified: now,
        }),
      );
      return { id };
    },

    async get(id, context = UNSCOPED) {
      parseId(id, "BR_0022");
      requireOwn(context, id);
      const organisation = await storage.organisations.get(id);
      if (!organisation) throw new CredkitError("BR_0022", `organisation ${id} not found`);
      return toOrganisationDto(organisation);
    },

    async list(rawInput, context = UNSCOPED) {
      const input = parseInput(listOrganisationsInputSchema, rawInput);
      const page = await storage.organisations.list(
        buildListQuery(input, {
          sortColumns: {},
          conditions: [
            context.organisationId === undefined
              ? undefined
              : { op: "eq", column: "id", value: context.organisationId },
          ],
        }),
      );
      return { ...page, values: page.values.map(toOrganisationDto) };
    },

    async update(id, rawInput, context = UNSCOPED) {
      parseId(id, "BR_0022");
      requireOwn(context, id);
      const input = parseInput(updateOrganisationInputSchema, rawInput);
      if (input.walletProviderIssuer) {
        const issuer = await storage.identifiers.get(input.walletProviderIssuer);
        if (!issuer || issuer.organisationId !== id) {
          throw new CredkitError("BR_0207", `identifier ${input.walletProviderIssuer} not found`);
        }
      }
      const now = clock.now();
      await storage.transaction(async (tx) => {
        const existing = await tx.organisations.get(id);
        const patch: Partial<Organisation> = { lastModified: now };
        if (input.name !== undefined) patch.name = input.name;
        if (input.slug !== undefined) patch.slug = input.slug;
        if (input.deactivate !== undefined) {
          patch.deactivatedAt = input.deactivate ? (existing?.deactivatedAt ?? now) : undefined;
        }
        if (input.walletProvider !== undefined) patch.walletProvider = input.walletProvider ?? undefined;
        if (input.walletProviderIssuer !== undefined)
          patch.walletProviderIssuer = input.walletProviderIssuer ?? undefined;
        if (!existing) {
          const created = { id, name: id, createdDate: now, lastModified: now, ...patch } as Organisation;
          for (const [field, value] of Object.entries(created)) {
            if (value === undefined) delete (created as unknown as Record<string, unknown>)[field];
          }
          await insert(tx, context, created);
          return;
        }
        await tx.organisations.update(id, patch);
        const action =
          input.deactivate === true && existing.deactivatedAt === undefined
            ? "DEACTIVATED"
            : input.deactivate === false && existing.deactivatedAt !== undefined
              ? "REACTIVATED"
              : "UPDATED";
        await recordHistory(deps, tx, context, {
          action,
          entityType: "ORGANISATION",
          entityId: id,
          name: patch.name ?? existing.name,
          organisationId: id,
        });
      });
    },
  };
}
