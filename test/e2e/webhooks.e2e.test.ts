/**
 * Webhook notifications end to end (platform spec §6): destinations registered over the REST API, state changes by
 * the real issuance / revocation flows, delivery by POST /api/task/v1/run to a real loopback HTTP receiver and a real
 * MQTT broker, history over GET /api/history/v1, a SIGKILLed process that still delivers after restart, and two kits
 * sharing one PostgreSQL that deliver 1,000 notifications exactly once.
 */
import { spawn } from "node:child_process";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Credkit } from "../../src/credkit.js";
import { postgresStorage } from "../../src/storage/sql/postgres.js";
import { sqliteStorage } from "../../src/storage/sql/sqlite.js";
import { createTestKit } from "../../src/testing/create-test-kit.js";
import { type IssuerFixture, startIssuerFixture, toClaimValues } from "../support/issuer-fixture.js";
import { type MqttTestBroker, mqttBrokerKind, startMqttTestBroker } from "../support/mqtt-broker.js";
import { credentialRow, notificationKit, webhookConfig } from "../support/notification-fixture.js";
import { createTestDatabase } from "../support/postgres.js";
import { setUpSdkWallet } from "../support/sdk-issuance.js";
import { describeOnStorage, STORAGE_ADAPTERS } from "../support/storage-adapters.js";
import { createTempDir } from "../support/temp-dir.js";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver.js";

const POSTGRES_CASE = STORAGE_ADAPTERS.find((adapter) => adapter.name === "postgres")!;

const ROOT = resolve(import.meta.dirname, "../..");
const CLAIMS = { given_name: "Erika" };

describe("webhooks over the REST API", () => {
  let receiver: WebhookReceiver;
  let broker: MqttTestBroker;
  let issuer: IssuerFixture;
  let wallet: Credkit;
  let walletSetup: Awaited<ReturnType<typeof setUpSdkWallet>>;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    broker = await startMqttTestBroker();
    issuer = await startIssuerFixture({
      revocation: true,
      allowSuspension: true,
      config: webhookConfig({ retries: { intervalSeconds: 0, maxAttempts: 2, exponentialFactor: 1 } }),
    });
    // the issuer fixture answers on plain http loopback
    wallet = await createTestKit({ config: { app: { http: { allowInsecureHttpTransport: true } } } });
    walletSetup = await setUpSdkWallet(wallet);
  });
  afterAll(async () => {
    await wallet?.close();
    await issuer?.close();
    await broker?.close();
    await receiver?.close();
  });

  const createCredential = async (webhookDestinationUrl: string) =>
    issuer.api("POST", "/api/credential/v1", {
      credentialSchemaId: issuer.schema.id,
      issuer: issuer.didIdentifierId,
      protocol: "OPENID4VCI_FINAL1",
      claimValues: toClaimValues(CLAIMS, issuer.schema.claimIds),
      webhookDestinationUrl,
    });

  /** created over the API, offered, accepted by the wallet: ACCEPTED at the issuer */
  const issue = async (webhookDestinationUrl: string) => {
    const created = await createCredential(webhookDestinationUrl);
    expect(created.status).toBe(201);
    const id = created.json.id as string;
    const shared = await issuer.api("POST", `/api/credential/v1/${id}/share`);
    const held = await walletSetup.accept(shared.json.url as string);
    expect(await issuer.credentialState(id)).toBe("ACCEPTED");
    return { id, held };
  };

  const runTask = async (name = "WEBHOOK_NOTIFY", params?: unknown) => {
    const response = await issuer.api("POST", "/api/task/v1/run", { name, ...(params !== undefined && { params }) });
    expect(response.status).toBe(200);
    return response.json;
  };

  it("delivers ACCEPTED, SUSPENDED, ACCEPTED (reactivated) and REVOKED of a credential, each once, in order", async () => {
    const path = "/credential-lifecycle";
    const { id } = await issue(`${receiver.origin}${path}`);
    expect((await issuer.api("POST", `/api/credential/v1/${id}/suspend`, {})).status).toBe(204);
    expect((await issuer.api("POST", `/api/credential/v1/${id}/reactivate`)).status).toBe(204);
    expect((await issuer.api("POST", `/api/credential/v1/${id}/revoke`)).status).toBe(204);
    // nothing leaves before the task runs
    expect(receiver.on(path)).toHaveLength(0);
    expect(await runTask()).toEqual({ attempted: 4, delivered: 4, retryScheduled: 0, failed: 0 });
    const bodies = receiver.on(path).map((r) => r.body);
    expect(bodies.map((b) => b.status).sort()).toEqual(["ACCEPTED", "ACCEPTED", "REVOKED", "SUSPENDED"]);
    for (const body of bodies) {
      expect(Object.keys(body).sort()).toEqual(["credentialId", "eventTimestamp", "status"]);
      expect(body.credentialId).toBe(id);
      expect(new Date(body.eventTimestamp).toISOString()).toBe(body.eventTimestamp);
    }
    // in the order of the changes
    const ordered = [...bodies].sort((a, b) => a.eventTimestamp.localeCompare(b.eventTimestamp));
    expect(ordered.map((b) => b.status)).toEqual(["ACCEPTED", "SUSPENDED", "ACCEPTED", "REVOKED"]);
    expect(await runTask()).toMatchObject({ attempted: 0 });
    expect(receiver.on(path)).toHaveLength(4);
  });

  it("delivers REJECTED (holder's credential_deleted) and ERROR", async () => {
    const rejectedPath = "/credential-rejected";
    const { id, held } = await issue(`${receiver.origin}${rejectedPath}`);
    await wallet.holder.rejectIssuance({ interactionId: held.interactionId });
    expect(await issuer.credentialState(id)).toBe("REJECTED");
    const errorPath = "/credential-error";
    const failed = (await createCredential(`${receiver.origin}${errorPath}`)).json.id as string;
    await issuer.kit.storage.credentials.update(failed, { state: "ERROR", lastModified: new Date() });
    await runTask();
    expect(receiver.on(rejectedPath).map((r) => r.body.status)).toEqual(["ACCEPTED", "REJECTED"]);
    expect(receiver.on(errorPath).map((r) => r.body)).toEqual([
      { credentialId: failed, status: "ERROR", eventTimestamp: expect.any(String) },
    ]);
  });

  it("publishes to an MQTT topic given as mqtt://host:port/topic", async () => {
    const topic = `credkit/e2e/${crypto.randomUUID()}`;
    const subscription = await broker.subscribe(topic);
    const { id } = await issue(`${broker.url}/${topic}`);
    expect((await issuer.api("POST", `/api/credential/v1/${id}/revoke`)).status).toBe(204);
    expect(await runTask()).toMatchObject({ delivered: 2 });
    await expect.poll(() => subscription.messages.length).toBe(2);
    expect(subscription.messages).toEqual([
      { credentialId: id, status: "ACCEPTED", eventTimestamp: expect.any(String) },
      { credentialId: id, status: "REVOKED", eventTimestamp: expect.any(String) },
    ]);
    await subscription.close();
  }, 30_000);

  it(`(MQTT broker used: ${mqttBrokerKind})`, () => {
    expect(["mosquitto", "aedes"]).toContain(mqttBrokerKind);
  });

  it("delivers proof request ACCEPTED, REJECTED and ERROR with proofId", async () => {
    const schema = await issuer.api("POST", "/api/proof-schema/v1", {
      name: `Webhook proof ${crypto.randomUUID()}`,
      organisationId: issuer.organisationId,
      proofInputSchemas: [
        {
          credentialSchemaId: issuer.schema.id,
          claimSchemas: [{ id: issuer.schema.claimIds.given_name, required: true }],
        },
      ],
    });
    expect(schema.status).toBe(201);
    const proofs: Record<string, string> = {};
    for (const state of ["ACCEPTED", "REJECTED", "ERROR"] as const) {
      const created = await issuer.api("POST", "/api/proof-request/v1", {
        proofSchemaId: schema.json.id,
        verifier: issuer.didIdentifierId,
        protocol: "OPENID4VP_FINAL1",
        webhookDestinationUrl: `${receiver.origin}/proofs`,
      });
      expect(created.status).toBe(201);
      const detail = await issuer.api("GET", `/api/proof-request/v1/${created.json.id}`);
      expect(detail.json.webhookDestinationUrl).toBe(`${receiver.origin}/proofs`);
      proofs[state] = created.json.id;
      // the verifier flow's outcome, written as the verifier engine writes it
      await issuer.kit.storage.proofs.update(created.json.id, {
        state,
        completedDate: new Date(),
        lastModified: new Date(),
      });
    }
    await runTask();
    const bodies = receiver.on("/proofs").map((r) => r.body);
    expect(bodies).toHaveLength(3);
    for (const [state, id] of Object.entries(proofs)) {
      expect(bodies.filter((b) => b.proofId === id)).toEqual([
        { proofId: id, status: state, eventTimestamp: expect.any(String) },
      ]);
    }
  });

  it("records every outcome in history as NOTIFICATION (DELIVERED, ERRORED with ErrorMetadata)", async () => {
    receiver.answer("/gone", { status: 410 });
    receiver.answer("/down", { status: 503 });
    const { id: gone } = await issue(`${receiver.origin}/gone`);
    const { id: down } = await issue(`${receiver.origin}/down`);
    expect(await runTask()).toMatchObject({ attempted: 2, failed: 1, retryScheduled: 1 });
    expect(await runTask()).toMatchObject({ attempted: 1, failed: 1 }); // second and last attempt of /down
    const list = await issuer.api(
      "GET",
      `/api/history/v1?page=0&pageSize=100&organisationId=${issuer.organisationId}&entityTypes[]=NOTIFICATION&sort=createdDate&sortDirection=ASC`,
    );
    expect(list.status).toBe(200);
    const entries = list.json.values as { id: string; action: string; target: string; entityType: string }[];
    expect(entries.every((e) => e.entityType === "NOTIFICATION")).toBe(true);
    expect(entries.filter((e) => e.target === gone).map((e) => e.action)).toEqual(["ERRORED"]);
    expect(entries.filter((e) => e.target === down).map((e) => e.action)).toEqual(["ERRORED", "ERRORED"]);
    expect(entries.some((e) => e.action === "DELIVERED")).toBe(true);
    const detail = await issuer.api("GET", `/api/history/v1/${entries.find((e) => e.target === gone)!.id}`);
    expect(detail.json.metadata).toEqual({
      ErrorMetadata: { errorCode: "BR_0395", message: expect.stringContaining("HTTP 410") },
    });
    const errored = await issuer.api(
      "GET",
      `/api/history/v1?page=0&pageSize=10&organisationId=${issuer.organisationId}&entityTypes[]=NOTIFICATION&actions[]=ERRORED`,
    );
    expect(errored.json.totalItems).toBe(3);
  });

  it("refuses destinations at creation with a 400 and creates nothing", async () => {
    const count = async () =>
      (await issuer.api("GET", `/api/credential/v1?page=0&pageSize=1&organisationId=${issuer.organisationId}`)).json
        .totalItems as number;
    const before = await count();
    for (const [url, code] of [
      ["ftp://files.example/x", "BR_0370"],
      ["not a url", "BR_0371"],
      ["mqtt://broker.example", "BR_0371"],
    ] as const) {
      const response = await createCredential(url);
      expect(response.status).toBe(400);
      expect(response.json.code).toBe(code);
      expect(response.json.cause.message).toMatch(/webhookDestinationUrl|MQTT/);
    }
    expect(await count()).toBe(before);
  });
});

describe("destination rules from the configuration (allowedHosts, allowInsecureHttpTransport)", () => {
  it("the shipped configuration refuses plain http and mqtt, accepts https and mqtts", async () => {
    const fixture = await startIssuerFixture();
    try {
      const create = (url: string) =>
        fixture.api("POST", "/api/credential/v1", {
          credentialSchemaId: fixture.schema.id,
          issuer: fixture.didIdentifierId,
          protocol: "OPENID4VCI_FINAL1",
          claimValues: toClaimValues(CLAIMS, fixture.schema.claimIds),
          webhookDestinationUrl: url,
        });
      for (const url of ["http://hooks.example/x", "mqtt://broker.example/topic"]) {
        const refused = await create(url);
        expect(refused.status).toBe(400);
        expect(refused.json.code).toBe("BR_0370");
        expect(refused.json.cause.message).toContain("allowInsecureHttpTransport");
      }
      expect((await create("https://hooks.example/x")).status).toBe(201);
      expect((await create("mqtts://broker.example:8883/credkit")).status).toBe(201);
    } finally {
      await fixture.close();
    }
  });

  it("allowedHosts admits exact hosts, wildcard subdomains and IPs only, for credentials and proof requests", async () => {
    const fixture = await startIssuerFixture({
      config: webhookConfig({ allowedHosts: ["hooks.example.com", "*.corp.example", "10.0.0.7"] }),
    });
    try {
      const credential = (url: string) =>
        fixture.api("POST", "/api/credential/v1", {
          credentialSchemaId: fixture.schema.id,
          issuer: fixture.didIdentifierId,
          protocol: "OPENID4VCI_FINAL1",
          claimValues: toClaimValues(CLAIMS, fixture.schema.claimIds),
          webhookDestinationUrl: url,
        });
      for (const ok of ["https://hooks.example.com/x", "http://a.b.corp.example/x", "mqtt://10.0.0.7:1883/t"])
        expect((await credential(ok)).status).toBe(201);
      for (const refused of ["https://corp.example/x", "https://evil.example.com/x", "mqtts://10.0.0.8/t"]) {
        const response = await credential(refused);
        expect(response.status).toBe(400);
        expect(response.json.code).toBe("BR_0369");
      }
      const schema = await fixture.api("POST", "/api/proof-schema/v1", {
        name: "allowed hosts",
        organisationId: fixture.organisationId,
        proofInputSchemas: [
          {
            credentialSchemaId: fixture.schema.id,
            claimSchemas: [{ id: fixture.schema.claimIds.given_name, required: true }],
          },
        ],
      });
      const proof = (url: string) =>
        fixture.api("POST", "/api/proof-request/v1", {
          proofSchemaId: schema.json.id,
          protocol: "OPENID4VP_FINAL1",
          webhookDestinationUrl: url,
        });
      const proofsBefore = (
        await fixture.api("GET", `/api/proof-request/v1?page=0&pageSize=1&organisationId=${fixture.organisationId}`)
      ).json.totalItems;
      const refused = await proof("https://evil.example.com/x");
      expect(refused.status).toBe(400);
      expect(refused.json.code).toBe("BR_0369");
      expect(
        (await fixture.api("GET", `/api/proof-request/v1?page=0&pageSize=1&organisationId=${fixture.organisationId}`))
          .json.totalItems,
      ).toBe(proofsBefore);
      expect((await proof("https://x.corp.example/hook")).status).toBe(201);
    } finally {
      await fixture.close();
    }
  });
});

describe("crash safety", () => {
  it("a process SIGKILLed right after the state changes still delivers them after restart, exactly once", async () => {
    const receiver = await startWebhookReceiver();
    const dir = createTempDir("credkit-crash-");
    const file = join(dir.path, "issuer.db");
    try {
      const child = spawn(
        process.execPath,
        ["--import", "tsx", join(ROOT, "test/support/webhook-crash-child.ts"), file, `${receiver.origin}/crash`],
        { cwd: ROOT, env: { ...process.env, NODE_OPTIONS: "" }, stdio: ["ignore", "pipe", "pipe"] },
      );
      let out = "";
      child.stderr.on("data", (chunk) => {
        out += chunk;
      });
      const exited = new Promise<NodeJS.Signals | null>((done) => child.on("exit", (_code, signal) => done(signal)));
      const credentialId = await new Promise<string>((found, fail) => {
        child.stdout.on("data", (chunk) => {
          out += chunk;
          const match = /READY (\S+)/.exec(out);
          if (match) {
            child.kill("SIGKILL");
            found(match[1]!);
          }
        });
        child.on("exit", () => fail(new Error(`child exited before READY: ${out}`)));
      });
      expect(await exited).toBe("SIGKILL");
      expect(receiver.received).toHaveLength(0);

      // restart: a new process on the same file runs the task
      const restarted = await createTestKit({ storage: await sqliteStorage(file), config: webhookConfig() });
      try {
        expect(await restarted.tasks.run("WEBHOOK_NOTIFY")).toMatchObject({ attempted: 2, delivered: 2 });
        expect(await restarted.tasks.run("WEBHOOK_NOTIFY")).toMatchObject({ attempted: 0 });
      } finally {
        await restarted.close();
      }
      expect(receiver.on("/crash").map((r) => r.body)).toEqual([
        { credentialId, status: "ACCEPTED", eventTimestamp: expect.any(String) },
        { credentialId, status: "REVOKED", eventTimestamp: expect.any(String) },
      ]);
    } finally {
      dir.remove();
      await receiver.close();
    }
  }, 60_000);
});

describeOnStorage(POSTGRES_CASE, "two credkits on one PostgreSQL", () => {
  it("deliver 1,000 notifications, each exactly once", async () => {
    const database = await createTestDatabase();
    const receiver = await startWebhookReceiver();
    receiver.answer("/bulk", { status: 200, delayMs: 1 });
    const kits: Credkit[] = [];
    try {
      for (let i = 0; i < 2; i++) {
        kits.push(
          await notificationKit({
            storage: await postgresStorage(database.url, { max: 5 }),
            notifications: { concurrency: 16 },
          }),
        );
      }
      const [a, b] = kits as [Credkit, Credkit];
      const ids: string[] = [];
      for (let chunk = 0; chunk < 20; chunk++) {
        const rows = Array.from({ length: 50 }, () =>
          credentialRow({ webhookDestinationUrl: `${receiver.origin}/bulk` }),
        );
        ids.push(...rows.map((r) => r.id));
        await Promise.all(rows.map((row) => a.storage.credentials.insert(row)));
        // state changes through either kit
        await Promise.all(
          rows.map((row, i) => (i % 2 ? a : b).storage.credentials.update(row.id, { state: "REVOKED" })),
        );
      }
      expect(await a.storage.notifications.count({ op: "eq", column: "state", value: "PENDING" })).toBe(1000);

      // both run the task repeatedly, concurrently, until nothing is due
      const drain = async (kit: Credkit) => {
        let delivered = 0;
        for (;;) {
          const summary = (await kit.tasks.run("WEBHOOK_NOTIFY", { limit: 100 })) as {
            attempted: number;
            delivered: number;
          };
          delivered += summary.delivered;
          if (summary.attempted === 0) return delivered;
        }
      };
      const [byA, byB] = await Promise.all([drain(a), drain(b)]);
      expect(byA + byB).toBe(1000);
      console.info(`[webhooks] 1,000 notifications: ${byA} delivered by kit A, ${byB} by kit B`);

      const counts = new Map<string, number>();
      for (const r of receiver.on("/bulk")) counts.set(r.body.credentialId, (counts.get(r.body.credentialId) ?? 0) + 1);
      expect(counts.size).toBe(1000);
      expect([...counts.values()].every((n) => n === 1)).toBe(true);
      expect(new Set(ids)).toEqual(new Set(counts.keys()));
      expect(await a.storage.notifications.count({ op: "eq", column: "state", value: "DELIVERED" })).toBe(1000);
      expect(
        await a.storage.history.count({
          op: "and",
          conditions: [
            { op: "eq", column: "entityType", value: "NOTIFICATION" },
            { op: "eq", column: "action", value: "DELIVERED" },
          ],
        }),
      ).toBe(1000);
    } finally {
      for (const kit of kits) {
        await kit.close();
        await kit.storage.close();
      }
      await receiver.close();
      await database.drop();
    }
  }, 120_000);
});
