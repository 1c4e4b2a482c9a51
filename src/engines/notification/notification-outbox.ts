import type { CredkitConfig } from "../../config/schema.js";
import type { Credential } from "../../domain/credential.js";
import {
  CREDENTIAL_NOTIFICATION_STATES,
  type Notification,
  type NotificationEntityType,
  PROOF_NOTIFICATION_STATES,
} from "../../domain/notification.js";
import type { Proof } from "../../domain/proof.js";
import type { Clock } from "../../ports/clock.js";
import type { Condition, Repository, Storage } from "../../ports/storage.js";
import { webhookTaskOf } from "./webhook-settings.js";

export interface NotificationOutboxOptions {
  config: CredkitConfig;
  clock: Clock;
  newId: () => string;
  /** told the ids of notifications once the transaction that wrote them has committed (in-process dispatch) */
  onCommitted?: (ids: string[]) => void;
}

/** The subjects of notifications: a credential or a proof request row. */
type Subject = Pick<Credential | Proof, "id" | "organisationId" | "state" | "protocol" | "webhookDestinationUrl">;

interface SubjectKind {
  repository: "credentials" | "proofs";
  entityType: NotificationEntityType;
  protocolBlock: "issuanceProtocol" | "verificationProtocol";
  bodyKey: "credentialId" | "proofId";
  emitting: ReadonlySet<string>;
}

const KINDS: readonly SubjectKind[] = [
  {
    repository: "credentials",
    entityType: "CREDENTIAL",
    protocolBlock: "issuanceProtocol",
    bodyKey: "credentialId",
    emitting: new Set(CREDENTIAL_NOTIFICATION_STATES),
  },
  {
    repository: "proofs",
    entityType: "PROOF",
    protocolBlock: "verificationProtocol",
    bodyKey: "proofId",
    emitting: new Set(PROOF_NOTIFICATION_STATES),
  },
];

/** Rounds of the two conditional updates of a state change (a row moving concurrently between them is retried). */
const MAX_UPDATE_ROUNDS = 3;

const and = (...conditions: (Condition | undefined)[]): Condition => {
  const present = conditions.filter((c): c is Condition => c !== undefined);
  return present.length === 1 ? present[0]! : { op: "and", conditions: present };
};

/**
 * The notification outbox as a storage decorator (like One Core's notification_decorator): every write through the
 * returned storage that moves a credential into ACCEPTED, SUSPENDED, REVOKED, ERROR or REJECTED, or a proof request
 * into ACCEPTED, REJECTED or ERROR, on a row with a `webhookDestinationUrl` whose protocol names a WEBHOOK_NOTIFY task
 * (`webhookTask`), also inserts a notification row, in the same transaction (joining the caller's, or its own). A
 * crash therefore never loses nor invents a notification; the WEBHOOK_NOTIFY task delivers them afterwards. Engines
 * are unaware of it. Storages without a `notifications` repository are returned unchanged.
 */
export function withNotificationOutbox(storage: Storage, options: NotificationOutboxOptions): Storage {
  if ((storage as Partial<Storage>).notifications === undefined) return storage;
  const { config, clock, newId } = options;

  /** createdDate of the last notification written here: strictly increasing, so it orders changes in one millisecond */
  let lastCreated = 0;

  async function enqueue(tx: Storage, kind: SubjectKind, row: Subject, collected: string[]): Promise<void> {
    const destination = row.webhookDestinationUrl;
    if (destination === undefined || destination === null) return;
    const taskName = webhookTaskOf(config, kind.protocolBlock, row.protocol);
    if (taskName === undefined) return;
    const now = clock.now();
    lastCreated = Math.max(now.getTime(), lastCreated + 1);
    const created = new Date(lastCreated);
    const notification: Notification = {
      id: newId(),
      organisationId: row.organisationId,
      entityType: kind.entityType,
      entityId: row.id,
      status: row.state,
      destination,
      taskName,
      body: { [kind.bodyKey]: row.id, status: row.state, eventTimestamp: now.toISOString() } as Notification["body"],
      attempts: 0,
      nextAttemptAt: now,
      state: "PENDING",
      createdDate: created,
      lastModified: now,
    };
    await tx.notifications.insert(notification);
    collected.push(notification.id);
  }

  function wrap(inner: Storage, collector: string[] | undefined): Storage {
    /** runs fn in the surrounding transaction, or in a new one that reports its notifications after commit */
    async function atomically<T>(fn: (tx: Storage, collected: string[]) => Promise<T>): Promise<T> {
      if (collector !== undefined) return fn(inner, collector);
      const collected: string[] = [];
      const result = await inner.transaction((tx) => fn(tx, collected));
      if (collected.length > 0) options.onCommitted?.(collected);
      return result;
    }

    function decorate<T extends Subject & { id: string }>(kind: SubjectKind): Repository<T> {
      const raw = () => inner[kind.repository] as unknown as Repository<T>;
      const emits = (patch: Partial<T>) => patch.state !== undefined && kind.emitting.has(patch.state);
      /**
       * Applies `patch` to row `id` under `where` and tells whether the row entered `patch.state` by it: one
       * conditional update for rows in another state (a state change: notified), one for rows already in it (no
       * change of state). Writing first (no read before the write) keeps SQLite's writers from deadlocking on a lock
       * upgrade; a row that moved between the two updates is tried again. Answers whether the row changed.
       */
      async function updateOne(
        tx: Storage,
        collected: string[],
        id: string,
        patch: Partial<T>,
        where: Condition | undefined,
      ): Promise<boolean> {
        const repository = tx[kind.repository] as unknown as Repository<T>;
        for (let round = 0; round < MAX_UPDATE_ROUNDS; round++) {
          const entering = and(where, { op: "ne", column: "state", value: patch.state as string });
          if (await repository.update(id, patch, { where: entering })) {
            const after = await repository.get(id);
            if (after !== undefined) await enqueue(tx, kind, after, collected);
            return true;
          }
          const staying = and(where, { op: "eq", column: "state", value: patch.state as string });
          if (await repository.update(id, patch, { where: staying })) return true;
        }
        return false;
      }

      return {
        get: (id) => raw().get(id),
        findOne: (where) => raw().findOne(where),
        findMany: (where, findOptions) => raw().findMany(where, findOptions),
        list: (query) => raw().list(query),
        count: (where) => raw().count(where),
        delete: (id, deleteOptions) => raw().delete(id, deleteOptions),
        deleteMany: (where) => raw().deleteMany(where),

        async insert(entity) {
          if (!emits(entity) || !entity.webhookDestinationUrl) return raw().insert(entity);
          await atomically(async (tx, collected) => {
            await (tx[kind.repository] as unknown as Repository<T>).insert(entity);
            await enqueue(tx, kind, entity, collected);
          });
        },

        async update(id, patch, updateOptions) {
          if (!emits(patch)) return raw().update(id, patch, updateOptions);
          // webhookDestinationUrl is fixed at creation: rows without one take the plain path (one conditional
          // update, no load); only when that changes nothing is the row looked at
          if (!Object.hasOwn(patch, "webhookDestinationUrl")) {
            const plain = and(updateOptions?.where, { op: "isNull", column: "webhookDestinationUrl" });
            if (await raw().update(id, patch, { where: plain })) return true;
            const hooked = await raw().count({
              op: "and",
              conditions: [
                { op: "eq", column: "id", value: id },
                { op: "notNull", column: "webhookDestinationUrl" },
              ],
            });
            if (hooked === 0) return raw().update(id, patch, updateOptions);
          }
          return atomically((tx, collected) => updateOne(tx, collected, id, patch, updateOptions?.where));
        },

        async updateMany(where, patch) {
          if (!emits(patch)) return raw().updateMany(where, patch);
          const setsDestination = Object.hasOwn(patch, "webhookDestinationUrl");
          const withDestination = and(where, { op: "notNull", column: "webhookDestinationUrl" });
          if (!setsDestination && (await raw().count(withDestination)) === 0) return raw().updateMany(where, patch);
          return atomically(async (tx, collected) => {
            const repository = tx[kind.repository] as unknown as Repository<T>;
            // the write first (see updateOne), then the rows that notify, one by one
            let changed = setsDestination
              ? 0
              : await repository.updateMany(and(where, { op: "isNull", column: "webhookDestinationUrl" }), patch);
            const candidates = await repository.findMany(setsDestination ? where : withDestination);
            for (const candidate of candidates) {
              if (await updateOne(tx, collected, candidate.id, patch, where)) changed++;
            }
            return changed;
          });
        },
      };
    }

    const decorated: Storage = {
      ...inner,
      kind: inner.kind,
      credentials: decorate<Credential>(KINDS[0]!),
      proofs: decorate<Proof>(KINDS[1]!),
      async transaction(fn) {
        if (collector !== undefined) return inner.transaction((tx) => fn(wrap(tx, collector)));
        const collected: string[] = [];
        const result = await inner.transaction((tx) => fn(wrap(tx, collected)));
        if (collected.length > 0) options.onCommitted?.(collected);
        return result;
      },
      close: () => inner.close(),
    };
    return decorated;
  }

  return wrap(storage, undefined);
}
