import type { InteractionType } from "./enums.js";

/** An issuance or presentation exchange in flight, with the protocol's own state as opaque JSON. */
export interface Interaction {
  id: string;
  organisationId?: string;
  interactionType: InteractionType;
  protocol: string;
  data: unknown;
  expiresAt?: Date;
  createdDate: Date;
  lastModified: Date;
}
