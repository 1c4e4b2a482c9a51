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
  /** x509_san_dns / x509_hash (and verifier_attestation of a CERTIFICATE verifier): the certificate that signs */
  verifierCertificateId?: string;
  /** verifier_attestation: the Verifier Attestation JWT of the request object's `jwt` header (OpenID4VP 1.0 §12) */
  verifierAttestation?: string;
}
