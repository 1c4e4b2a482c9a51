import { z } from "zod";
import type { Did, DidDocument, DidKey } from "../../domain/did.js";
import type { DidKeyRole, KeyAlgorithmType } from "../../domain/enums.js";
import type { Key } from "../../domain/key.js";
import { CredkitError } from "../../errors/credkit-error.js";
import type { DidCreateKey, DidMethod } from "../../ports/did-method.js";
import type { Page, StorageRepositories } from "../../ports/storage.js";
import { findDidMethodFor, getDidMethod } from "../../providers/registry.js";
import type { CallContext } from "../common/call-context.js";
import { UNSCOPED } from "../common/call-context.js";
import type { EngineDeps } from "../common/engine-deps.js";
import { requireActiveOrganisation, requireInScope, resolveTargetOrganisation } from "../common/organisation-scope.js";
import { parseId } from "../common/parse-id.js";
import { parseInput } from "../common/parse-input.js";
import { recordHistory } from "../history/record-history.js";
import { buildListQuery, inFilter, listInputSchema, textFilter } from "../list/list-input.js";
import {
  DID_KEY_FIELDS,
  type DidDetailDto,
  type DidKeyField,
  type DidListItemDto,
  toDidDetail,
  toDidListItem,
} from "./did-dto.js";

const keyIds = z.array(z.uuid());
/** `keys` of a DID create: all five role arrays (reference §3.3) */
export const didKeysInputSchema = z
  .object({
    authentication: keyIds,
    assertionMethod: keyIds,
    keyAgreement: keyIds,
    capabilityInvocation: keyIds,
    capabilityDelegation: keyIds,
  })
  .strict();

/** the `did` variant of POST /api/identifier/v1 */
export const identifierDidInputSchema = z
  .object({
    name: z.string().min(1).max(255).optional(),
    method: z.string().min(1),
    keys: didKeysInputSchema,
    params: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

/** POST /api/did/v1 (deprecated upstream in favour of identifiers, still served) */
export const createDidInputSchema = identifierDidInputSchema
  .extend({ name: z.string().min(1).max(255), organisationId: z.uuid().optional() })
  .strict();
export type CreateDidInput = z.input<typeof createDidInputSchema>;

/** PATCH /api/did/v1/{id} */
export const updateDidInputSchema = z.object({ deactivated: z.boolean().optional() }).strict();
export type UpdateDidInput = z.input<typeof updateDidInputSchema>;

const DID_KEY_ROLES_INPUT = [
  "AUTHENTICATION",
  "ASSERTION_METHOD",
  "KEY_AGREEMENT",
  "CAPABILITY_INVOCATION",
  "CAPABILITY_DELEGATION",
  "UPDATE_KEY",
] as const;

export const listDidsInputSchema = listInputSchema({
  sort: ["name", "createdDate", "method", "type", "did", "deactivated"],
  exact: ["name", "did"],
  extra: {
    organisationId: z.uuid().optional(),
    did: z.string().optional(),
    type: z.enum(["LOCAL", "REMOTE"]).optional(),
    deactivated: z.boolean().optional(),
    didMethods: z.array(z.string()).optional(),
    keyAlgorithms: z.array(z.string()).optional(),
    keyRoles: z.array(z.enum(DID_KEY_ROLES_INPUT)).optional(),
    keyStorages: z.array(z.string()).optional(),
    keyIds: z.array(z.uuid()).optional(),
  },
});
export type ListDidsInput = z.input<typeof listDidsInputSchema>;

export interface DidService {
  create(input: CreateDidInput, context?: CallContext): Promise<{ id: string }>;
  get(id: string, context?: CallContext): Promise<DidDetailDto>;
  list(input: ListDidsInput, context?: CallContext): Promise<Page<DidListItemDto>>;
  update(id: string, input: UpdateDidInput, context?: CallContext): Promise<void>;
  /** resolves any DID through the enabled methods (GET /api/did-resolver/v1/{didValue}) */
  resolve(did: string): Promise<DidDocument>;
  /** DID document of a DID hosted here (did:web), undefined when unknown or deactivated */
  localDocument(did: string): Promise<DidDocument | undefined>;
  /** the did.json served at /ssi/did-web/v1/{id}/did.json */
  webDocument(id: string): Promise<DidDocument>;
  /** inserts a DID inside an ongoing transaction (identifier creation); returns the stored entity */
  insertDid(
    tx: StorageRepositories,
    context: CallContext,
    input: z.output<typeof identifierDidInputSchema> & { name: string },
    organisationId: string,
  ): Promise<Did>;
}

interface WebDocumentBuilder {
  buildDocument(did: string, keys: Partial<Record<DidKeyRole, DidCreateKey[]>>): DidDocument;
}

function canBuildDocuments(method: DidMethod): method is DidMethod & WebDocumentBuilder {
  return typeof (method as Partial<WebDocumentBuilder>).buildDocument === "function";
}

export function createDidService(deps: EngineDeps): DidService {
  const { storage, providers, clock } = deps;

  async function loadKeys(repositories: StorageRepositories, did: Did): Promise<Map<string, Key>> {
    const ids = [...new Set(did.keys.map((k) => k.keyId))];
    const keys = ids.length === 0 ? [] : await repositories.keys.findMany({ op: "in", column: "id", values: ids });
    return new Map(keys.map((k) => [k.id, k]));
  }

  function keysByRole(did: Did, keys: Map<string, Key>): Partial<Record<DidKeyRole, DidCreateKey[]>> {
    const byRole: Partial<Record<DidKeyRole, DidCreateKey[]>> = {};
    for (const entry of did.keys) {
      const key = keys.get(entry.keyId);
      if (!key) continue;
      const list = byRole[entry.role] ?? [];
      byRole[entry.role] = list;
      list.push({
        keyId: key.id,
        keyType: key.keyType as KeyAlgorithmType,
        publicKey: key.publicKey,
      });
    }
    return byRole;
  }

  async function documentOf(did: Did): Promise<DidDocument | undefined> {
    const method = providers.didMethods.get(did.method);
    if (!method || !canBuildDocuments(method)) return undefined;
    return method.buildDocument(did.did, keysByRole(did, await loadKeys(storage, did)));
  }

  async function insertDid(
    tx: StorageRepositories,
    context: CallContext,
    input: z.output<typeof identifierDidInputSchema> & { name: string },
    organisationId: string,
  ): Promise<Did> {
    const method = getDidMethod(providers, input.method);
    if (!method.capabilities.operations.includes("CREATE")) {
      throw new CredkitError("BR_0365", `DID method ${input.method} cannot create DIDs`);
    }
    const requested = [...new Set(Object.values(input.keys).flat())];
    const found = requested.length === 0 ? [] : await tx.keys.findMany({ op: "in", column: "id", values: requested });
    const keys = new Map(found.filter((k) => k.organisationId === organisationId).map((k) => [k.id, k]));
    const missing = requested.find((id) => !keys.has(id));
    if (missing) throw new CredkitError("BR_0037", `key ${missing} not found`);
    const id = deps.newId();
    const byRole = {} as Record<DidKeyRole, DidCreateKey[]>;
    for (const [field, role] of Object.entries(DID_KEY_FIELDS) as [DidKeyField, DidKeyRole][]) {
      byRole[role] = input.keys[field].map((keyId) => {
        const key = keys.get(keyId)!;
        if (!method.capabilities.keyAlgorithms.includes(key.keyType as KeyAlgorithmType)) {
          throw new CredkitError("BR_0065", `DID method ${input.method} does not support ${key.keyType} keys`);
        }
        return { keyId, keyType: key.keyType as KeyAlgorithmType, publicKey: key.publicKey };
      });
    }
    const createInput = { id, keys: byRole, params: input.params ?? {} };
    method.validateKeys?.(createInput);
    const created = await method.create(createInput);
    const didKeys: DidKey[] = [];
    for (const [role, entries] of Object.entries(byRole) as [DidKeyRole, DidCreateKey[]][]) {
      for (const entry of entries)
        didKeys.push({ role, keyId: entry.keyId, reference: created.references[entry.keyId] ?? "" });
    }
    const now = clock.now();
    const did: Did = {
      id,
      organisationId,
      name: input.name,
      did: created.did,
      type: "LOCAL",
      method: input.method,
      deactivated: false,
      keys: didKeys,
      createdDate: now,
      lastModified: now,
    };
    await tx.dids.insert(did);
    await recordHistory(deps, tx, context, {
      action: "CREATED",
      entityType: "DID",
      entityId: id,
      name: did.name,
      organisationId,
    });
    return did;
  }

  async function load(id: string, context: CallContext): Promise<Did> {
    return requireInScope(context, await storage.dids.get(parseId(id, "BR_0024")), "BR_0024", id);
  }

  return {
    async create(rawInput, context = UNSCOPED) {
      const input = parseInput(createDidInputSchema, rawInput);
      const organisationId = resolveTargetOrganisation(context, input.organisationId);
      await requireActiveOrganisation(storage, organisationId);
      const did = await storage.transaction((tx) => insertDid(tx, context, input, organisationId));
      return { id: did.id };
    },

    async get(id, context = UNSCOPED) {
      const did = await load(id, context);
      return toDidDetail(did, await loadKeys(storage, did));
    },

    async list(rawInput, context = UNSCOPED) {
      const input = parseInput(listDidsInputSchema, rawInput);
      const organisationId = resolveTargetOrganisation(context, input.organisationId);
      const keyConditions = [
        inFilter(
          "role",
          input.keyRoles?.filter((r) => r !== "UPDATE_KEY"),
        ),
        inFilter("keyId", input.keyIds),
        input.keyAlgorithms || input.keyStorages
          ? {
              op: "exists" as const,
              table: "key",
              on: { id: "keyId" },
              where: {
                op: "and" as const,
                conditions: [
                  inFilter("keyType", input.keyAlgorithms),
                  inFilter("storageType", input.keyStorages),
                ].filter((c) => c !== undefined),
              },
            }
          : undefined,
      ].filter((c) => c !== undefined);
      const page = await storage.dids.list(
        buildListQuery(input, {
          sortColumns: {},
          conditions: [
            { op: "eq", column: "organisationId", value: organisationId },
            textFilter("did", input.did, input.exact),
            input.type === undefined ? undefined : { op: "eq", column: "type", value: input.type },
            input.deactivated === undefined ? undefined : { op: "eq", column: "deactivated", value: input.deactivated },
            inFilter("method", input.didMethods),
            keyConditions.length > 0
              ? { op: "exists", table: "did_key", on: { didId: "id" }, where: { op: "and", conditions: keyConditions } }
              : undefined,
          ],
        }),
      );
      return { ...page, values: page.values.map(toDidListItem) };
    },

    async update(id, rawInput, context = UNSCOPED) {
      const input = parseInput(updateDidInputSchema, rawInput);
      const did = await load(id, context);
      if (input.deactivated === undefined || input.deactivated === did.deactivated) return;
      if (!input.deactivated) throw new CredkitError("BR_0256", "a deactivated DID cannot be reactivated");
      if (did.type === "REMOTE") throw new CredkitError("BR_0029", "remote DIDs cannot be deactivated");
      const method = getDidMethod(providers, did.method);
      if (!method.capabilities.operations.includes("DEACTIVATE")) {
        throw new CredkitError("BR_0029", `DID method ${did.method} does not support deactivation`);
      }
      const now = clock.now();
      await storage.transaction(async (tx) => {
        await tx.dids.update(id, { deactivated: true, lastModified: now });
        // identifiers built on this DID follow it (reference §8: identifier ACTIVE/DEACTIVATED)
        await tx.identifiers.updateMany(
          { op: "eq", column: "didId", value: id },
          { state: "DEACTIVATED", lastModified: now },
        );
        await recordHistory(deps, tx, context, {
          action: "DEACTIVATED",
          entityType: "DID",
          entityId: id,
          name: did.name,
          organisationId: did.organisationId,
        });
      });
    },

    async resolve(didValue) {
      const [, method] = findDidMethodFor(providers, didValue);
      return method.resolve(didValue);
    },

    async localDocument(didValue) {
      const did = await storage.dids.findOne({
        op: "and",
        conditions: [
          { op: "eq", column: "did", value: didValue },
          { op: "eq", column: "type", value: "LOCAL" },
          { op: "eq", column: "deactivated", value: false },
        ],
      });
      return did ? documentOf(did) : undefined;
    },

    async webDocument(id) {
      const did = await storage.dids.get(parseId(id, "BR_0024"));
      const document = did && did.type === "LOCAL" && !did.deactivated ? await documentOf(did) : undefined;
      if (!document) throw new CredkitError("BR_0024", `DID ${id} not found`);
      return document;
    },

    insertDid,
  };
}
