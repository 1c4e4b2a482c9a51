import type { PublicJwk } from "./key-algorithm.js";
import type { Signer } from "./signer.js";

/** Reference from a credential to its entry in a status list (draft-ietf-oauth-status-list §6). */
export interface StatusListReference {
  idx: number;
  uri: string;
}

/** Finds the public key that must have signed a credential, from its issuer and protected header. */
export type IssuerKeyResolver = (issuer: string, header: Record<string, unknown>) => Promise<PublicJwk>;

export interface FormatCredentialInput {
  /** `iss`: a DID or an HTTPS URL */
  issuer: string;
  /** SD-JWT VC `vct` / mdoc doctype */
  type: string;
  /** the credential's claims as a JSON object tree; every claim is made selectively disclosable */
  claims: Record<string, unknown>;
  /** holder binding key (`cnf.jwk`) */
  holderJwk?: PublicJwk;
  issuedAt: Date;
  expiresAt?: Date;
  notBefore?: Date;
  status?: StatusListReference;
  signer: Signer;
}

export interface ParsedCredential {
  issuer: string;
  type: string;
  /** all claims, with every disclosure applied */
  claims: Record<string, unknown>;
  holderJwk?: PublicJwk;
  issuedAt?: Date;
  expiresAt?: Date;
  notBefore?: Date;
  status?: StatusListReference;
  /** protected header of the issuer signature */
  header: Record<string, unknown>;
}

export interface VerifyOptions {
  resolveIssuerKey: IssuerKeyResolver;
  now: Date;
  /** seconds of clock skew tolerated on exp / nbf / iat */
  leeway: number;
}

export interface PresentationOptions {
  /** claim paths to disclose (`["address", "street"]`, `["nationalities", 0]`); everything else stays hidden */
  disclose: readonly (readonly (string | number)[])[];
  /** key binding: the verifier's client_id, its nonce, and the holder key's signer */
  keyBinding?: { audience: string; nonce: string; issuedAt: Date; signer: Signer };
}

export interface VerifyPresentationOptions extends VerifyOptions {
  /** key binding expected with this audience and nonce; absent = key binding not required */
  keyBinding?: { audience: string; nonce: string };
}

export interface ParsedPresentation extends ParsedCredential {
  /** only the claims the holder disclosed */
  disclosedClaims: Record<string, unknown>;
  keyBinding?: { audience: string; nonce: string; issuedAt: Date };
}

export interface CredentialFormatterCapabilities {
  /** SELECTIVE_DISCLOSURE, HOLDER_BINDING, ... */
  features: string[];
  /** JOSE algs it can sign and verify with */
  signingAlgorithms: string[];
}

/**
 * A credential format (config block `format`). Failures are CredkitError with a readable `detail` naming the check
 * that failed ("issuer signature invalid", "disclosure digest not found", "key binding nonce mismatch", "expired").
 */
export interface CredentialFormatter {
  readonly capabilities: CredentialFormatterCapabilities;
  formatCredential(input: FormatCredentialInput): Promise<string>;
  verifyCredential(credential: string, options: VerifyOptions): Promise<ParsedCredential>;
  createPresentation(credential: string, options: PresentationOptions): Promise<string>;
  verifyPresentation(presentation: string, options: VerifyPresentationOptions): Promise<ParsedPresentation>;
}
