import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { CredkitConfig } from "../../config/schema.js";
import type { Notification } from "../../domain/notification.js";
import type { Clock } from "../../ports/clock.js";
import type { DeliveryOutcome, NotificationTransport } from "../../ports/notification-transport.js";
import type { Condition, Storage } from "../../ports/storage.js";
import { recordHistory } from "../history/record-history.js";
import { type DeliverySettings, deliverySettings, retryDelayMs } from "./webhook-settings.js";

export interface NotificationServiceOptions {
  config: CredkitConfig;
  storage: Storage;
  clock: Clock;
  newId: () => string;
  /** one per URL family; the first whose `protocols` include the destination's protocol delivers */
  transports: readonly NotificationTransport[];
  /** warnings (final delivery failures); default console.warn */
  log?: (message: string) => void;
  /** identifies this process in claims; default host:pid:random */
  workerId?: string;
  /** deliveries in flight at once per worker (default 32) */
  concurrency?: number;
}

/** What one WEBHOOK_NOTIFY run did. */
export interface WebhookNotifySummary {
  /** delivery attempts made */
  attempted: number;
  delivered: number;
  /** failed attempts that will be retried by a later run (not before their backed-off interval) */
  retryScheduled: number;
  /** notifications that failed for good (no retry configured, a final outcome, or attempts exhausted) */
  failed: number;
}

export interface NotificationService {
  /**
   * Delivers the due notifications of one WEBHOOK_NOTIFY task instance: PENDING rows whose next attempt time has come,
   * each claimed by this worker (safe with several processes on one database) and attempted at most once per run.
   */
  deliverDue(taskName: string, options?: { limit?: number }): Promise<WebhookNotifySummary>;
  /** first attempt right after commit (in-process dispatcher): fire and forget; failures wait for the task */
  dispatch(ids: readonly string[]): void;
  /** resolves when dispatched deliveries have finished */
  idle(): Promise<void>;
  /** waits for dispatched deliveries and closes the transports */
  close(): Promise<void>;
}

const DEFAULT_CONCURRENCY = 32;
/** Added to a claim's lease beyond twice the delivery timeout, for the bookkeeping around it. */
const LEASE_MARGIN_MS = 60_000;

const eq = (column: string, value: string): Condition => ({ op: "eq", column, value });

/** The destination without user information, for history and logs. */
export function redactDestination(destination: string): string {
  try {
    const url = new URL(destination);
    url.username = "";
    url.password = "";
    return url.href;
  } catch {
    return destination;
  }
}

export function createNotificationService(options: NotificationServiceOptions): NotificationService {
  const { config, storage, clock, newId, transports } = options;
  const log = options.log ?? ((message: string) => console.warn(message));
  const workerId = options.workerId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  const inFlight = new Set<Promise<unknown>>();
  const available = (storage as Partial<Storage>).notifications !== undefined;

  /** Claims up to `limit` due notifications of a task for this worker; answers how many were due and the claimed. */
  async function claim(taskName: string, settings: DeliverySettings, limit: number, extra?: Condition) {
    const now = clock.now();
    const claimable: Condition = {
      op: "and",
      conditions: [
        eq("state", "PENDING"),
        eq("taskName", taskName),
        { op: "lte", column: "nextAttemptAt", value: now },
        {
          op: "or",
          conditions: [
            { op: "isNull", column: "claimedUntil" },
            { op: "lte", column: "claimedUntil", value: now },
          ],
        },
        ...(extra ? [extra] : []),
      ],
    };
    const due = await storage.notifications.findMany(claimable, {
      orderBy: [
        { column: "nextAttemptAt", direction: "ASC" },
        { column: "createdDate", direction: "ASC" },
      ],
      limit,
    });
    if (due.length === 0) return { due: 0, claimed: [] as Notification[], token: "" };
    const token = `${workerId}:${newId()}`;
    // a conditional update: of concurrent claimers of a row exactly one changes it (the others re-check the
    // condition after the winner commits and no longer match)
    await storage.notifications.updateMany(
      { op: "and", conditions: [claimable, { op: "in", column: "id", values: due.map((n) => n.id) }] },
      {
        claimedBy: token,
        claimedUntil: new Date(now.getTime() + 2 * settings.timeoutMs + LEASE_MARGIN_MS),
        lastModified: now,
      },
    );
    const claimed = await storage.notifications.findMany(eq("claimedBy", token), {
      orderBy: [{ column: "createdDate", direction: "ASC" }],
      limit,
    });
    return { due: due.length, claimed, token };
  }

  /**
   * Attempts a claimed batch: notifications of different entities in parallel, those of one entity one after the
   * other in the order of the changes. Answers the dispositions in the order of `claimed`.
   */
  async function attemptAll(claimed: readonly Notification[], token: string, settings: DeliverySettings) {
    const byEntity = new Map<string, number[]>();
    for (const [index, notification] of claimed.entries()) {
      const indexes = byEntity.get(notification.entityId) ?? [];
      indexes.push(index);
      byEntity.set(notification.entityId, indexes);
    }
    const results: Awaited<ReturnType<typeof attempt>>[] = new Array(claimed.length);
    await Promise.all(
      [...byEntity.values()].map(async (indexes) => {
        for (const index of indexes) results[index] = await attempt(claimed[index]!, token, settings);
      }),
    );
    return results;
  }

  async function send(notification: Notification, settings: DeliverySettings): Promise<DeliveryOutcome> {
    let url: URL;
    try {
      url = new URL(notification.destination);
    } catch {
      return { delivered: false, retryable: false, errorCode: "BR_0371", message: "destination is not a URL" };
    }
    const transport = transports.find((t) => t.protocols.includes(url.protocol));
    if (transport === undefined) {
      return {
        delivered: false,
        retryable: false,
        errorCode: "BR_0370",
        message: `no notification transport for ${url.protocol.slice(0, -1)}`,
      };
    }
    try {
      // spec §2.2 / §6.1: eventTimestamp is the time of sending (each attempt carries its own)
      const body = { ...notification.body, eventTimestamp: clock.now().toISOString() };
      return await transport.deliver({ destination: url, body, timeoutMs: settings.timeoutMs });
    } catch (error) {
      return { delivered: false, retryable: true, errorCode: "BR_0348", message: (error as Error).message };
    }
  }

  /** One attempt and its bookkeeping (state, history) in one transaction; answers the resulting disposition. */
  async function attempt(
    notification: Notification,
    token: string,
    settings: DeliverySettings,
  ): Promise<"delivered" | "retry" | "failed" | "lost"> {
    const outcome = await send(notification, settings);
    const now = clock.now();
    const attempts = notification.attempts + 1;
    const retry = !outcome.delivered && outcome.retryable && attempts < settings.maxAttempts;
    const nextAttemptAt = new Date(now.getTime() + retryDelayMs(settings, attempts));
    const destination = redactDestination(notification.destination);
    const release = { claimedBy: undefined, claimedUntil: undefined, lastModified: now };
    const disposition = outcome.delivered ? "delivered" : retry ? "retry" : "failed";
    const message = outcome.delivered
      ? ""
      : retry
        ? `${outcome.message} (attempt ${attempts} of ${settings.maxAttempts}; next attempt not before ${nextAttemptAt.toISOString()})`
        : `${outcome.message} (attempt ${attempts} of ${settings.maxAttempts}${outcome.retryable ? ", attempts exhausted" : ", not retried"})`;
    const mine = await storage.transaction(async (tx) => {
      const patch: Partial<Notification> = outcome.delivered
        ? { ...release, state: "DELIVERED", attempts, lastError: undefined }
        : retry
          ? { ...release, attempts, nextAttemptAt, lastError: message }
          : { ...release, state: "FAILED", attempts, lastError: message };
      // only while this worker still holds the claim (a lease that ran out belongs to another worker now)
      if (!(await tx.notifications.update(notification.id, patch, { where: eq("claimedBy", token) }))) return false;
      await recordHistory(
        { clock, newId },
        tx,
        {},
        {
          action: outcome.delivered ? "DELIVERED" : "ERRORED",
          entityType: "NOTIFICATION",
          entityId: notification.id,
          name: destination,
          organisationId: notification.organisationId,
          target: notification.entityId,
          ...(!outcome.delivered && { metadata: { ErrorMetadata: { errorCode: outcome.errorCode, message } } }),
        },
      );
      return true;
    });
    if (!mine) return "lost";
    if (disposition === "failed") {
      log(
        `[credkit] webhook notification ${notification.id} (${notification.entityType} ${notification.entityId} ` +
          `${notification.status}) to ${destination} failed: ${message}`,
      );
    }
    return disposition;
  }

  async function deliverDue(taskName: string, runOptions: { limit?: number } = {}): Promise<WebhookNotifySummary> {
    const summary: WebhookNotifySummary = { attempted: 0, delivered: 0, retryScheduled: 0, failed: 0 };
    const settings = deliverySettings(config, taskName);
    if (!available) return summary;
    const limit = runOptions.limit ?? Number.POSITIVE_INFINITY;
    // a notification is attempted at most once per run, even when its retry interval is zero
    const retried: string[] = [];
    while (summary.attempted < limit) {
      const batch = Math.min(concurrency, limit - summary.attempted);
      const extra: Condition | undefined =
        retried.length > 0 ? { op: "notIn", column: "id", values: retried } : undefined;
      const { due, claimed, token } = await claim(taskName, settings, batch, extra);
      if (due === 0) break;
      const results = await attemptAll(claimed, token, settings);
      for (const [index, result] of results.entries()) {
        if (result === "lost") continue;
        summary.attempted++;
        if (result === "delivered") summary.delivered++;
        else if (result === "failed") summary.failed++;
        else {
          summary.retryScheduled++;
          retried.push(claimed[index]!.id);
        }
      }
    }
    return summary;
  }

  async function dispatchNow(ids: readonly string[]): Promise<void> {
    const rows = await storage.notifications.findMany({ op: "in", column: "id", values: [...ids] });
    for (const taskName of new Set(rows.map((n) => n.taskName))) {
      const settings = deliverySettings(config, taskName);
      const { claimed, token } = await claim(taskName, settings, ids.length, {
        op: "in",
        column: "id",
        values: rows.filter((n) => n.taskName === taskName).map((n) => n.id),
      });
      await attemptAll(claimed, token, settings);
    }
  }

  return {
    deliverDue,
    dispatch(ids) {
      if (!available || ids.length === 0) return;
      const running = dispatchNow(ids).catch((error: unknown) =>
        log(`[credkit] webhook dispatch failed (the WEBHOOK_NOTIFY task will deliver): ${(error as Error).message}`),
      );
      inFlight.add(running);
      void running.finally(() => inFlight.delete(running));
    },
    async idle() {
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },
    async close() {
      while (inFlight.size > 0) await Promise.all([...inFlight]);
      await Promise.all(transports.map((t) => t.close?.()));
    },
  };
}
