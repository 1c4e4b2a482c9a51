import type { ProofState } from "../../domain/enums.js";
import type { Proof } from "../../domain/proof.js";
import { CredkitError } from "../../errors/credkit-error.js";
import type { CallContext } from "../common/call-context.js";
import type { EngineDeps } from "../common/engine-deps.js";
import { recordHistory } from "../history/record-history.js";

export interface VerifierRequestStart {
  proof: Proof;
  /** the state share() moves the proof to */
  next: ProofState;
  interactionId: string;
  /** the protocol's request data kept in the interaction */
  data: unknown;
  expiresAt: Date;
  /** proof schema name, for history */
  name: string;
  now: Date;
}

/**
 * Shares a proof request (any OpenID4VP version): in one transaction the proof moves to `next` with the new
 * interaction (replacing an earlier one; a stale expiry reason is cleared), and history records SHARED. A concurrent
 * share of the same proof loses with BR_0013.
 */
export async function startVerifierRequest(
  deps: Pick<EngineDeps, "storage" | "clock" | "newId">,
  context: CallContext,
  start: VerifierRequestStart,
): Promise<void> {
  const { proof, next, interactionId, data, expiresAt, name, now } = start;
  await deps.storage.transaction(async (tx) => {
    const changed = await tx.proofs.update(
      proof.id,
      { state: next, interactionId, requestedDate: now, errorReason: undefined, lastModified: now },
      { where: { op: "eq", column: "state", value: proof.state } },
    );
    if (!changed) throw new CredkitError("BR_0013", "the proof request changed state concurrently");
    if (proof.interactionId) await tx.interactions.delete(proof.interactionId);
    await tx.interactions.insert({
      id: interactionId,
      organisationId: proof.organisationId,
      interactionType: "VERIFICATION",
      protocol: proof.protocol,
      data,
      expiresAt,
      createdDate: now,
      lastModified: now,
    });
    await recordHistory(deps, tx, context, {
      action: "SHARED",
      entityType: "PROOF",
      entityId: proof.id,
      name,
      organisationId: proof.organisationId,
    });
  });
}
