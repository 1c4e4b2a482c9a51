import { CredkitError } from "../errors/credkit-error.js";
import type { CredentialState } from "./enums.js";

/** Operations of reference §8 that move an issued credential between lifecycle states. */
export type CredentialTransition =
  | "share"
  | "offer"
  | "issue"
  | "fail"
  | "expire"
  | "revoke"
  | "suspend"
  | "reactivate"
  | "reject";

const ALLOWED: Record<CredentialTransition, { from: readonly CredentialState[]; to: CredentialState }> = {
  share: { from: ["CREATED", "PENDING", "INTERACTION_EXPIRED"], to: "PENDING" },
  offer: { from: ["PENDING"], to: "OFFERED" },
  issue: { from: ["OFFERED"], to: "ACCEPTED" },
  fail: { from: ["PENDING", "OFFERED", "ACCEPTED", "SUSPENDED", "REVOKED"], to: "ERROR" },
  expire: { from: ["PENDING"], to: "INTERACTION_EXPIRED" },
  revoke: { from: ["ACCEPTED", "SUSPENDED"], to: "REVOKED" },
  suspend: { from: ["ACCEPTED"], to: "SUSPENDED" },
  reactivate: { from: ["SUSPENDED"], to: "ACCEPTED" },
  reject: { from: ["ACCEPTED", "SUSPENDED", "REVOKED", "PENDING", "OFFERED"], to: "REJECTED" },
};

/** States a credential may be in for the transition to apply. */
export function credentialStatesAllowing(transition: CredentialTransition): readonly CredentialState[] {
  return ALLOWED[transition].from;
}

/** Target state of a transition, or BR_0366 (BR_0002 for share) when the current state does not allow it. */
export function transitionCredential(state: CredentialState, transition: CredentialTransition): CredentialState {
  const rule = ALLOWED[transition];
  if (!rule.from.includes(state)) {
    throw new CredkitError(
      transition === "share" ? "BR_0002" : "BR_0366",
      `cannot ${transition} a credential in state ${state}`,
    );
  }
  return rule.to;
}
