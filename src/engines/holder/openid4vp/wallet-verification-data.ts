import { z } from "zod";
import { clientMetadataSchema } from "./authorization-request.js";

/**
 * `Interaction.data` of a presentation request received by the wallet (OpenID4VP 1.0): what the verified request
 * said, kept for presentation-definition, submit and reject. The proof id is stored as `walletProofId` (not `proofId`)
 * so the verifier engine, which shares the interaction table, never mistakes this interaction for one of its own.
 */
export const walletVerificationDataSchema = z
  .object({
    /** marks wallet interactions apart from the verifier's own in the shared table */
    role: z.literal("HOLDER"),
    walletProofId: z.string(),
    clientId: z.string(),
    clientIdPrefix: z.enum(["redirect_uri", "decentralized_identifier"]),
    /** `decentralized_identifier`: the verifier's DID and the DID URL that signed the request */
    verifierDid: z.string().optional(),
    signingKid: z.string().optional(),
    responseUri: z.string(),
    responseMode: z.enum(["direct_post", "direct_post.jwt"]),
    nonce: z.string(),
    state: z.string().optional(),
    /** the DCQL query as received (parsed again on use) */
    dcqlQuery: z.unknown(),
    clientMetadata: clientMetadataSchema.optional(),
    requestUri: z.string().optional(),
    /** `redirect_uri` answered by the verifier's response endpoint (OpenID4VP 1.0 §8.2), when it sent one */
    verifierRedirectUri: z.string().optional(),
  })
  .loose();
export type WalletVerificationData = z.output<typeof walletVerificationDataSchema>;
