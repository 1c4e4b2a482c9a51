import { z } from "zod";
import type { CredentialState, KeyAlgorithmType } from "../../domain/enums.js";

// Request bodies of the wallet endpoints (reference §3.8 interaction, §3.6 revocation-check). Strict: unknown fields
// are BR_0084, like One Core's `deny_unknown_fields`.

/** POST /api/interaction/v1/handle-invitation */
export const handleInvitationInputSchema = z
  .object({
    url: z.string().min(1),
    organisationId: z.uuid().optional(),
    /** proximity transports of verification invitations (unused for issuance) */
    transport: z.array(z.string().min(1)).optional(),
    redirectUri: z.string().min(1).optional(),
  })
  .strict();
export type HandleInvitationInput = z.input<typeof handleInvitationInputSchema>;

/** POST /api/interaction/v1/issuance-accept */
export const acceptIssuanceInputSchema = z
  .object({
    interactionId: z.uuid(),
    identifierId: z.uuid().optional(),
    /** deprecated upstream in favour of identifierId */
    didId: z.uuid().optional(),
    keyId: z.uuid().optional(),
    txCode: z.string().min(1).optional(),
    /** wallet unit attestation (not supported yet: accepted and ignored) */
    holderWalletUnitId: z.uuid().optional(),
  })
  .strict();
export type AcceptIssuanceInput = z.input<typeof acceptIssuanceInputSchema>;

/** POST /api/interaction/v1/issuance-reject */
export const rejectIssuanceInputSchema = z.object({ interactionId: z.uuid() }).strict();
export type RejectIssuanceInput = z.input<typeof rejectIssuanceInputSchema>;

/** POST /api/credential/v1/revocation-check */
export const checkRevocationInputSchema = z
  .object({
    credentialIds: z.array(z.uuid()).min(1),
    /** status lists are fetched fresh on every call; accepted for compatibility */
    forceRefresh: z.boolean().optional(),
  })
  .strict();
export type CheckRevocationInput = z.input<typeof checkRevocationInputSchema>;

/** 201 of handle-invitation (reference §3.8). */
export interface HandleInvitationResult {
  interactionId: string;
  interactionType: "ISSUANCE";
  /** the transaction code the user must enter at accept (OpenID4VCI 1.0 §4.1.1 `tx_code`) */
  txCode?: { input_mode: "numeric" | "text"; length?: number; description?: string };
  /** algorithms the issuer accepts holder key proofs from (absent: no key proof needed) */
  keyAlgorithms?: KeyAlgorithmType[];
  protocol: string;
}

/** One entry of the revocation-check answer (reference §3.6). */
export interface RevocationCheckResult {
  credentialId: string;
  /** the credential's state after the check */
  status: CredentialState;
  success: boolean;
  /** why the check failed */
  reason?: string;
}
