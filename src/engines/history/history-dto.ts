import type { HistoryEvent, HistoryMetadata } from "../../domain/history.js";

/** GET /api/history/v1 list item (reference §3.9) */
export interface HistoryListItemDto {
  id: string;
  createdDate: Date;
  action: string;
  name: string;
  entityId?: string;
  entityType: string;
  organisationId?: string;
  source: string;
  target?: string;
  user?: string;
  /** acting service of a delegated token (credkit extension) */
  actor?: string;
}

export interface HistoryDetailDto extends HistoryListItemDto {
  metadata?: HistoryMetadata;
}

export function toHistoryListItem(event: HistoryEvent): HistoryListItemDto {
  const { metadata: _metadata, ...rest } = event;
  return rest;
}

export function toHistoryDetail(event: HistoryEvent): HistoryDetailDto {
  return { ...event };
}
