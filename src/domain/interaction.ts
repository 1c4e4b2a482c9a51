import type { InteractionType } from "./enums.js";

/** An issuance or presentation exchange in flight, with the protocol's own state as opaque JSON. */
export interface Interaction {
  id: string;
  organisationId?: string;
  interactionType: InteractionType;
  protocol: string;
  data: unknown;
  /** SHA-256 (base64url) of the access token issued for this exchange */
  accessTokenHash?: string;
  accessTokenExpiresAt?: Date;
  /** failed transaction-code attempts (bounded) */
  txCodeAttempts?: number;
  expiresAt?: Date;
  createdDate: Date;
  lastModified: Date;
}
