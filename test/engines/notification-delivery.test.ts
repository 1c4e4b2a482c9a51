/**
 * WEBHOOK_NOTIFY delivery against a real loopback HTTP receiver and a real MQTT broker: every outcome row of platform
 * spec §6.2, retry timing and exhaustion, history records (entityType NOTIFICATION) and warnings.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Credkit } from "../../src/credkit.js";
import type { Notification } from "../../src/domain/notification.js";
import {
  type MqttTestBroker,
  mqttBrokerKind,
  startAedesBroker,
  startMqttTestBroker,
  unusedPort,
} from "../support/mqtt-broker.js";
import {
  credentialRow,
  type ManualClock,
  manualClock,
  notificationKit,
  notificationsOf,
  proofRow,
  type WebhookTaskParams,
} from "../support/notification-fixture.js";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver.js";

const RETRIES = { intervalSeconds: 60, maxAttempts: 3, exponentialFactor: 2 };

interface Setup {
  kit: Credkit;
  clock: ManualClock;
  log: string[];
}

async function setUp(params: WebhookTaskParams = {}): Promise<Setup> {
  const clock = manualClock();
  const log: string[] = [];
  const kit = await notificationKit({ clock, params, log });
  return { kit, clock, log };
}

/** A credential with the destination, moved to `state` through the (decorated) storage: one notification. */
async function notifyCredential(kit: Credkit, destination: string, state: "REVOKED" | "SUSPENDED" = "REVOKED") {
  const credential = credentialRow({ webhookDestinationUrl: destination, state: "ACCEPTED" });
  await kit.storage.credentials.insert({ ...credential, state: "OFFERED" });
  await kit.storage.credentials.update(credential.id, { state: "ACCEPTED" });
  await kit.storage.notifications.deleteMany({ op: "eq", column: "entityId", value: credential.id });
  await kit.storage.credentials.update(credential.id, { state });
  return credential.id;
}

async function only(kit: Credkit, entityId: string): Promise<Notification> {
  const [notification, ...rest] = await notificationsOf(kit.storage, entityId);
  expect(rest).toEqual([]);
  return notification!;
}

async function historyOf(kit: Credkit, notificationId: string) {
  return kit.storage.history.findMany(
    { op: "eq", column: "entityId", value: notificationId },
    { orderBy: [{ column: "createdDate", direction: "ASC" }] },
  );
}

describe("webhook delivery over HTTP (§6.2)", () => {
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    receiver.answer("/ok", { status: 200 });
    receiver.answer("/accepted", { status: 202 });
    receiver.answer("/redirect", { status: 302 });
    receiver.answer("/bad-request", { status: 400 });
    receiver.answer("/unauthorized", { status: 401 });
    receiver.answer("/missing", { status: 404 });
    receiver.answer("/broken", { status: 500 });
    receiver.answer("/unavailable", { status: 503 });
    receiver.answer("/slow", { status: 200, delayMs: 3000 });
  });
  afterAll(async () => {
    await receiver?.close();
  });

  it("2xx: delivered once with the exact body, history DELIVERED", async () => {
    const { kit } = await setUp({ retries: RETRIES });
    const id = await notifyCredential(kit, `${receiver.origin}/ok`);
    const notification = await only(kit, id);
    expect(await kit.tasks.run("WEBHOOK_NOTIFY")).toEqual({ attempted: 1, delivered: 1, retryScheduled: 0, failed: 0 });
    const received = receiver.on("/ok").filter((r) => r.body.credentialId === id);
    expect(received).toHaveLength(1);
    expect(received[0]!.body).toEqual({
      credentialId: id,
      status: "REVOKED",
      eventTimestamp: notification.body.eventTimestamp,
    });
    expect(received[0]!.body.eventTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(received[0]!.headers["content-type"]).toBe("application/json");
    expect(await only(kit, id)).toMatchObject({ state: "DELIVERED", attempts: 1 });
    const history = await historyOf(kit, notification.id);
    expect(history).toMatchObject([
      {
        action: "DELIVERED",
        entityType: "NOTIFICATION",
        entityId: notification.id,
        target: id,
        source: "CORE",
        name: `${receiver.origin}/ok`,
      },
    ]);
    // delivered notifications are never sent again
    expect(await kit.tasks.run("WEBHOOK_NOTIFY")).toMatchObject({ attempted: 0 });
    expect(receiver.on("/ok").filter((r) => r.body.credentialId === id)).toHaveLength(1);

    const accepted = await notifyCredential(kit, `${receiver.origin}/accepted`, "SUSPENDED");
    await kit.tasks.run("WEBHOOK_NOTIFY");
    expect((await only(kit, accepted)).state).toBe("DELIVERED");
    await kit.close();
  });

  for (const [path, status, code] of [
    ["/redirect", 302, "BR_0347"],
    ["/bad-request", 400, "BR_0395"],
    ["/unauthorized", 401, "BR_0395"],
  ] as const) {
    it(`${status}: error in history and a warning, never retried even with retries configured`, async () => {
      const { kit, clock, log } = await setUp({ retries: RETRIES });
      const id = await notifyCredential(kit, `${receiver.origin}${path}`);
      expect(await kit.tasks.run("WEBHOOK_NOTIFY")).toEqual({
        attempted: 1,
        delivered: 0,
        retryScheduled: 0,
        failed: 1,
      });
      const notification = await only(kit, id);
      expect(notification).toMatchObject({ state: "FAILED", attempts: 1 });
      const history = await historyOf(kit, notification.id);
      expect(history).toHaveLength(1);
      expect(history[0]).toMatchObject({ action: "ERRORED", entityType: "NOTIFICATION" });
      expect(history[0]!.metadata).toMatchObject({
        ErrorMetadata: { errorCode: code, message: expect.stringContaining(`HTTP ${status}`) },
      });
      expect(log.some((line) => line.includes(notification.id) && line.includes(`HTTP ${status}`))).toBe(true);
      clock.advance(3600_000);
      expect(await kit.tasks.run("WEBHOOK_NOTIFY")).toMatchObject({ attempted: 0 });
      expect(receiver.on(path).filter((r) => r.body.credentialId === id)).toHaveLength(1);
      await kit.close();
    });
  }

  for (const [path, status] of [
    ["/missing", 404],
    ["/broken", 500],
    ["/unavailable", 503],
  ] as const) {
    it(`${status}: retried when retries are configured, failed at once when not`, async () => {
      const { kit, clock } = await setUp({ retries: RETRIES });
      const id = await notifyCredential(kit, `${receiver.origin}${path}`);
      expect(await kit.tasks.run("WEBHOOK_NOTIFY")).toEqual({
        attempted: 1,
        delivered: 0,
        retryScheduled: 1,
        failed: 0,
      });
      const notification = await only(kit, id);
      expect(notification).toMatchObject({ state: "PENDING", attempts: 1 });
      expect(notification.nextAttemptAt.getTime() - clock.now().getTime()).toBe(60_000);
      expect((await historyOf(kit, notification.id))[0]).toMatchObject({ action: "ERRORED" });
      await kit.close();

      const once = await setUp({});
      const single = await notifyCredential(once.kit, `${receiver.origin}${path}`);
      expect(await once.kit.tasks.run("WEBHOOK_NOTIFY")).toMatchObject({ attempted: 1, failed: 1, retryScheduled: 0 });
      expect((await only(once.kit, single)).state).toBe("FAILED");
      expect(once.log).toHaveLength(1);
      await once.kit.close();
    });
  }

  it("no response within requestTimeoutSeconds: retried when configured, else marked error", async () => {
    const { kit } = await setUp({ requestTimeoutSeconds: 0.5, retries: RETRIES });
    const id = await notifyCredential(kit, `${receiver.origin}/slow`);
    const started = Date.now();
    expect(await kit.tasks.run("WEBHOOK_NOTIFY")).toMatchObject({ attempted: 1, retryScheduled: 1 });
    expect(Date.now() - started).toBeLessThan(2500);
    const notification = await only(kit, id);
    expect(notification.lastError).toContain("no response");
    expect((await historyOf(kit, notification.id))[0]!.metadata).toMatchObject({
      ErrorMetadata: { errorCode: "BR_0348" },
    });
    await kit.close();

    const once = await setUp({ requestTimeoutSeconds: 0.5 });
    const single = await notifyCredential(once.kit, `${receiver.origin}/slow`);
    expect(await once.kit.tasks.run("WEBHOOK_NOTIFY")).toMatchObject({ failed: 1 });
    expect((await only(once.kit, single)).state).toBe("FAILED");
    await once.kit.close();
  });

  it("connection refused counts as no response (retried)", async () => {
    const { kit } = await setUp({ retries: RETRIES });
    const id = await notifyCredential(kit, `http://127.0.0.1:${await unusedPort()}/hook`);
    expect(await kit.tasks.run("WEBHOOK_NOTIFY")).toMatchObject({ retryScheduled: 1 });
    expect((await only(kit, id)).lastError).toContain("ECONNREFUSED");
    await kit.close();
  });

  it("retries no sooner than the backed-off interval, and only when the task runs; exhaustion fails it", async () => {
    const { kit, clock, log } = await setUp({ retries: RETRIES });
    let answer = 500;
    receiver.answer("/flaky", () => ({ status: answer }));
    const id = await notifyCredential(kit, `${receiver.origin}/flaky`);
    const attemptsAtReceiver = () => receiver.on("/flaky").filter((r) => r.body.credentialId === id).length;

    await kit.tasks.run("WEBHOOK_NOTIFY"); // attempt 1 fails -> next in 60 s
    expect(attemptsAtReceiver()).toBe(1);
    clock.advance(59_999);
    expect(await kit.tasks.run("WEBHOOK_NOTIFY")).toMatchObject({ attempted: 0 });
    expect(attemptsAtReceiver()).toBe(1);
    clock.advance(1);
    expect(await kit.tasks.run("WEBHOOK_NOTIFY")).toMatchObject({ attempted: 1, retryScheduled: 1 }); // attempt 2
    expect(attemptsAtReceiver()).toBe(2);
    // exponential factor 2: the next interval is 120 s
    expect((await only(kit, id)).nextAttemptAt.getTime() - clock.now().getTime()).toBe(120_000);
    clock.advance(119_000);
    expect(await kit.tasks.run("WEBHOOK_NOTIFY")).toMatchObject({ attempted: 0 });
    clock.advance(1_000);
    expect(await kit.tasks.run("WEBHOOK_NOTIFY")).toMatchObject({ attempted: 1, failed: 1 }); // attempt 3 of 3
    expect(attemptsAtReceiver()).toBe(3);
    const notification = await only(kit, id);
    expect(notification).toMatchObject({ state: "FAILED", attempts: 3 });
    expect(notification.lastError).toContain("attempts exhausted");
    const history = await historyOf(kit, notification.id);
    expect(history.map((h) => h.action)).toEqual(["ERRORED", "ERRORED", "ERRORED"]);
    expect(log.filter((line) => line.includes(notification.id))).toHaveLength(1);

    // later runs leave it alone, whatever the receiver says now
    answer = 200;
    clock.advance(86_400_000);
    expect(await kit.tasks.run("WEBHOOK_NOTIFY")).toMatchObject({ attempted: 0 });
    expect(attemptsAtReceiver()).toBe(3);
    await kit.close();
  });

  it("a retry that succeeds is delivered once; a run attempts a notification at most once", async () => {
    const { kit, clock } = await setUp({ retries: { intervalSeconds: 0, maxAttempts: 3, exponentialFactor: 1 } });
    receiver.answer("/second-time", (count) => ({ status: count === 1 ? 503 : 200 }));
    const id = await notifyCredential(kit, `${receiver.origin}/second-time`);
    expect(await kit.tasks.run("WEBHOOK_NOTIFY")).toMatchObject({ attempted: 1, retryScheduled: 1 });
    clock.advance(1);
    expect(await kit.tasks.run("WEBHOOK_NOTIFY")).toMatchObject({ attempted: 1, delivered: 1 });
    expect((await only(kit, id)).state).toBe("DELIVERED");
    const history = await historyOf(kit, (await only(kit, id)).id);
    expect(history.map((h) => h.action)).toEqual(["ERRORED", "DELIVERED"]);
    await kit.close();
  });

  it("delivers proof notifications with proofId", async () => {
    const { kit } = await setUp();
    const proof = proofRow({ webhookDestinationUrl: `${receiver.origin}/proofs` });
    await kit.storage.proofs.insert(proof);
    await kit.storage.proofs.update(proof.id, { state: "ACCEPTED" });
    await kit.tasks.run("WEBHOOK_NOTIFY");
    expect(receiver.on("/proofs").map((r) => r.body)).toEqual([
      { proofId: proof.id, status: "ACCEPTED", eventTimestamp: expect.any(String) },
    ]);
    await kit.close();
  });

  it("delivers many concurrently, each once, and honours a run limit", async () => {
    const { kit } = await setUp();
    const ids: string[] = [];
    for (let i = 0; i < 120; i++) ids.push(await notifyCredential(kit, `${receiver.origin}/bulk`));
    expect(await kit.tasks.run("WEBHOOK_NOTIFY", { limit: 50 })).toMatchObject({ attempted: 50, delivered: 50 });
    expect(await kit.tasks.run("WEBHOOK_NOTIFY")).toMatchObject({ attempted: 70, delivered: 70 });
    const seen = receiver.on("/bulk").map((r) => r.body.credentialId);
    expect(seen.sort()).toEqual([...ids].sort());
    await kit.close();
  });

  it("makes the first attempt right after commit with deliverAfterCommit; retries still wait for the task", async () => {
    const clock = manualClock();
    const kit = await notificationKit({
      clock,
      params: { retries: RETRIES },
      notifications: { deliverAfterCommit: true },
    });
    const id = await notifyCredential(kit, `${receiver.origin}/ok`);
    await kit.notifications.idle();
    expect(receiver.on("/ok").filter((r) => r.body.credentialId === id)).toHaveLength(1);
    expect((await only(kit, id)).state).toBe("DELIVERED");

    const failing = await notifyCredential(kit, `${receiver.origin}/broken`);
    await kit.notifications.idle();
    expect(await only(kit, failing)).toMatchObject({ state: "PENDING", attempts: 1 });
    expect(await kit.tasks.run("WEBHOOK_NOTIFY")).toMatchObject({ attempted: 0 });
    clock.advance(60_000);
    expect(await kit.tasks.run("WEBHOOK_NOTIFY")).toMatchObject({ attempted: 1 });
    await kit.close();
  });
});

describe(`webhook delivery over MQTT (§6.2, broker: ${mqttBrokerKind})`, () => {
  let broker: MqttTestBroker;
  beforeAll(async () => {
    broker = await startMqttTestBroker();
  });
  afterAll(async () => {
    await broker?.close();
  });

  it("PUBACK: delivered once with QoS 1 to the topic of the URL, history DELIVERED", async () => {
    const { kit } = await setUp({ retries: RETRIES });
    const topic = `credkit/test/${crypto.randomUUID()}`;
    const subscription = await broker.subscribe(topic);
    const id = await notifyCredential(kit, `${broker.url}/${topic}`);
    expect(await kit.tasks.run("WEBHOOK_NOTIFY")).toMatchObject({ attempted: 1, delivered: 1 });
    await expect.poll(() => subscription.messages.length).toBe(1);
    expect(subscription.messages[0]).toEqual({
      credentialId: id,
      status: "REVOKED",
      eventTimestamp: expect.any(String),
    });
    const notification = await only(kit, id);
    expect(notification.state).toBe("DELIVERED");
    expect((await historyOf(kit, notification.id)).map((h) => h.action)).toEqual(["DELIVERED"]);
    // the connection is kept for the next notifications
    const more = [
      await notifyCredential(kit, `${broker.url}/${topic}`),
      await notifyCredential(kit, `${broker.url}/${topic}`),
    ];
    expect(await kit.tasks.run("WEBHOOK_NOTIFY")).toMatchObject({ attempted: 2, delivered: 2 });
    await expect.poll(() => subscription.messages.length).toBe(3);
    expect(
      subscription.messages
        .map((m) => (m as { credentialId: string }).credentialId)
        .slice(1)
        .sort(),
    ).toEqual(more.sort());
    await subscription.close();
    await kit.close();
  });

  it("no broker: retried when configured, error in history; marked error without retries", async () => {
    const { kit } = await setUp({ requestTimeoutSeconds: 1, retries: RETRIES });
    const id = await notifyCredential(kit, `mqtt://127.0.0.1:${await unusedPort()}/credkit/none`);
    expect(await kit.tasks.run("WEBHOOK_NOTIFY")).toMatchObject({ attempted: 1, retryScheduled: 1 });
    const notification = await only(kit, id);
    expect((await historyOf(kit, notification.id))[0]!.metadata).toMatchObject({
      ErrorMetadata: { errorCode: "BR_0349" },
    });
    await kit.close();

    const once = await setUp({ requestTimeoutSeconds: 1 });
    const single = await notifyCredential(once.kit, `mqtt://127.0.0.1:${await unusedPort()}/credkit/none`);
    expect(await once.kit.tasks.run("WEBHOOK_NOTIFY")).toMatchObject({ failed: 1 });
    expect((await only(once.kit, single)).state).toBe("FAILED");
    expect(once.log).toHaveLength(1);
    await once.kit.close();
  });

  it("no PUBACK within the timeout: retried, then delivered once the broker acknowledges", async () => {
    const silent = await startAedesBroker({ withholdPuback: true });
    const { kit, clock } = await setUp({ requestTimeoutSeconds: 0.5, retries: RETRIES });
    const id = await notifyCredential(kit, `${silent.url}/credkit/silent`);
    const started = Date.now();
    expect(await kit.tasks.run("WEBHOOK_NOTIFY")).toMatchObject({ attempted: 1, retryScheduled: 1 });
    expect(Date.now() - started).toBeLessThan(3000);
    expect((await only(kit, id)).lastError).toContain("no PUBACK");
    await silent.close();

    // the same destination, now answered by a broker that acknowledges
    const ack = await startAedesBroker();
    await kit.storage.notifications.updateMany(
      { op: "eq", column: "entityId", value: id },
      { destination: `${ack.url}/credkit/silent` },
    );
    clock.advance(60_000);
    expect(await kit.tasks.run("WEBHOOK_NOTIFY")).toMatchObject({ attempted: 1, delivered: 1 });
    await kit.close();
    await ack.close();
  });
});
