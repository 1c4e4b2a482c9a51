import type { Organisation } from "../../domain/organisation.js";

/** GET /api/organisation/v1/{id} and list items (reference §3.1). */
export interface OrganisationDto {
  id: string;
  name: string;
  slug?: string;
  createdDate: Date;
  lastModified: Date;
  deactivatedAt?: Date;
  walletProvider?: string;
  walletProviderIssuer?: string;
}

export function toOrganisationDto(organisation: Organisation): OrganisationDto {
  const { id, name, slug, createdDate, lastModified, deactivatedAt, walletProvider, walletProviderIssuer } =
    organisation;
  return {
    id,
    name,
    ...(slug !== undefined && { slug }),
    createdDate,
    lastModified,
    ...(deactivatedAt !== undefined && { deactivatedAt }),
    ...(walletProvider !== undefined && { walletProvider }),
    ...(walletProviderIssuer !== undefined && { walletProviderIssuer }),
  };
}
