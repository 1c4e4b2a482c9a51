export interface ProofInputClaimSchema {
  claimSchemaId: string;
  required: boolean;
  order: number;
}

export interface ProofInputSchema {
  credentialSchemaId: string;
  order: number;
  claimSchemas: ProofInputClaimSchema[];
}

/**
 * Alternatives between proof inputs (credkit extension, sent as DCQL `credential_sets`, OpenID4VP 1.0 §6.2): each
 * option lists proof input positions (`order`) that together satisfy the set; a set that is not required may be left
 * unanswered. Inputs named by no set are required on their own.
 */
export interface ProofCredentialSet {
  options: number[][];
  required: boolean;
}

export interface ProofSchema {
  id: string;
  organisationId: string;
  name: string;
  /** proof data retention in seconds; 0 keeps forever */
  expireDuration: number;
  importedSourceUrl?: string;
  proofInputSchemas: ProofInputSchema[];
  credentialSets?: ProofCredentialSet[];
  createdDate: Date;
  lastModified: Date;
  deletedAt?: Date;
}
