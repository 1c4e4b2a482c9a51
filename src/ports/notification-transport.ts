/** One delivery attempt: the body goes to `destination` as JSON (HTTP POST body / MQTT payload). */
export interface NotificationDelivery {
  destination: URL;
  body: unknown;
  /** HTTP: how long to wait for the response; MQTT: connection timeout and how long to wait for the PUBACK */
  timeoutMs: number;
}

/**
 * Result of one attempt (platform spec §6.2). `retryable` failures are attempted again when the task has retries
 * configured (HTTP 404, 5xx, no response in time; MQTT no connection or no PUBACK in time); the others are final
 * (HTTP 3xx and 4xx other than 404).
 */
export type DeliveryOutcome =
  | { delivered: true; detail: string }
  | { delivered: false; retryable: boolean; errorCode: DeliveryErrorCode; message: string };

/** BR codes recorded in history (ErrorMetadata.errorCode) for failed attempts. */
export type DeliveryErrorCode =
  /** remote HTTP request failed (5xx, 3xx) */
  | "BR_0347"
  /** no HTTP response (connection refused, timeout) */
  | "BR_0348"
  /** MQTT failure (no connection, no PUBACK) */
  | "BR_0349"
  /** remote HTTP request status failure (4xx) */
  | "BR_0395"
  /** the destination is no longer allowed by the configuration */
  | "BR_0369"
  | "BR_0370"
  | "BR_0371";

/** Delivers webhook notifications over one family of URL schemes (HTTP POST, MQTT publish, …). */
export interface NotificationTransport {
  /** URL protocols handled, with the colon: `http:`, `https:`, `mqtt:`, `mqtts:` */
  readonly protocols: readonly string[];
  /** one attempt; never throws for a delivery failure (answers it) */
  deliver(delivery: NotificationDelivery): Promise<DeliveryOutcome>;
  /** releases pooled connections */
  close?(): Promise<void>;
}
