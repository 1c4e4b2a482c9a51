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

export interface ProofSchema {
  id: string;
  organisationId: string;
  name: string;
  /** proof data retention in seconds; 0 keeps forever */
  expireDuration: number;
  importedSourceUrl?: string;
  proofInputSchemas: ProofInputSchema[];
  createdDate: Date;
  lastModified: Date;
  deletedAt?: Date;
}
