import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import { type AddressInfo, createServer as createTcpServer, Socket } from "node:net";
import { join } from "node:path";
import aedes from "aedes";
import { connectAsync } from "mqtt";
import type { ConfigOverrides } from "../src/config/load-config.js";
import type { Credkit } from "../src/credkit.js";
import type { Credential } from "../src/domain/credential.js";
import { sqliteStorage } from "../src/storage/sql/sqlite.js";
import { createTestKit } from "../src/testing/create-test-kit.js";
import { createTempDir } from "../test/support/temp-dir.js";
import type { BenchRow } from "./bench-row.js";

// Webhook notifications from the outbox: state changes write notification rows (SQLite), then WEBHOOK_NOTIFY runs
// deliver them to a loopback HTTP receiver and over MQTT (Mosquitto on 127.0.0.1:1883 when it runs, else an
// in-process aedes broker). Each delivery row is next to the same number of bare POSTs / QoS 1 publishes at the same
// concurrency; the loss count (notifications not received) is part of the name and must be 0.

const CONCURRENCY = 32;
const MQTT_URL = process.env.CREDKIT_BENCH_MQTT_URL ?? "mqtt://127.0.0.1:1883";

const config: ConfigOverrides = {
  task: {
    WEBHOOK_NOTIFY: {
      params: {
        public: { allowInsecureHttpTransport: true },
        private: { requestTimeoutSeconds: 10, retries: null },
      },
    },
  },
};

function credentialRow(destination: string | undefined): Credential {
  const now = new Date();
  return {
    id: randomUUID(),
    organisationId: "00000000-0000-4000-8000-000000000000",
    credentialSchemaId: randomUUID(),
    role: "ISSUER",
    state: "OFFERED",
    protocol: "OPENID4VCI_FINAL1",
    claims: [],
    ...(destination !== undefined && { webhookDestinationUrl: destination }),
    createdDate: now,
    lastModified: now,
  };
}

/**
 * Inserts `count` OFFERED credentials and moves them to ACCEPTED through the kit's storage (the outbox decorator);
 * answers state changes per second.
 */
async function changeMany(
  kit: Credkit,
  count: number,
  destination: string | undefined,
): Promise<{ ids: string[]; perSec: number }> {
  const rows = Array.from({ length: count }, () => credentialRow(destination));
  for (const row of rows) await kit.storage.credentials.insert(row);
  const started = performance.now();
  for (const row of rows) await kit.storage.credentials.update(row.id, { state: "ACCEPTED", lastModified: new Date() });
  return { ids: rows.map((r) => r.id), perSec: count / ((performance.now() - started) / 1000) };
}

/** Runs WEBHOOK_NOTIFY until nothing is due; answers deliveries per second. */
async function drain(kit: Credkit, expected: number): Promise<number> {
  const started = performance.now();
  let delivered = 0;
  for (;;) {
    const summary = (await kit.tasks.run("WEBHOOK_NOTIFY")) as { attempted: number; delivered: number };
    delivered += summary.delivered;
    if (summary.attempted === 0) break;
  }
  if (delivered !== expected) throw new Error(`delivered ${delivered} of ${expected}`);
  return expected / ((performance.now() - started) / 1000);
}

/** Runs `task(i)` for i < count with `concurrency` in flight; answers operations per second. */
async function pooled(count: number, concurrency: number, task: (i: number) => Promise<unknown>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await task(next++);
    }),
  );
  return count / ((performance.now() - started) / 1000);
}

async function mqttBroker(): Promise<{ url: string; name: string; close: () => Promise<void> }> {
  const reachable = await new Promise<boolean>((resolve) => {
    const url = new URL(MQTT_URL);
    const socket = new Socket();
    socket.setTimeout(1000, () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", () => resolve(false));
    socket.connect(Number(url.port || 1883), url.hostname, () => {
      socket.destroy();
      resolve(true);
    });
  });
  if (reachable) return { url: MQTT_URL, name: "Mosquitto", close: async () => {} };
  const broker = aedes.createBroker();
  const server = createTcpServer(broker.handle);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return {
    url: `mqtt://127.0.0.1:${(server.address() as AddressInfo).port}`,
    name: "aedes in-process",
    close: () => new Promise<void>((resolve) => broker.close(() => server.close(() => resolve()))),
  };
}

/**
 * Notification throughput: the outbox write cost of a state change, and deliveries per second over HTTP and MQTT,
 * each with its raw floor.
 */
export async function benchNotifications(count = 2000): Promise<BenchRow[]> {
  const dir = createTempDir("credkit-bench-notify-");
  const kit = await createTestKit({
    storage: await sqliteStorage(join(dir.path, "notify.db")),
    config,
    notifications: { concurrency: CONCURRENCY, log: () => {} },
  });
  const received = new Set<string>();
  const receiver: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as { credentialId?: string };
      if (body.credentialId) received.add(body.credentialId);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", () => resolve()));
  const origin = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  const broker = await mqttBroker();
  const rows: BenchRow[] = [];
  try {
    // 1. state change with and without an outbox row
    const plain = await changeMany(kit, count, undefined);
    const http = await changeMany(kit, count, `${origin}/hook`);
    rows.push({
      name: "credential OFFERED -> ACCEPTED (SQLite): with its outbox notification vs without",
      opsPerSec: http.perSec,
      baselineOpsPerSec: plain.perSec,
      ratio: http.perSec / plain.perSec,
    });

    // 2. HTTP delivery from the outbox vs bare POSTs
    const httpRate = await drain(kit, count);
    const httpLost = http.ids.filter((id) => !received.has(id)).length;
    const bareHttp = await pooled(count, CONCURRENCY, async (i) => {
      const response = await fetch(`${origin}/bare`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          credentialId: `bare-${i}`,
          status: "ACCEPTED",
          eventTimestamp: new Date().toISOString(),
        }),
      });
      await response.body?.cancel();
    });
    rows.push({
      name: `WEBHOOK_NOTIFY over HTTP (loopback, ${count} from the outbox, lost ${httpLost})`,
      opsPerSec: httpRate,
      baselineOpsPerSec: bareHttp,
      ratio: httpRate / bareHttp,
    });

    // 3. MQTT delivery from the outbox vs bare QoS 1 publishes
    const topic = `credkit/bench/${randomUUID()}`;
    const subscriber = await connectAsync(broker.url, { reconnectPeriod: 0 }, false);
    const published = new Set<string>();
    subscriber.on("message", (_topic, payload) => {
      const body = JSON.parse(payload.toString("utf8")) as { credentialId?: string };
      if (body.credentialId) published.add(body.credentialId);
    });
    await subscriber.subscribeAsync(topic, { qos: 1 });
    const mqtt = await changeMany(kit, count, `${broker.url}/${topic}`);
    const mqttRate = await drain(kit, count);
    const deadline = Date.now() + 10_000;
    while (mqtt.ids.some((id) => !published.has(id)) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    const mqttLost = mqtt.ids.filter((id) => !published.has(id)).length;
    const publisher = await connectAsync(broker.url, { reconnectPeriod: 0 }, false);
    const bareMqtt = await pooled(count, CONCURRENCY, (i) =>
      publisher.publishAsync(`${topic}/bare`, JSON.stringify({ credentialId: `bare-${i}` }), { qos: 1 }),
    );
    await publisher.endAsync();
    await subscriber.endAsync();
    rows.push({
      name: `WEBHOOK_NOTIFY over MQTT QoS 1 (${broker.name}, ${count} from the outbox, lost ${mqttLost})`,
      opsPerSec: mqttRate,
      baselineOpsPerSec: bareMqtt,
      ratio: mqttRate / bareMqtt,
    });
    return rows;
  } finally {
    await kit.close();
    await kit.storage.close();
    await broker.close();
    await new Promise<void>((resolve) => {
      receiver.closeAllConnections();
      receiver.close(() => resolve());
    });
    dir.remove();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { formatBenchTable } = await import("./bench-row.js");
  console.log(formatBenchTable(await benchNotifications()));
}
