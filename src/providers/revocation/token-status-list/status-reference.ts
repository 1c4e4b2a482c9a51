import { CredkitError } from "../../../errors/index.js";

/** `status.status_list` of a Referenced Token (draft-ietf-oauth-status-list §6.2). */
export interface StatusListReference {
  /** non-negative index of the token's entry in the Status List */
  idx: number;
  /** URI of the Status List Token; equals its `sub` */
  uri: string;
}

/** The `status` claim value for a Referenced Token: `{status_list: {idx, uri}}` (§6.1, §6.2). */
export function createStatusClaim(reference: StatusListReference): { status_list: StatusListReference } {
  return { status_list: checkReference(reference.idx, reference.uri) };
}

/**
 * Reads `status.status_list` from a Referenced Token's `status` claim value (§6.2; §8.3 step 1). Other status
 * mechanisms in the same object are ignored. Throws BR_0101 when the claim has no valid status_list reference.
 */
export function parseStatusClaim(status: unknown): StatusListReference {
  if (!isObject(status)) throw new CredkitError("BR_0101", "status claim must be a JSON object (§6.2)");
  const reference = status.status_list;
  if (!isObject(reference)) throw new CredkitError("BR_0101", "status claim has no status_list object (§6.2)");
  return checkReference(reference.idx, reference.uri);
}

function checkReference(idx: unknown, uri: unknown): StatusListReference {
  if (typeof idx !== "number" || !Number.isSafeInteger(idx) || idx < 0) {
    throw new CredkitError(
      "BR_0101",
      `status_list.idx must be a non-negative integer (§6.2), got ${JSON.stringify(idx) ?? "nothing"}`,
    );
  }
  if (typeof uri !== "string" || !URL.canParse(uri)) {
    throw new CredkitError("BR_0101", `status_list.uri must be a URI (§6.2), got ${JSON.stringify(uri) ?? "nothing"}`);
  }
  return { idx, uri };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
