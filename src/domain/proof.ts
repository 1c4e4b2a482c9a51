import type { ProofRole, ProofState } from "./enums.js";
import type { ProofTrustInformation } from "./trust-information.js";

export interface Proof {
  id: string;
  organisationId: string;
  role: ProofRole;
  state: ProofState;
  /** verificationProtocol config instance name */
  protocol: string;
  proofSchemaId?: string;
  verifierIdentifierId?: string;
  verifierKeyId?: string;
  verifierCertificateId?: string;
  interactionId?: string;
  transport: string;
  redirectUri?: string;
  profile?: string;
  webhookDestinationUrl?: string;
  /** human readable reason of an ERROR outcome (which validation failed) */
  errorReason?: string;
  /** credentials (role VERIFIER) received in the presentation, per proof input order */
  presentedCredentialIds?: string[];
  /** holder proofs: the verifier's trust information (`verifier_info`) as received and evaluated */
  trustInformation?: ProofTrustInformation;
  requestedDate?: Date;
  completedDate?: Date;
  retainUntilDate?: Date;
  claimsRemovedAt?: Date;
  createdDate: Date;
  lastModified: Date;
}
