/**
 * EUDI trust information (ETSI TS 119 475 registration certificates and other attestations about a relying party),
 * as kept on identifiers (what a verifier presents) and on holder proofs (what a wallet received and concluded).
 */

/** Outcome of the wallet's trust evaluation of a verifier (One Core `trustInformation.result`). */
export const TRUST_RESULTS = ["TRUSTED", "UNTRUSTED", "UNKNOWN"] as const;
export type TrustResult = (typeof TRUST_RESULTS)[number];

/**
 * Kinds of trust information an identifier carries: `REGISTRATION_CERTIFICATE` (One Core: an ETSI TS 119 475
 * Wallet-Relying Party Registration Certificate, a JWT) and the credkit extension `VERIFIER_ATTESTATION` (an OpenID4VP
 * 1.0 §12 Verifier Attestation JWT).
 */
export const IDENTIFIER_TRUST_INFORMATION_TYPES = ["REGISTRATION_CERTIFICATE", "VERIFIER_ATTESTATION"] as const;
export type IdentifierTrustInformationType = (typeof IDENTIFIER_TRUST_INFORMATION_TYPES)[number];

/** One entry of `Identifier.trustInformation` as stored (dates as ISO strings: the column is JSON). */
export interface IdentifierTrustInformationEntry {
  type: IdentifierTrustInformationType;
  /** the attestation as given (a compact JWS) */
  data: string;
  /** ISO date from `nbf` (else `iat`) */
  validFrom?: string;
  /** ISO date from `exp` */
  validTo?: string;
}

/** One `verifier_info` attestation (OpenID4VP 1.0 §5.1) the wallet received, with its evaluation. */
export interface ReceivedAttestation {
  /** `format` of the `verifier_info` entry (`registration_cert` for ETSI TS 119 475 registration certificates) */
  format: string;
  /** `credential_ids`: the DCQL credential queries it concerns; absent = all of them */
  credentialIds?: string[];
  /** TRUSTED / UNTRUSTED for registration certificates; UNKNOWN for formats the wallet does not evaluate */
  result: TrustResult;
  /** why it is not TRUSTED */
  reason?: string;
  /** the attestation as received when it is a string (a JWT) */
  data?: string;
  /** its decoded JWT payload (the registration certificate's claims), when it could be decoded */
  claims?: Record<string, unknown>;
  /** ISO dates from nbf/iat and exp */
  validFrom?: string;
  validTo?: string;
  /** subject DN of the certificate that signed it and of the trust anchor its chain leads to */
  signer?: string;
  trustAnchor?: string;
}

/** `Proof.trustInformation` of a holder proof whose request carried `verifier_info` (JSON column). */
export interface ProofTrustInformation {
  /** ISO date the wallet received and evaluated it */
  receivedAt: string;
  /** TRUSTED: every registration certificate is; UNTRUSTED: one is not; UNKNOWN: none was received */
  result: TrustResult;
  /** the relying party's name from the (first trusted, else first) registration certificate */
  name?: string;
  attestations: ReceivedAttestation[];
}
