import { z } from "zod";
import type { CredkitConfig } from "../../config/schema.js";
import { CredkitError } from "../../errors/credkit-error.js";

// Configuration of webhook notifications (platform spec §6.3): a WEBHOOK_NOTIFY task instance under `task`, referenced
// by a protocol's public `webhookTask`. Destination rules (allowedHosts, allowInsecureHttpTransport) are public params
// of the task, falling back to the protocol's; delivery params (timeout, retries) are the task's.

export type ProtocolBlock = "issuanceProtocol" | "verificationProtocol";

/** Name of the enabled WEBHOOK_NOTIFY task a protocol instance refers to with `webhookTask`, if any. */
export function webhookTaskOf(config: CredkitConfig, block: ProtocolBlock, protocol: string): string | undefined {
  const entry = config[block][protocol];
  const name = entry?.params.public.webhookTask;
  if (typeof name !== "string") return undefined;
  const task = config.task[name];
  return task?.enabled && task.type === "WEBHOOK_NOTIFY" ? name : undefined;
}

export interface DestinationPolicy {
  /** exact hosts, `*.example.com` wildcards and IP addresses; undefined allows every host */
  allowedHosts?: readonly string[];
  /** allows plain `http:` and `mqtt:` */
  allowInsecureHttpTransport: boolean;
}

const policyParamsSchema = z.object({
  allowedHosts: z.array(z.string().min(1)).optional(),
  allowInsecureHttpTransport: z.boolean().optional(),
});

/** Destination rules of a task (its public params), each falling back to the protocol's public params. */
export function destinationPolicy(config: CredkitConfig, taskName: string, block: ProtocolBlock, protocol: string) {
  const read = (params: Record<string, unknown> | undefined, where: string) => {
    const parsed = policyParamsSchema.safeParse(params ?? {});
    if (!parsed.success)
      throw new CredkitError(
        "BR_0051",
        `${where}: allowedHosts must be a list of hosts, allowInsecureHttpTransport a boolean`,
      );
    return parsed.data;
  };
  const task = read(config.task[taskName]?.params.public, `task.${taskName}.params.public`);
  const fallback = read(config[block][protocol]?.params.public, `${block}.${protocol}.params.public`);
  const allowedHosts = task.allowedHosts ?? fallback.allowedHosts;
  return {
    ...(allowedHosts !== undefined && { allowedHosts }),
    allowInsecureHttpTransport: task.allowInsecureHttpTransport ?? fallback.allowInsecureHttpTransport ?? false,
  } satisfies DestinationPolicy;
}

/** How a WEBHOOK_NOTIFY task delivers (platform spec §6.3, with the earlier parameter names). */
export interface DeliverySettings {
  /** HTTP response timeout, MQTT connection and PUBACK timeout */
  timeoutMs: number;
  /** total attempts before permanent failure (1 when no retries are configured) */
  maxAttempts: number;
  /** minimum time between the first failure and the next attempt */
  intervalMs: number;
  /** multiplier applied to the interval after each retry */
  exponentialFactor: number;
}

const DEFAULT_TIMEOUT_SECONDS = 30;
const DEFAULT_MAX_ATTEMPTS_WITH_RETRIES = 5;

const positiveSeconds = z.number().positive();
const deliveryParamsSchema = z.object({
  requestTimeoutSeconds: positiveSeconds.optional(),
  requestTimeout: positiveSeconds.optional(),
  retries: z
    .object({
      intervalSeconds: z.number().min(0).optional(),
      interval: z.number().min(0).optional(),
      maxAttempts: z.number().int().min(1).optional(),
      exponentialFactor: z.number().min(1).optional(),
    })
    .optional(),
});

/** Delivery settings of a WEBHOOK_NOTIFY task from its params (public and private merged); BR_0405 when invalid. */
export function deliverySettings(config: CredkitConfig, taskName: string): DeliverySettings {
  const entry = config.task[taskName];
  const parsed = deliveryParamsSchema.safeParse({ ...entry?.params.public, ...entry?.params.private });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new CredkitError(
      "BR_0405",
      `task ${taskName}: params.${issue?.path.join(".") ?? "?"} ${issue?.message ?? "is invalid"}`,
    );
  }
  const params = parsed.data;
  const retries = params.retries;
  return {
    timeoutMs: (params.requestTimeoutSeconds ?? params.requestTimeout ?? DEFAULT_TIMEOUT_SECONDS) * 1000,
    maxAttempts: retries === undefined ? 1 : (retries.maxAttempts ?? DEFAULT_MAX_ATTEMPTS_WITH_RETRIES),
    intervalMs: (retries?.intervalSeconds ?? retries?.interval ?? 0) * 1000,
    exponentialFactor: retries?.exponentialFactor ?? 1,
  };
}

/** Delay before the attempt that follows failed attempt number `attempts` (1-based): interval × factor^(attempts−1). */
export function retryDelayMs(settings: DeliverySettings, attempts: number): number {
  return settings.intervalMs * settings.exponentialFactor ** Math.max(0, attempts - 1);
}
