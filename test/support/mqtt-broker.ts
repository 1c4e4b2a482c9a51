import type { AddressInfo } from "node:net";
import { createServer, type Server, Socket } from "node:net";
import aedes from "aedes";
import { connectAsync } from "mqtt";

// MQTT for the webhook suites: the Mosquitto broker the CI job runs (TEST_MQTT_URL, default
// mqtt://127.0.0.1:1883); where none runs, an in-process aedes broker (said so on the console). In CI Mosquitto is
// required.

export const MQTT_URL = process.env.TEST_MQTT_URL ?? "mqtt://127.0.0.1:1883";

async function probe(): Promise<string | undefined> {
  const url = new URL(MQTT_URL);
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (failure: string | undefined) => {
      socket.destroy();
      resolve(failure);
    };
    socket.setTimeout(2000, () => done("timeout"));
    socket.once("error", (error) => done(error.message));
    socket.connect(Number(url.port || 1883), url.hostname, () => done(undefined));
  });
}

const failure = await probe();
if (failure !== undefined) {
  if (process.env.CI === "true") {
    throw new Error(`Mosquitto is required in CI but not reachable at ${MQTT_URL}: ${failure}`);
  }
  console.warn(
    `\n[credkit tests] no MQTT broker at ${MQTT_URL} (${failure}): the MQTT webhook tests use an in-process aedes ` +
      "broker instead. Start Mosquitto or set TEST_MQTT_URL to test against it; with CI=true it is required.\n",
  );
}

/** Which broker the suites talk to. */
export const mqttBrokerKind: "mosquitto" | "aedes" = failure === undefined ? "mosquitto" : "aedes";
/** Whether the MQTT suites run (always: Mosquitto, or aedes in-process). */
export const mqttAvailable = true;

export interface AedesBroker {
  url: string;
  close(): Promise<void>;
}

/**
 * An in-process aedes broker on a loopback port. `withholdPuback` makes it accept publishes without ever
 * acknowledging them (a broker that loses the PUBACK).
 */
export async function startAedesBroker(options: { withholdPuback?: boolean } = {}): Promise<AedesBroker> {
  const broker = aedes.createBroker(
    options.withholdPuback ? { authorizePublish: (_client, _packet, _callback) => {} } : {},
  );
  const server: Server = createServer(broker.handle);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const url = `mqtt://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        broker.close(() => server.close(() => resolve()));
      }),
  };
}

export interface MqttTestBroker {
  /** mqtt://host:port of the broker */
  url: string;
  /** subscribes (QoS 1) to `topic` and collects the JSON payloads published there */
  subscribe(topic: string): Promise<{ messages: unknown[]; close(): Promise<void> }>;
  close(): Promise<void>;
}

/** The suite's broker: Mosquitto when it runs, else an in-process aedes broker. */
export async function startMqttTestBroker(): Promise<MqttTestBroker> {
  const aedes = mqttBrokerKind === "aedes" ? await startAedesBroker() : undefined;
  const url = aedes?.url ?? MQTT_URL;
  return {
    url,
    async subscribe(topic) {
      const client = await connectAsync(url, { reconnectPeriod: 0, connectTimeout: 5000 }, false);
      const messages: unknown[] = [];
      client.on("message", (received, payload) => {
        if (received !== topic) return;
        try {
          messages.push(JSON.parse(payload.toString("utf8")));
        } catch {
          messages.push(payload.toString("utf8"));
        }
      });
      await client.subscribeAsync(topic, { qos: 1 });
      return { messages, close: () => client.endAsync(true) };
    },
    close: async () => {
      await aedes?.close();
    },
  };
}

/** A loopback port where nothing listens (connection refused). */
export async function unusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
