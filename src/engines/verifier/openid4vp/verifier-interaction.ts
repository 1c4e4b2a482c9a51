import type { DcqlQueryObject } from "../build-dcql-query.js";

/** State of one OpenID4VP 1.0 request, kept in the interaction (its id is the `state` parameter). */
export interface VerifierInteractionData {
  proofId: string;
  nonce: string;
  clientId: string;
  responseUri: string;
  responseMode: "direct_post" | "direct_post.jwt";
  dcqlQuery: DcqlQueryObject;
  /** ephemeral ECDH-ES private key for direct_post.jwt responses (never leaves the verifier) */
  encryptionJwk?: Record<string, unknown>;
}
