import { z } from "zod";
import { credentialOfferSchema, txCodeSchema } from "./credential-offer.js";
import { authorizationServerMetadataSchema, credentialIssuerMetadataSchema } from "./issuer-metadata.js";

/**
 * `Interaction.data` of a wallet-side OpenID4VCI issuance: what handle-invitation learned (offer, metadata, the chosen
 * configuration) and, once accepted, what reject needs (the access token and notification id).
 */
export const walletIssuanceDataSchema = z
  .object({
    /** marks wallet interactions apart from the issuer's own in the shared table */
    role: z.literal("HOLDER"),
    offer: credentialOfferSchema,
    issuerMetadata: credentialIssuerMetadataSchema,
    asMetadata: authorizationServerMetadataSchema.optional(),
    tokenEndpoint: z.string(),
    credentialConfigurationId: z.string(),
    txCode: txCodeSchema.optional(),
    redirectUri: z.string().optional(),
    // set by accept
    credentialId: z.string().optional(),
    /** `iss` of the received credential (a DID or an https URL); the issuer is not stored as an identifier yet */
    issuer: z.string().optional(),
    accessToken: z.string().optional(),
    /** ISO 8601; absent when the token response had no expires_in */
    accessTokenExpiresAt: z.string().optional(),
    notificationId: z.string().optional(),
  })
  .loose();
export type WalletIssuanceData = z.output<typeof walletIssuanceDataSchema>;
