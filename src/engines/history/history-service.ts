import { z } from "zod";
import { HISTORY_ACTIONS, HISTORY_ENTITY_TYPES, HISTORY_SOURCES } from "../../domain/enums.js";
import type { HistoryEvent } from "../../domain/history.js";
import { CredkitError } from "../../errors/credkit-error.js";
import type { Condition, Page } from "../../ports/storage.js";
import type { CallContext } from "../common/call-context.js";
import { UNSCOPED } from "../common/call-context.js";
import type { EngineDeps } from "../common/engine-deps.js";
import { requireInScope, resolveTargetOrganisation } from "../common/organisation-scope.js";
import { parseId } from "../common/parse-id.js";
import { parseInput } from "../common/parse-input.js";
import { buildListQuery, inFilter, listInputSchema } from "../list/list-input.js";
import { type HistoryDetailDto, type HistoryListItemDto, toHistoryDetail, toHistoryListItem } from "./history-dto.js";

export const HISTORY_SEARCH_TYPES = [
  "CLAIM_NAME",
  "CLAIM_VALUE",
  "CREDENTIAL_SCHEMA_NAME",
  "ENTITY_NAME",
  "USER",
] as const;

/** GET /api/history/v1 query (reference §3.9) */
export const listHistoryInputSchema = listInputSchema({
  sort: ["createdDate", "action", "entityType", "source", "user", "organisationId"],
  exact: ["name"],
  extra: {
    organisationId: z.uuid().optional(),
    organisationIds: z.array(z.uuid()).optional(),
    entityTypes: z.array(z.enum(HISTORY_ENTITY_TYPES)).optional(),
    entityIds: z.array(z.uuid()).optional(),
    actions: z.array(z.enum(HISTORY_ACTIONS)).optional(),
    identifierId: z.uuid().optional(),
    credentialId: z.uuid().optional(),
    proofId: z.uuid().optional(),
    credentialSchemaId: z.uuid().optional(),
    proofSchemaId: z.uuid().optional(),
    users: z.array(z.string()).optional(),
    sources: z.array(z.enum(HISTORY_SOURCES)).optional(),
    showSystemHistory: z.boolean().optional(),
    searchText: z.string().min(1).optional(),
    searchType: z.array(z.enum(HISTORY_SEARCH_TYPES)).optional(),
  },
}).omit({ lastModifiedAfter: true, lastModifiedBefore: true }); // history events have no lastModified
export type ListHistoryInput = z.input<typeof listHistoryInputSchema>;

/** POST /api/history/v1 (only with app.enableHistoryCreateEndpoint): other services push their events */
export const createHistoryInputSchema = z
  .object({
    action: z.enum(HISTORY_ACTIONS),
    name: z.string().min(1),
    entityId: z.uuid().optional(),
    entityType: z.enum(HISTORY_ENTITY_TYPES),
    organisationId: z.uuid().optional(),
    source: z.enum(["BRIDGE", "STS", "WRPR", "BFF"]),
    target: z.string().optional(),
    metadata: z.unknown().optional(),
  })
  .strict();
export type CreateHistoryInput = z.input<typeof createHistoryInputSchema>;

export interface HistoryService {
  list(input: ListHistoryInput, context?: CallContext): Promise<Page<HistoryListItemDto>>;
  get(id: string, context?: CallContext): Promise<HistoryDetailDto>;
  create(input: CreateHistoryInput, context?: CallContext): Promise<{ id: string }>;
}

export function createHistoryService(deps: EngineDeps): HistoryService {
  const { storage } = deps;

  return {
    async list(rawInput, context = UNSCOPED) {
      const input = parseInput(listHistoryInputSchema, rawInput);
      if (input.name !== undefined && input.searchText !== undefined) {
        throw new CredkitError("BR_0084", "name cannot be combined with searchText");
      }
      const organisations = input.organisationIds ?? (input.organisationId ? [input.organisationId] : undefined);
      let scope: Condition | undefined;
      if (context.organisationId !== undefined) {
        if (organisations?.some((o) => o !== context.organisationId)) {
          throw new CredkitError("BR_0178", "organisationId differs from the caller's organisation");
        }
        scope = { op: "eq", column: "organisationId", value: context.organisationId };
      } else if (organisations) {
        scope = { op: "in", column: "organisationId", values: organisations };
      } else if (!input.showSystemHistory) {
        scope = { op: "eq", column: "organisationId", value: resolveTargetOrganisation(context, undefined) };
      }
      const related = [
        input.identifierId,
        input.credentialId,
        input.proofId,
        input.credentialSchemaId,
        input.proofSchemaId,
      ].filter((id): id is string => id !== undefined);
      const search = input.searchText;
      const searchColumns = !search
        ? []
        : (input.searchType ?? HISTORY_SEARCH_TYPES).flatMap((t) =>
            t === "USER" ? ["user"] : t === "ENTITY_NAME" || t === "CREDENTIAL_SCHEMA_NAME" ? ["name"] : [],
          );
      const page = await storage.history.list(
        buildListQuery(input, {
          sortColumns: {},
          conditions: [
            scope,
            inFilter("entityType", input.entityTypes),
            inFilter("entityId", input.entityIds ?? (related.length > 0 ? related : undefined)),
            inFilter("action", input.actions),
            inFilter("user", input.users),
            inFilter("source", input.sources),
            search
              ? {
                  op: "or",
                  conditions: [...new Set(searchColumns)].map((column) => ({
                    op: "contains" as const,
                    column,
                    value: search,
                  })),
                }
              : undefined,
          ],
        }),
      );
      return { ...page, values: page.values.map(toHistoryListItem) };
    },

    async get(id, context = UNSCOPED) {
      const event = await storage.history.get(parseId(id, "BR_0100"));
      return toHistoryDetail(requireInScope(context, event, "BR_0100", id));
    },

    async create(rawInput, context = UNSCOPED) {
      const input = parseInput(createHistoryInputSchema, rawInput);
      const organisationId =
        context.organisationId !== undefined
          ? resolveTargetOrganisation(context, input.organisationId)
          : input.organisationId;
      const event: HistoryEvent = {
        id: deps.newId(),
        createdDate: deps.clock.now(),
        action: input.action,
        name: input.name,
        entityType: input.entityType,
        source: input.source,
        ...(input.entityId !== undefined && { entityId: input.entityId }),
        ...(organisationId !== undefined && { organisationId }),
        ...(input.target !== undefined && { target: input.target }),
        ...(input.metadata !== undefined && { metadata: { External: input.metadata } }),
        ...(context.user !== undefined && { user: context.user }),
        ...(context.actor !== undefined && { actor: context.actor }),
      };
      await storage.history.insert(event);
      return { id: event.id };
    },
  };
}
