import { CredkitError } from "../errors/credkit-error.js";
import type { ProofState } from "./enums.js";

export type ProofTransition = "share" | "request" | "accept" | "fail" | "reject" | "expire" | "retract";

const ALLOWED: Record<ProofTransition, { from: readonly ProofState[]; to: ProofState }> = {
  share: { from: ["CREATED", "PENDING", "INTERACTION_EXPIRED"], to: "PENDING" },
  request: { from: ["PENDING"], to: "REQUESTED" },
  accept: { from: ["PENDING", "REQUESTED"], to: "ACCEPTED" },
  fail: { from: ["CREATED", "PENDING", "REQUESTED"], to: "ERROR" },
  reject: { from: ["PENDING", "REQUESTED"], to: "REJECTED" },
  expire: { from: ["PENDING"], to: "INTERACTION_EXPIRED" },
  retract: { from: ["REQUESTED"], to: "RETRACTED" },
};

export function proofStatesAllowing(transition: ProofTransition): readonly ProofState[] {
  return ALLOWED[transition].from;
}

/** Target state, or BR_0013 "Proof state invalid" when the transition does not apply. */
export function transitionProof(state: ProofState, transition: ProofTransition): ProofState {
  const rule = ALLOWED[transition];
  if (!rule.from.includes(state)) throw new CredkitError("BR_0013", `cannot ${transition} a proof in state ${state}`);
  return rule.to;
}
