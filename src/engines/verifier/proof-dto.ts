import type { Identifier } from "../../domain/identifier.js";
import type { Proof } from "../../domain/proof.js";
import type { ProofSchema } from "../../domain/proof-schema.js";
import { type ProofTrustInformationDto, toProofTrustInformationDto } from "../common/proof-trust.js";
import type { VerifierAuthenticationDto } from "../common/verifier-authentication-dto.js";
import type { ClaimDto } from "../issuer/credential-claims.js";
import type { CredentialDetailDto } from "../issuer/credential-dto.js";
import type { CredentialSchemaListItemDto } from "../issuer/credential-schema-dto.js";
import { type IdentifierListItemDto, toIdentifierListItem } from "../management/identifier-dto.js";
import { type ProofSchemaListItemDto, toProofSchemaListItem } from "./proof-schema-service.js";

export interface ProofListItemDto {
  id: string;
  createdDate: Date;
  lastModified: Date;
  requestedDate?: Date;
  retainUntilDate?: Date;
  completedDate?: Date;
  verifier?: IdentifierListItemDto;
  protocol: string;
  transport: string;
  state: string;
  role: string;
  schema?: ProofSchemaListItemDto;
  profile?: string;
  webhookDestinationUrl?: string;
}

export interface ProofInputDto {
  claims: ClaimDto[];
  credential?: CredentialDetailDto;
  credentialSchema: CredentialSchemaListItemDto;
}

export interface ProofDetailDto extends ProofListItemDto {
  organisationId: string;
  redirectUri?: string;
  proofInputs: ProofInputDto[];
  claimsRemovedAt?: Date;
  /** readable reason of an ERROR outcome (credkit extension) */
  errorReason?: string;
  /** holder proofs (credkit extension): how the wallet authenticated the verifier (OpenID4VP 1.0 §5.9.3) */
  verifierAuthentication?: VerifierAuthenticationDto;
  /** holder proofs: the verifier's trust information received with the request (OpenID4VP 1.0 `verifier_info`) */
  trustInformation?: ProofTrustInformationDto;
}

export interface ProofRelations {
  verifier?: Identifier;
  schema?: ProofSchema;
}

export function toProofListItem(proof: Proof, related: ProofRelations): ProofListItemDto {
  return {
    id: proof.id,
    createdDate: proof.createdDate,
    lastModified: proof.lastModified,
    ...(proof.requestedDate !== undefined && { requestedDate: proof.requestedDate }),
    ...(proof.retainUntilDate !== undefined && { retainUntilDate: proof.retainUntilDate }),
    ...(proof.completedDate !== undefined && { completedDate: proof.completedDate }),
    ...(related.verifier && { verifier: toIdentifierListItem(related.verifier) }),
    protocol: proof.protocol,
    transport: proof.transport,
    state: proof.state,
    role: proof.role,
    ...(related.schema && { schema: toProofSchemaListItem(related.schema) }),
    ...(proof.profile !== undefined && { profile: proof.profile }),
    ...(proof.webhookDestinationUrl !== undefined && { webhookDestinationUrl: proof.webhookDestinationUrl }),
  };
}

export function toProofDetail(proof: Proof, related: ProofRelations, inputs: ProofInputDto[]): ProofDetailDto {
  return {
    ...toProofListItem(proof, related),
    organisationId: proof.organisationId,
    ...(proof.redirectUri !== undefined && { redirectUri: proof.redirectUri }),
    proofInputs: inputs,
    ...(proof.claimsRemovedAt !== undefined && { claimsRemovedAt: proof.claimsRemovedAt }),
    ...(proof.errorReason !== undefined && { errorReason: proof.errorReason }),
    ...toProofTrustInformationDto(proof),
  };
}
