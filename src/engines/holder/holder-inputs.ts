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

/** One credential offered for a credential query (reference §3.8, v2 presentation-submit). */
const submissionEntrySchema = z
  .object({
    credentialId: z.uuid(),
    /** paths (`address/street`) of optional claims the user chose to disclose as well */
    userSelections: z.array(z.string().min(1)).optional(),
  })
  .strict();

/** POST /api/interaction/v2/presentation-submit (DCQL: keyed by credential query id) */
export const submitPresentationInputSchema = z
  .object({
    interactionId: z.uuid(),
    submission: z.record(z.string().min(1), z.union([submissionEntrySchema, z.array(submissionEntrySchema).min(1)])),
  })
  .strict();
export type SubmitPresentationInput = z.input<typeof submitPresentationInputSchema>;

const submitCredentialV1Schema = z.object({ credentialId: z.uuid(), submitClaims: z.array(z.string()) }).strict();

/** POST /api/interaction/v1/presentation-submit (Presentation Exchange: keyed by requested credential id) */
export const submitPresentationV1InputSchema = z
  .object({
    interactionId: z.uuid(),
    submitCredentials: z.record(
      z.string().min(1),
      z.union([submitCredentialV1Schema, z.array(submitCredentialV1Schema).min(1)]),
    ),
  })
  .strict();
export type SubmitPresentationV1Input = z.input<typeof submitPresentationV1InputSchema>;

/** POST /api/interaction/v1/presentation-reject */
export const rejectPresentationInputSchema = z.object({ interactionId: z.uuid() }).strict();
export type RejectPresentationInput = z.input<typeof rejectPresentationInputSchema>;

/** 201 of handle-invitation (reference §3.8). */
export interface HandleInvitationResult {
  interactionId: string;
  interactionType: "ISSUANCE" | "VERIFICATION";
  /** verification: the holder-side proof created for the request */
  proofId?: string;
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
