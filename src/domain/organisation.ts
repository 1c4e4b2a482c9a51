export interface Organisation {
  id: string;
  name: string;
  /** letters, digits and hyphens (set through /api/sts/organisation/v1) */
  slug?: string;
  createdDate: Date;
  lastModified: Date;
  deactivatedAt?: Date;
  walletProvider?: string;
  /** identifier id */
  walletProviderIssuer?: string;
}

export function isOrganisationActive(organisation: Organisation): boolean {
  return organisation.deactivatedAt === undefined;
}
