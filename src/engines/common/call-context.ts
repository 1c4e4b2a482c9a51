/**
 * Who is calling an engine. In STS mode the HTTP layer fills `organisationId` from the token: every read is then
 * confined to that organisation (others' entities are "not found") and writes default to it. Direct SDK callers may
 * pass nothing (full access, like UNSAFE_NONE).
 */
export interface CallContext {
  organisationId?: string;
  /** user id recorded in history (STS `sub`) */
  user?: string;
  /** acting service of a delegated token (STS `act.sub`) */
  actor?: string;
}

export const UNSCOPED: CallContext = Object.freeze({});
