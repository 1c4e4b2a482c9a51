import { randomInt } from "node:crypto";
import type { Credential } from "../../domain/credential.js";
import type { RevocationList } from "../../domain/revocation-list.js";
import { CredkitError } from "../../errors/credkit-error.js";
import type { StorageRepositories } from "../../ports/storage.js";
import {
  CREDKIT_STATUS_LIST_BITS,
  createStatusList,
  createStatusListToken,
  setStatus,
  TOKEN_STATUS,
} from "../../providers/revocation/token-status-list/index.js";
import type { EngineDeps } from "../common/engine-deps.js";
import { parseId } from "../common/parse-id.js";
import { resolveIssuerSigning } from "./issuer-signing.js";

export type EntryStatus = "VALID" | "REVOKED" | "SUSPENDED";

const STATUS_VALUE: Record<EntryStatus, number> = {
  VALID: TOKEN_STATUS.VALID,
  REVOKED: TOKEN_STATUS.INVALID,
  SUSPENDED: TOKEN_STATUS.SUSPENDED,
};

export interface StatusListSettings {
  listSize: number;
  expiresIn: number;
}

export interface StatusListService {
  /** URI of a list, as put in credentials' `status.status_list.uri` */
  listUri(listId: string): string;
  /** gives the credential an entry in a list of its issuer (same transaction as the issuance) */
  allocate(
    tx: StorageRepositories,
    credential: Credential,
    revocationMethod: string,
  ): Promise<{ listId: string; index: number }>;
  /** sets the credential's entry (same transaction as its state change) */
  setCredentialStatus(tx: StorageRepositories, credentialId: string, status: EntryStatus): Promise<void>;
  /** the signed Status List Token served at /ssi/revocation/v1/list/{id} (cached until the list changes) */
  token(listId: string): Promise<string>;
}

const MAX_ALLOCATION_ATTEMPTS = 32;

/** Token Status List revocation (draft-ietf-oauth-status-list): lists per issuer identifier, random index allocation. */
export function createStatusListService(
  deps: EngineDeps,
  settings: (method: string) => StatusListSettings,
): StatusListService {
  const { clock } = deps;
  const cache = new Map<string, { version: number; token: string; expires: number }>();
  const listUri = (listId: string) => `${deps.baseUrl}/ssi/revocation/v1/list/${listId}`;

  async function openList(tx: StorageRepositories, credential: Credential, method: string): Promise<RevocationList> {
    const { listSize } = settings(method);
    const lists = await tx.revocationLists.findMany(
      {
        op: "and",
        conditions: [
          { op: "eq", column: "issuerIdentifierId", value: credential.issuerIdentifierId ?? "" },
          { op: "eq", column: "revocationMethod", value: method },
        ],
      },
      { orderBy: [{ column: "createdDate", direction: "DESC" }] },
    );
    // keep lists at most half full so random allocation stays cheap and indices stay unpredictable
    const open = lists.find((list) => list.allocated < list.size / 2);
    if (open) return open;
    const now = clock.now();
    const list: RevocationList = {
      id: deps.newId(),
      organisationId: credential.organisationId,
      issuerIdentifierId: credential.issuerIdentifierId ?? "",
      revocationMethod: method,
      bits: CREDKIT_STATUS_LIST_BITS,
      size: listSize,
      allocated: 0,
      createdDate: now,
      lastModified: now,
    };
    await tx.revocationLists.insert(list);
    return list;
  }

  return {
    listUri,

    async allocate(tx, credential, method) {
      const list = await openList(tx, credential, method);
      const now = clock.now();
      for (let attempt = 0; attempt < MAX_ALLOCATION_ATTEMPTS; attempt++) {
        const index = randomInt(list.size);
        const id = `${list.id}:${index}`;
        if (await tx.revocationEntries.get(id)) continue;
        await tx.revocationEntries.insert({
          id,
          listId: list.id,
          index,
          credentialId: credential.id,
          status: 0,
          createdDate: now,
          lastModified: now,
        });
        // an approximate fill level (concurrent allocations may under-count): it only decides when to open a new list
        await tx.revocationLists.update(list.id, { allocated: list.allocated + 1 });
        return { listId: list.id, index };
      }
      throw new CredkitError("BR_0049", `no free index found in status list ${list.id}`);
    },

    async setCredentialStatus(tx, credentialId, status) {
      const now = clock.now();
      const entries = await tx.revocationEntries.findMany({ op: "eq", column: "credentialId", value: credentialId });
      for (const entry of entries) {
        await tx.revocationEntries.update(entry.id, { status: STATUS_VALUE[status], lastModified: now });
        await tx.revocationLists.update(entry.listId, { lastModified: now });
      }
    },

    async token(listId) {
      const list = await deps.storage.revocationLists.get(parseId(listId, "BR_0034"));
      if (!list) throw new CredkitError("BR_0034", `status list ${listId} not found`);
      const now = clock.now();
      const version = list.lastModified.getTime();
      const cached = cache.get(listId);
      if (cached && cached.version === version && cached.expires > now.getTime() + 60_000) return cached.token;
      const entries = await deps.storage.revocationEntries.findMany({
        op: "and",
        conditions: [
          { op: "eq", column: "listId", value: listId },
          { op: "ne", column: "status", value: 0 },
        ],
      });
      const statuses = createStatusList(list.size, list.bits as 2);
      for (const entry of entries) setStatus(statuses, entry.index, entry.status);
      const identifier = await deps.storage.identifiers.get(list.issuerIdentifierId);
      if (!identifier) throw new CredkitError("BR_0207", `issuer of status list ${listId} not found`);
      const signing = await resolveIssuerSigning(deps, deps.storage, identifier, {
        keyIssuerUrl: `${deps.baseUrl}/ssi/revocation/v1/list/${listId}`,
      });
      const { expiresIn } = settings(list.revocationMethod);
      const expiresAt = new Date(now.getTime() + expiresIn * 1000);
      const token = await createStatusListToken({
        subject: listUri(listId),
        // KEY identifiers have no issuer URL of their own here: holders verify with the credential issuer's key
        ...(identifier.type === "DID" && { issuer: signing.issuer }),
        list: statuses,
        issuedAt: now,
        expiresAt,
        ttl: Math.min(expiresIn, 300),
        signer: signing.signer,
      });
      cache.set(listId, { version, token, expires: expiresAt.getTime() });
      return token;
    },
  };
}
