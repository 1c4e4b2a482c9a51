import type { DcqlQueryObject } from "../build-dcql-query.js";

/** State of one OpenID4VP 1.0 request, kept in the interaction (its id is the `state` parameter). */
export interface VerifierInteractionData {
  proofId: string;
  nonce: string;
  clientId: string;
  responseUri: string;
  responseMode: "direct_post" | "direct_post.jwt";
  dcqlQuery: DcqlQueryObject;
  /** public ECDH-ES key (kid = interaction id) wallets encrypt direct_post.jwt responses to */
  encryptionJwk?: Record<string, unknown>;
  /** its private half, sealed with the kit's secret sealer (never leaves the verifier) */
  sealedEncryptionKey?: string;
}
