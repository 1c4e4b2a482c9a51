import type { HistoryAction, HistoryEntityType } from "../../domain/enums.js";
import type { HistoryEvent, HistoryMetadata } from "../../domain/history.js";
import type { StorageRepositories } from "../../ports/storage.js";
import type { CallContext } from "../common/call-context.js";
import type { EngineDeps } from "../common/engine-deps.js";

export interface HistoryEntry {
  action: HistoryAction;
  entityType: HistoryEntityType;
  entityId?: string;
  name: string;
  organisationId?: string;
  target?: string;
  metadata?: HistoryMetadata;
}

/**
 * Writes one history record through `storage`: pass the transaction's repositories so the record commits (or rolls
 * back) together with the change it describes.
 */
export async function recordHistory(
  deps: Pick<EngineDeps, "clock" | "newId">,
  storage: StorageRepositories,
  context: CallContext,
  entry: HistoryEntry,
): Promise<HistoryEvent> {
  const event: HistoryEvent = {
    id: deps.newId(),
    createdDate: deps.clock.now(),
    source: "CORE",
    ...entry,
    ...(context.user !== undefined ? { user: context.user } : {}),
    ...(context.actor !== undefined ? { actor: context.actor } : {}),
  };
  await storage.history.insert(event);
  return event;
}
