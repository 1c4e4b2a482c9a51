import { z } from "zod";
import type { KeyAlgorithmType } from "../../domain/enums.js";
import type { Key } from "../../domain/key.js";
import { CredkitError } from "../../errors/credkit-error.js";
import type { PrivateJwk } from "../../ports/key-algorithm.js";
import type { Page } from "../../ports/storage.js";
import { getKeyAlgorithm, getKeyStorage } from "../../providers/registry.js";
import type { CallContext } from "../common/call-context.js";
import { UNSCOPED } from "../common/call-context.js";
import type { EngineDeps } from "../common/engine-deps.js";
import { requireActiveOrganisation, requireInScope, resolveTargetOrganisation } from "../common/organisation-scope.js";
import { parseId } from "../common/parse-id.js";
import { parseInput } from "../common/parse-input.js";
import { recordHistory } from "../history/record-history.js";
import { buildListQuery, inFilter, listInputSchema } from "../list/list-input.js";
import { generateCsrInputSchema, generateKeyCsr } from "./key-csr.js";
import { type KeyDetailDto, type KeyListItemDto, toKeyDetail, toKeyListItem } from "./key-dto.js";

/** POST /api/key/v1 body (reference §3.2). `storageParams.jwk` imports a private JWK instead of generating. */
export const createKeyInputSchema = z
  .object({
    organisationId: z.uuid().optional(),
    keyType: z.string().min(1),
    keyParams: z.record(z.string(), z.unknown()),
    name: z.string().min(1).max(255),
    storageType: z.string().min(1),
    storageParams: z.object({ jwk: z.record(z.string(), z.unknown()).optional() }).strict(),
  })
  .strict();
export type CreateKeyInput = z.input<typeof createKeyInputSchema>;

export const KEY_SORT_COLUMNS = ["name", "createdDate", "publicKey", "keyType", "storageType"] as const;

/** GET /api/key/v1 query (reference §6). */
export const listKeysInputSchema = listInputSchema({
  sort: KEY_SORT_COLUMNS,
  exact: ["name"],
  extra: {
    organisationId: z.uuid().optional(),
    keyTypes: z.array(z.string()).optional(),
    keyStorages: z.array(z.string()).optional(),
    isRemote: z.boolean().optional(),
  },
});
export type ListKeysInput = z.input<typeof listKeysInputSchema>;

export interface KeyService {
  create(input: CreateKeyInput, context?: CallContext): Promise<{ id: string }>;
  get(id: string, context?: CallContext): Promise<KeyDetailDto>;
  list(input: ListKeysInput, context?: CallContext): Promise<Page<KeyListItemDto>>;
  /** POST /api/key/v1/{id}/generate-csr: a PKCS#10 request signed by the key (see generateKeyCsr) */
  generateCsr(id: string, input: unknown, context?: CallContext): Promise<{ content: string }>;
  /** the stored entity, scoped like get (for other engines) */
  load(id: string, context?: CallContext): Promise<Key>;
}

export function createKeyService(deps: EngineDeps): KeyService {
  const { storage, providers, clock } = deps;

  async function load(id: string, context: CallContext = UNSCOPED): Promise<Key> {
    return requireInScope(context, await storage.keys.get(parseId(id, "BR_0037")), "BR_0037", id);
  }

  return {
    async create(rawInput, context = UNSCOPED) {
      const input = parseInput(createKeyInputSchema, rawInput);
      const organisationId = resolveTargetOrganisation(context, input.organisationId);
      const algorithm = getKeyAlgorithm(providers, input.keyType);
      const keyStorage = getKeyStorage(providers, input.storageType);
      if (!keyStorage.capabilities.algorithms.includes(algorithm.type)) {
        throw new CredkitError("BR_0041", `key storage ${input.storageType} does not support ${input.keyType}`);
      }
      await requireActiveOrganisation(storage, organisationId);
      const id = deps.newId();
      const keyType = algorithm.type as KeyAlgorithmType;
      let material: Awaited<ReturnType<typeof keyStorage.generate>>;
      if (input.storageParams.jwk !== undefined) {
        if (!keyStorage.capabilities.features.includes("IMPORT")) {
          throw new CredkitError("BR_0361", `key storage ${input.storageType} cannot import keys`);
        }
        material = await keyStorage.importPrivateJwk(id, keyType, input.storageParams.jwk as PrivateJwk);
      } else {
        material = await keyStorage.generate(id, keyType);
      }
      const now = clock.now();
      const key: Key = {
        id,
        organisationId,
        name: input.name,
        keyType,
        storageType: input.storageType,
        publicKey: material.publicKey,
        keyReference: material.keyReference,
        isRemote: false,
        createdDate: now,
        lastModified: now,
      };
      await storage.transaction(async (tx) => {
        await tx.keys.insert(key);
        await recordHistory(deps, tx, context, {
          action: "CREATED",
          entityType: "KEY",
          entityId: id,
          name: key.name,
          organisationId,
        });
      });
      return { id };
    },

    async get(id, context) {
      return toKeyDetail(await load(id, context));
    },

    async list(rawInput, context = UNSCOPED) {
      const input = parseInput(listKeysInputSchema, rawInput);
      const organisationId = resolveTargetOrganisation(context, input.organisationId);
      const page = await storage.keys.list(
        buildListQuery(input, {
          sortColumns: {},
          conditions: [
            { op: "eq", column: "organisationId", value: organisationId },
            inFilter("keyType", input.keyTypes),
            inFilter("storageType", input.keyStorages),
            input.isRemote === undefined ? undefined : { op: "eq", column: "isRemote", value: input.isRemote },
          ],
        }),
      );
      return { ...page, values: page.values.map(toKeyListItem) };
    },

    async generateCsr(id, rawInput, context = UNSCOPED) {
      const input = parseInput(generateCsrInputSchema, rawInput);
      const key = await load(id, context);
      const csr = await generateKeyCsr(providers, key, input);
      await recordHistory(deps, storage, context, {
        action: "CSR_GENERATED",
        entityType: "KEY",
        entityId: key.id,
        name: key.name,
        organisationId: key.organisationId,
      });
      return csr;
    },

    load,
  };
}
