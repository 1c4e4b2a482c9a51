import { randomUUID } from "node:crypto";
import type { ConfigOverrides } from "../../src/config/load-config.js";
import type { Credkit, NotificationOptions } from "../../src/credkit.js";
import type { Credential } from "../../src/domain/credential.js";
import type { Notification } from "../../src/domain/notification.js";
import type { Proof } from "../../src/domain/proof.js";
import type { Clock } from "../../src/ports/clock.js";
import type { Storage } from "../../src/ports/storage.js";
import { createTestKit } from "../../src/testing/create-test-kit.js";

/** A clock the test moves forward by hand. */
export interface ManualClock extends Clock {
  advance(ms: number): void;
  set(date: Date): void;
}

export function manualClock(start = new Date("2026-01-01T00:00:00.000Z")): ManualClock {
  let now = start.getTime();
  return {
    now: () => new Date(now),
    advance: (ms) => {
      now += ms;
    },
    set: (date) => {
      now = date.getTime();
    },
  };
}

export interface WebhookTaskParams {
  requestTimeoutSeconds?: number;
  retries?: { intervalSeconds?: number; maxAttempts?: number; exponentialFactor?: number } | null;
  allowedHosts?: string[];
  allowInsecureHttpTransport?: boolean;
}

/**
 * Configuration whose WEBHOOK_NOTIFY task has these params: plain http allowed unless told otherwise, a 2 s timeout,
 * and no retries unless `retries` is given (give all three retry fields).
 */
export function webhookConfig(params: WebhookTaskParams = {}, extra: ConfigOverrides = {}): ConfigOverrides {
  const { allowedHosts, allowInsecureHttpTransport = true, requestTimeoutSeconds = 2, retries } = params;
  return {
    ...extra,
    task: {
      ...extra.task,
      WEBHOOK_NOTIFY: {
        type: "WEBHOOK_NOTIFY",
        display: "Webhook notifications",
        params: {
          public: { allowInsecureHttpTransport, ...(allowedHosts !== undefined && { allowedHosts }) },
          // the shipped retries are dropped unless given (every field: layers merge key by key)
          private: { requestTimeoutSeconds, retries: retries ?? null },
        },
      },
    },
  };
}

/** A kit for notification tests: the given storage (default memory), clock and WEBHOOK_NOTIFY params. */
export async function notificationKit(
  options: {
    storage?: Storage;
    clock?: Clock;
    params?: WebhookTaskParams;
    config?: ConfigOverrides;
    notifications?: NotificationOptions;
    log?: string[];
  } = {},
): Promise<Credkit> {
  const base = webhookConfig(options.params, options.config);
  return createTestKit({
    config: base,
    ...(options.storage && { storage: options.storage }),
    ...(options.clock && { clock: options.clock }),
    notifications: {
      ...(options.log && { log: (message: string) => options.log!.push(message) }),
      ...options.notifications,
    },
  });
}

/**
 * An issuer credential row as the issuance engine leaves it (no related rows: the outbox only needs the credential).
 */
export function credentialRow(overrides: Partial<Credential> = {}): Credential {
  const now = new Date("2026-01-01T00:00:00.000Z");
  return {
    id: randomUUID(),
    organisationId: randomUUID(),
    credentialSchemaId: randomUUID(),
    role: "ISSUER",
    state: "OFFERED",
    protocol: "OPENID4VCI_FINAL1",
    claims: [],
    createdDate: now,
    lastModified: now,
    ...overrides,
  };
}

/** A verifier proof request row. */
export function proofRow(overrides: Partial<Proof> = {}): Proof {
  const now = new Date("2026-01-01T00:00:00.000Z");
  return {
    id: randomUUID(),
    organisationId: randomUUID(),
    role: "VERIFIER",
    state: "PENDING",
    protocol: "OPENID4VP_FINAL1",
    transport: "HTTP",
    createdDate: now,
    lastModified: now,
    ...overrides,
  };
}

/** Every notification of an entity, oldest first. */
export async function notificationsOf(storage: Storage, entityId: string): Promise<Notification[]> {
  return storage.notifications.findMany(
    { op: "eq", column: "entityId", value: entityId },
    { orderBy: [{ column: "createdDate", direction: "ASC" }] },
  );
}
