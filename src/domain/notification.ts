/** Delivery state of one webhook notification in the outbox. */
export const NOTIFICATION_STATES = ["PENDING", "DELIVERED", "FAILED"] as const;
export type NotificationState = (typeof NOTIFICATION_STATES)[number];

/** What a notification is about. */
export const NOTIFICATION_ENTITY_TYPES = ["CREDENTIAL", "PROOF"] as const;
export type NotificationEntityType = (typeof NOTIFICATION_ENTITY_TYPES)[number];

/** Credential states whose entry emits a notification (spec §6.1; REJECTED as One Core's notification decorator). */
export const CREDENTIAL_NOTIFICATION_STATES = ["ACCEPTED", "SUSPENDED", "REVOKED", "ERROR", "REJECTED"] as const;
/** Proof request states whose entry emits a notification (spec §6.1). */
export const PROOF_NOTIFICATION_STATES = ["ACCEPTED", "REJECTED", "ERROR"] as const;

/** The delivered payload (spec §6.1): exactly one of credentialId / proofId, the new status, RFC 3339 time. */
export interface NotificationBody {
  credentialId?: string;
  proofId?: string;
  status: string;
  eventTimestamp: string;
}

/** One webhook notification, written in the same transaction as the state change it reports (the outbox). */
export interface Notification {
  id: string;
  organisationId: string;
  entityType: NotificationEntityType;
  entityId: string;
  /** the state the entity entered */
  status: string;
  /** webhookDestinationUrl of the entity: http(s)://… or mqtt(s)://host[:port]/topic */
  destination: string;
  /** WEBHOOK_NOTIFY task instance that delivers it */
  taskName: string;
  body: NotificationBody;
  /** delivery attempts made so far */
  attempts: number;
  /** earliest time of the next attempt (PENDING only) */
  nextAttemptAt: Date;
  state: NotificationState;
  lastError?: string;
  /** delivery worker holding the claim, until `claimedUntil` */
  claimedBy?: string;
  claimedUntil?: Date;
  createdDate: Date;
  lastModified: Date;
}
