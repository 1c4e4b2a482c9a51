import { z } from "zod";
import { CERTIFICATE_ROLES, IDENTIFIER_STATES, IDENTIFIER_TYPES } from "../../domain/enums.js";
import type { Certificate, Identifier } from "../../domain/identifier.js";
import type { Key } from "../../domain/key.js";
import { CredkitError } from "../../errors/credkit-error.js";
import type { Condition, Page } from "../../ports/storage.js";
import type { CallContext } from "../common/call-context.js";
import { UNSCOPED } from "../common/call-context.js";
import type { EngineDeps } from "../common/engine-deps.js";
import { requireActiveOrganisation, requireInScope, resolveTargetOrganisation } from "../common/organisation-scope.js";
import { parseId } from "../common/parse-id.js";
import { parseInput } from "../common/parse-input.js";
import { recordHistory } from "../history/record-history.js";
import { buildListQuery, inFilter, listInputSchema } from "../list/list-input.js";
import type { CertificateService } from "./certificate-service.js";
import type { DidService } from "./did-service.js";
import { identifierDidInputSchema } from "./did-service.js";
import { certificateAuthorityInputSchema, certificateInputSchema } from "./identifier-certificates.js";
import {
  type IdentifierDetailDto,
  type IdentifierListItemDto,
  toIdentifierDetail,
  toIdentifierListItem,
} from "./identifier-dto.js";
import {
  identifierTrustInformationInputSchema,
  validateIdentifierTrustInformation,
} from "./identifier-trust-information.js";

/** POST /api/identifier/v1 (reference §3.3): exactly one of did / key / certificates (BR_0206). */
export const createIdentifierInputSchema = z
  .object({
    name: z.string().min(1).max(255),
    organisationId: z.uuid().optional(),
    did: identifierDidInputSchema.optional(),
    key: z.object({ keyId: z.uuid() }).strict().optional(),
    /** deprecated top-level form of key.keyId */
    keyId: z.uuid().optional(),
    /** type CERTIFICATE (see identifier-certificates.ts) */
    certificates: z.array(certificateInputSchema).optional(),
    /** type CA */
    certificateAuthorities: z.array(certificateAuthorityInputSchema).optional(),
    trustInformation: identifierTrustInformationInputSchema.optional(),
  })
  .strict();
export type CreateIdentifierInput = z.input<typeof createIdentifierInputSchema>;

export const listIdentifiersInputSchema = listInputSchema({
  sort: ["name", "createdDate", "type", "state"],
  exact: ["name"],
  extra: {
    organisationId: z.uuid().optional(),
    types: z.array(z.enum(IDENTIFIER_TYPES)).optional(),
    states: z.array(z.enum(IDENTIFIER_STATES)).optional(),
    didMethods: z.array(z.string()).optional(),
    isRemote: z.boolean().optional(),
    keyAlgorithms: z.array(z.string()).optional(),
    keyRoles: z.array(z.string()).optional(),
    keyStorages: z.array(z.string()).optional(),
    /** identifiers with a certificate of these roles (certificateRolesMatchMode ANY, the default, or ALL) */
    certificateRoles: z.array(z.enum(CERTIFICATE_ROLES)).optional(),
    certificateRolesMatchMode: z.enum(["ANY", "ALL"]).optional(),
  },
});
export type ListIdentifiersInput = z.input<typeof listIdentifiersInputSchema>;

export interface IdentifierService {
  create(input: CreateIdentifierInput, context?: CallContext): Promise<{ id: string }>;
  get(id: string, context?: CallContext): Promise<IdentifierDetailDto>;
  list(input: ListIdentifiersInput, context?: CallContext): Promise<Page<IdentifierListItemDto>>;
  delete(id: string, context?: CallContext): Promise<void>;
  /** the stored entity, scoped like get, active and not deleted (for other engines) */
  load(id: string, context?: CallContext): Promise<Identifier>;
}

const notDeleted: Condition = { op: "isNull", column: "deletedAt" };

/** Identifiers with a certificate carrying any (ANY) or every (ALL) of `roles` (stored as a JSON array of names). */
function certificateRolesCondition(roles: readonly string[] | undefined, mode: "ANY" | "ALL" = "ANY") {
  if (roles === undefined) return undefined;
  const has = roles.map((role): Condition => ({ op: "contains", column: "roles", value: JSON.stringify(role) }));
  return {
    op: "exists",
    table: "certificate",
    on: { identifierId: "id" },
    where: { op: mode === "ALL" ? "and" : "or", conditions: has },
  } satisfies Condition;
}

export function createIdentifierService(
  deps: EngineDeps,
  dids: DidService,
  certificates: Pick<CertificateService, "prepare" | "insert" | "ofIdentifier">,
): IdentifierService {
  const { storage, clock } = deps;

  async function load(id: string, context: CallContext = UNSCOPED): Promise<Identifier> {
    const identifier = await storage.identifiers.get(parseId(id, "BR_0207"));
    return requireInScope(context, identifier?.deletedAt ? undefined : identifier, "BR_0207", id);
  }

  /** Keys reachable from an identifier: its own key or its DID's keys. */
  function keyCondition(where: Condition): Condition {
    return {
      op: "or",
      conditions: [
        { op: "exists", table: "key", on: { id: "keyId" }, where },
        {
          op: "exists",
          table: "did_key",
          on: { didId: "didId" },
          where: { op: "exists", table: "key", on: { id: "keyId" }, where },
        },
      ],
    };
  }

  return {
    async create(rawInput, context = UNSCOPED) {
      const input = parseInput(createIdentifierInputSchema, rawInput);
      const keyId = input.key?.keyId ?? input.keyId;
      const variants = [
        input.did !== undefined,
        keyId !== undefined,
        input.certificates !== undefined,
        input.certificateAuthorities !== undefined,
      ];
      if (variants.filter(Boolean).length !== 1 || (input.key && input.keyId)) {
        throw new CredkitError("BR_0206", "give exactly one of did, key, certificates or certificateAuthorities");
      }
      const organisationId = resolveTargetOrganisation(context, input.organisationId);
      await requireActiveOrganisation(storage, organisationId);
      const id = deps.newId();
      const now = clock.now();
      // checked before the transaction: a refused attestation stores nothing
      const trustInformation =
        input.trustInformation === undefined
          ? undefined
          : validateIdentifierTrustInformation(input.trustInformation, now);
      await storage.transaction(async (tx) => {
        const base = {
          id,
          organisationId,
          name: input.name,
          state: "ACTIVE" as const,
          isRemote: false,
          ...(trustInformation !== undefined && { trustInformation }),
          createdDate: now,
          lastModified: now,
        };
        let identifier: Identifier;
        let certificateRows: Certificate[] = [];
        if (input.did) {
          const did = await dids.insertDid(
            tx,
            context,
            { ...input.did, name: input.did.name ?? input.name },
            organisationId,
          );
          identifier = { ...base, type: "DID", didId: did.id };
        } else if (input.certificates || input.certificateAuthorities) {
          const type = input.certificates ? "CERTIFICATE" : "CA";
          const entries = input.certificates ?? input.certificateAuthorities ?? [];
          certificateRows = await certificates.prepare(tx, { identifierId: id, organisationId, type, entries });
          identifier = { ...base, type };
        } else {
          const key = await tx.keys.get(keyId!);
          if (!key || key.organisationId !== organisationId)
            throw new CredkitError("BR_0037", `key ${keyId} not found`);
          identifier = { ...base, type: "KEY", keyId: key.id };
        }
        await tx.identifiers.insert(identifier);
        await certificates.insert(tx, context, certificateRows);
        await recordHistory(deps, tx, context, {
          action: "CREATED",
          entityType: "IDENTIFIER",
          entityId: id,
          name: input.name,
          organisationId,
        });
      });
      return { id };
    },

    async get(id, context = UNSCOPED) {
      const identifier = await load(id, context);
      const did = identifier.didId ? await storage.dids.get(identifier.didId) : undefined;
      const key = identifier.keyId ? await storage.keys.get(identifier.keyId) : undefined;
      const keyIds = did ? [...new Set(did.keys.map((k) => k.keyId))] : [];
      const keys = new Map<string, Key>(
        keyIds.length === 0
          ? []
          : (await storage.keys.findMany({ op: "in", column: "id", values: keyIds })).map((k) => [k.id, k]),
      );
      const certificateDtos =
        identifier.type === "CERTIFICATE" || identifier.type === "CA"
          ? await certificates.ofIdentifier(identifier.id)
          : undefined;
      return toIdentifierDetail(identifier, {
        ...(did && { did }),
        ...(key && { key }),
        keys,
        ...(certificateDtos && { certificates: certificateDtos }),
      });
    },

    async list(rawInput, context = UNSCOPED) {
      const input = parseInput(listIdentifiersInputSchema, rawInput);
      const organisationId = resolveTargetOrganisation(context, input.organisationId);
      const keyFilters = [inFilter("keyType", input.keyAlgorithms), inFilter("storageType", input.keyStorages)].filter(
        (c): c is Condition => c !== undefined,
      );
      const page = await storage.identifiers.list(
        buildListQuery(input, {
          sortColumns: {},
          conditions: [
            { op: "eq", column: "organisationId", value: organisationId },
            notDeleted,
            inFilter("type", input.types),
            inFilter("state", input.states),
            input.isRemote === undefined ? undefined : { op: "eq", column: "isRemote", value: input.isRemote },
            input.didMethods
              ? { op: "exists", table: "did", on: { id: "didId" }, where: inFilter("method", input.didMethods) }
              : undefined,
            keyFilters.length > 0 ? keyCondition({ op: "and", conditions: keyFilters }) : undefined,
            input.keyRoles
              ? {
                  op: "exists",
                  table: "did_key",
                  on: { didId: "didId" },
                  where: { op: "in", column: "role", values: input.keyRoles },
                }
              : undefined,
            certificateRolesCondition(input.certificateRoles, input.certificateRolesMatchMode),
          ],
        }),
      );
      return { ...page, values: page.values.map(toIdentifierListItem) };
    },

    async delete(id, context = UNSCOPED) {
      const identifier = await load(id, context);
      const now = clock.now();
      await storage.transaction(async (tx) => {
        const deleted = await tx.identifiers.update(id, { deletedAt: now, lastModified: now }, { where: notDeleted });
        if (!deleted) throw new CredkitError("BR_0207", `identifier ${id} not found`);
        await recordHistory(deps, tx, context, {
          action: "DELETED",
          entityType: "IDENTIFIER",
          entityId: id,
          name: identifier.name,
          organisationId: identifier.organisationId,
        });
      });
    },

    load,
  };
}
