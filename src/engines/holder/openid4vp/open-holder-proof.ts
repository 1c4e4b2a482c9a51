import type { Interaction } from "../../../domain/interaction.js";
import type { Proof } from "../../../domain/proof.js";
import type { ProofTrustInformation } from "../../../domain/trust-information.js";
import { CredkitError } from "../../../errors/credkit-error.js";
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
  /** the verifier's trust information (`verifier_info`) as evaluated, when the request carried some */
  trustInformation?: ProofTrustInformation;
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
    ...(input.trustInformation !== undefined && { trustInformation: input.trustInformation }),
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

/** The verifier did not take the answer: the HOLDER proof ends in ERROR with the reason; the error is rethrown. */
export async function failHolderProof(
  deps: Pick<EngineDeps, "storage" | "clock" | "newId">,
  context: CallContext,
  proof: Proof,
  clientId: string,
  error: CredkitError,
): Promise<never> {
  const now = deps.clock.now();
  const reason = error.detail ?? error.message;
  await deps.storage.transaction(async (tx) => {
    const changed = await tx.proofs.update(
      proof.id,
      { state: "ERROR", errorReason: reason, completedDate: now, lastModified: now },
      { where: { op: "eq", column: "state", value: "REQUESTED" } },
    );
    if (!changed) return;
    await recordHistory(deps, tx, context, {
      action: "ERRORED",
      entityType: "PROOF",
      entityId: proof.id,
      name: clientId.slice(0, 255),
      organisationId: proof.organisationId,
      metadata: { ErrorMetadata: { errorCode: error.code, message: reason } },
    });
  });
  throw error;
}

/** The verifier took the answer (or the rejection): REQUESTED → ACCEPTED / REJECTED, once. */
export async function settleHolderProof(
  deps: Pick<EngineDeps, "storage" | "clock" | "newId">,
  context: CallContext,
  proof: Proof,
  interaction: Interaction,
  data: { clientId: string } & Record<string, unknown>,
  outcome: { state: "ACCEPTED" | "REJECTED"; presentedCredentialIds?: string[]; redirectUri?: string },
): Promise<void> {
  const now = deps.clock.now();
  await deps.storage.transaction(async (tx) => {
    const changed = await tx.proofs.update(
      proof.id,
      {
        state: outcome.state,
        completedDate: now,
        lastModified: now,
        ...(outcome.presentedCredentialIds !== undefined && { presentedCredentialIds: outcome.presentedCredentialIds }),
      },
      { where: { op: "eq", column: "state", value: "REQUESTED" } },
    );
    if (!changed) throw new CredkitError("BR_0013", `proof ${proof.id} was answered concurrently`);
    if (outcome.redirectUri !== undefined) {
      await tx.interactions.update(interaction.id, {
        data: { ...data, verifierRedirectUri: outcome.redirectUri },
        lastModified: now,
      });
    }
    await recordHistory(deps, tx, context, {
      action: outcome.state,
      entityType: "PROOF",
      entityId: proof.id,
      name: data.clientId.slice(0, 255),
      organisationId: proof.organisationId,
    });
  });
}
