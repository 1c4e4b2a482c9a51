export {
  type AcceptIssuanceInput,
  acceptIssuanceInputSchema,
  type CheckRevocationInput,
  checkRevocationInputSchema,
  type HandleInvitationInput,
  type HandleInvitationResult,
  handleInvitationInputSchema,
  type RejectIssuanceInput,
  type RevocationCheckResult,
  rejectIssuanceInputSchema,
} from "./holder-inputs.js";
export { createHolderService, type HolderService, type HolderServiceOptions } from "./holder-service.js";
