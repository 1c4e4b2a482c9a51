import { randomBytes } from "node:crypto";
import { connect, type MqttClient } from "mqtt";
import type {
  DeliveryOutcome,
  NotificationDelivery,
  NotificationTransport,
} from "../../ports/notification-transport.js";

/** The topic of an `mqtt(s)://host[:port]/topic` destination (the path without its leading slash, decoded). */
export function mqttTopicOf(destination: URL): string {
  return decodeURIComponent(destination.pathname.replace(/^\//, ""));
}

/**
 * Webhook delivery by MQTT publish, QoS 1, to `mqtt(s)://[user:password@]host[:port]/topic` (platform spec §6.2):
 * delivered on PUBACK; no connection within the timeout or no PUBACK within it is a retryable failure. One connection
 * per broker is kept open and shared by concurrent deliveries; a failed one is dropped and opened anew next time.
 */
export function mqttNotificationTransport(options: { clientIdPrefix?: string } = {}): NotificationTransport {
  const connections = new Map<string, Promise<MqttClient>>();
  const prefix = options.clientIdPrefix ?? "credkit";

  function brokerKey(destination: URL): string {
    return `${destination.protocol}//${destination.username}:${destination.password}@${destination.host}`;
  }

  function connection(destination: URL, timeoutMs: number): Promise<MqttClient> {
    const key = brokerKey(destination);
    let pending = connections.get(key);
    if (pending === undefined) {
      const broker = new URL(destination.href);
      broker.pathname = "";
      const client = connect(broker.href, {
        clientId: `${prefix}-${randomBytes(6).toString("hex")}`,
        connectTimeout: timeoutMs,
        reconnectPeriod: 0,
        clean: true,
        ...(destination.username !== "" && { username: decodeURIComponent(destination.username) }),
        ...(destination.password !== "" && { password: decodeURIComponent(destination.password) }),
      });
      // failures surface through the promise below and the "close" event; an unobserved "error" event must never
      // take the process down
      client.on("error", () => {});
      const connecting: Promise<MqttClient> = new Promise((resolve, reject) => {
        const settle = (error?: Error) => {
          client.off("connect", onConnect);
          client.off("error", onError);
          client.off("close", onClose);
          if (error === undefined) return resolve(client);
          client.end(true);
          reject(error);
        };
        const onConnect = () => settle();
        const onError = (error: Error) => settle(error);
        const onClose = () => settle(new Error("connection closed before CONNACK"));
        client.once("connect", onConnect);
        client.on("error", onError);
        client.on("close", onClose);
      });
      pending = connecting.then(() => {
        client.on("close", () => {
          if (connections.get(key) === pending) connections.delete(key);
        });
        return client;
      });
      pending.catch(() => {
        if (connections.get(key) === pending) connections.delete(key);
      });
      connections.set(key, pending);
    }
    return withTimeout(pending, timeoutMs, `no connection to ${destination.host} within ${timeoutMs / 1000} s`);
  }

  return {
    protocols: ["mqtt:", "mqtts:"],
    async deliver({ destination, body, timeoutMs }: NotificationDelivery): Promise<DeliveryOutcome> {
      let client: MqttClient;
      try {
        client = await connection(destination, timeoutMs);
      } catch (error) {
        return {
          delivered: false,
          retryable: true,
          errorCode: "BR_0349",
          message: `MQTT broker ${destination.host} unreachable: ${(error as Error).message}`,
        };
      }
      try {
        await withTimeout(
          client.publishAsync(mqttTopicOf(destination), JSON.stringify(body), { qos: 1 }),
          timeoutMs,
          `no PUBACK from ${destination.host} within ${timeoutMs / 1000} s`,
        );
        return { delivered: true, detail: "PUBACK" };
      } catch (error) {
        // a connection that lost a PUBACK is not trusted again (its "close" removes it from the pool)
        client.end(true);
        return { delivered: false, retryable: true, errorCode: "BR_0349", message: (error as Error).message };
      }
    },
    async close() {
      const all = [...connections.values()];
      connections.clear();
      await Promise.all(
        all.map((pending) =>
          pending.then(
            (client) => client.endAsync(true).catch(() => {}),
            () => {},
          ),
        ),
      );
    },
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
