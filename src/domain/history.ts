import type { HistoryAction, HistoryEntityType, HistorySource } from "./enums.js";

export type HistoryMetadata =
  | { UnexportableEntities: Record<string, unknown> }
  | { ErrorMetadata: { errorCode: string; message: string } }
  | { WalletUnitJWT: string }
  | { External: unknown };

export interface HistoryEvent {
  id: string;
  createdDate: Date;
  action: HistoryAction;
  name: string;
  entityId?: string;
  entityType: HistoryEntityType;
  organisationId?: string;
  source: HistorySource;
  target?: string;
  /** user id (STS `sub`); for delegated tokens the actor is kept in `actor` */
  user?: string;
  actor?: string;
  metadata?: HistoryMetadata;
}
