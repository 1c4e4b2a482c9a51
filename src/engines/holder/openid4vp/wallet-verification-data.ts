import { z } from "zod";
import { clientMetadataSchema } from "./authorization-request.js";

/** A verifier certificate as the wallet authenticated it (see verifier-authentication.ts). */
const authenticatedCertificateSchema = z.object({
  subject: z.string(),
  issuer: z.string(),
  dnsNames: z.array(z.string()),
  x509Hash: z.string(),
  notAfter: z.string(),
  trustAnchor: z.string(),
});

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
    clientIdPrefix: z.enum([
      "redirect_uri",
      "decentralized_identifier",
      "x509_san_dns",
      "x509_hash",
      "verifier_attestation",
    ]),
    /** `decentralized_identifier`: the verifier's DID and the DID URL that signed the request */
    verifierDid: z.string().optional(),
    signingKid: z.string().optional(),
    /** `x509_san_dns` / `x509_hash`: the verifier's leaf certificate the request was authenticated with */
    verifierCertificate: authenticatedCertificateSchema.optional(),
    /** `verifier_attestation`: the Verifier Attestation JWT the request was authenticated with (OpenID4VP 1.0 §12) */
    verifierAttestation: z
      .object({
        issuer: z.string(),
        subject: z.string(),
        expiresAt: z.string(),
        redirectUris: z.array(z.string()).optional(),
        signedBy: authenticatedCertificateSchema,
      })
      .optional(),
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
