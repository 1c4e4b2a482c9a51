import type { Interaction } from "../../../domain/interaction.js";
import type { Proof } from "../../../domain/proof.js";
import type { CallContext } from "../../common/call-context.js";
import type { EngineDeps } from "../../common/engine-deps.js";
import { recordHistory } from "../../history/record-history.js";

export interface OpenHolderProofInput {
  proofId: string;
  organisationId: string;
  /** verificationProtocol instance answering the request */
  protocol: string;
  /** the stored request (OpenID4VP 1.0 or draft 20 wallet data) */
  data: unknown;
  /** the request object's `exp` */
  expiresAt?: Date;
  /** recorded as the history entry's name */
  clientId: string;
}

/** Stores a received presentation request: its interaction and a HOLDER proof in state REQUESTED (history REQUESTED). */
export async function openHolderProof(
  deps: Pick<EngineDeps, "storage" | "clock" | "newId">,
  context: CallContext,
  input: OpenHolderProofInput,
): Promise<{ interactionId: string; interactionType: "VERIFICATION"; proofId: string; protocol: string }> {
  const now = deps.clock.now();
  const interaction: Interaction = {
    id: deps.newId(),
    organisationId: input.organisationId,
    interactionType: "VERIFICATION",
    protocol: input.protocol,
    data: input.data,
    ...(input.expiresAt !== undefined && { expiresAt: input.expiresAt }),
    createdDate: now,
    lastModified: now,
  };
  const proof: Proof = {
    id: input.proofId,
    organisationId: input.organisationId,
    role: "HOLDER",
    state: "REQUESTED",
    protocol: input.protocol,
    interactionId: interaction.id,
    transport: "HTTP",
    requestedDate: now,
    createdDate: now,
    lastModified: now,
  };
  await deps.storage.transaction(async (tx) => {
    await tx.interactions.insert(interaction);
    await tx.proofs.insert(proof);
    await recordHistory(deps, tx, context, {
      action: "REQUESTED",
      entityType: "PROOF",
      entityId: proof.id,
      name: input.clientId.slice(0, 255),
      organisationId: input.organisationId,
    });
  });
  return {
    interactionId: interaction.id,
    interactionType: "VERIFICATION",
    proofId: proof.id,
    protocol: input.protocol,
  };
}
