import type { Proof } from "../../domain/proof.js";
import type { StorageRepositories } from "../../ports/storage.js";

// How a wallet authenticated the verifier of a presentation request it received (OpenID4VP 1.0 §5.9.3 client
// identifier prefixes), as the holder proof detail shows it (credkit extension `verifierAuthentication`). The wallet
// keeps it in the request's interaction (wallet-verification-data.ts, draft 20 alike); this reads it back loosely.

/** A verifier certificate the wallet validated up to one of its trust anchors. */
export interface VerifierCertificateDto {
  subject: string;
  issuer: string;
  dnsNames: string[];
  /** base64url SHA-256 of the leaf DER (the x509_hash value) */
  x509Hash: string;
  notAfter: string;
  trustAnchor: string;
}

/** `verifierAuthentication` of a holder proof detail. */
export interface VerifierAuthenticationDto {
  /** the full client identifier, prefix included */
  clientId: string;
  /** redirect_uri, decentralized_identifier, x509_san_dns, x509_hash, verifier_attestation */
  clientIdPrefix: string;
  /** decentralized_identifier: the verifier's DID and the DID URL that signed the request */
  did?: string;
  signingKid?: string;
  /** x509_san_dns / x509_hash: the leaf certificate that signed the request */
  certificate?: VerifierCertificateDto;
  /** verifier_attestation: the Verifier Attestation JWT (§12) the request carried */
  attestation?: { issuer: string; subject: string; expiresAt: string; signedBy?: VerifierCertificateDto };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const text = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

function certificateOf(value: unknown): VerifierCertificateDto | undefined {
  if (!isObject(value)) return undefined;
  const subject = text(value.subject);
  const x509Hash = text(value.x509Hash);
  if (subject === undefined || x509Hash === undefined) return undefined;
  return {
    subject,
    issuer: text(value.issuer) ?? "",
    dnsNames: Array.isArray(value.dnsNames)
      ? value.dnsNames.filter((name): name is string => typeof name === "string")
      : [],
    x509Hash,
    notAfter: text(value.notAfter) ?? "",
    trustAnchor: text(value.trustAnchor) ?? "",
  };
}

/** The authentication recorded in a wallet interaction's data; undefined for anything else. */
export function toVerifierAuthenticationDto(data: unknown): VerifierAuthenticationDto | undefined {
  if (!isObject(data) || data.role !== "HOLDER") return undefined;
  const clientId = text(data.clientId);
  const clientIdPrefix = text(data.clientIdPrefix);
  if (clientId === undefined || clientIdPrefix === undefined) return undefined;
  const certificate = certificateOf(data.verifierCertificate);
  const attestation = isObject(data.verifierAttestation) ? data.verifierAttestation : undefined;
  const signedBy = certificateOf(attestation?.signedBy);
  return {
    clientId,
    clientIdPrefix,
    ...(text(data.verifierDid) !== undefined && { did: text(data.verifierDid) }),
    ...(text(data.signingKid) !== undefined && { signingKid: text(data.signingKid) }),
    ...(certificate && { certificate }),
    ...(attestation && {
      attestation: {
        issuer: text(attestation.issuer) ?? "",
        subject: text(attestation.subject) ?? "",
        expiresAt: text(attestation.expiresAt) ?? "",
        ...(signedBy && { signedBy }),
      },
    }),
  };
}

/** `{verifierAuthentication}` of a holder proof's detail, from its interaction; `{}` for verifier proofs. */
export async function holderVerifierAuthentication(
  storage: Pick<StorageRepositories, "interactions">,
  proof: Proof,
): Promise<{ verifierAuthentication?: VerifierAuthenticationDto }> {
  if (proof.role !== "HOLDER" || !proof.interactionId) return {};
  const interaction = await storage.interactions.get(proof.interactionId);
  const verifierAuthentication = toVerifierAuthenticationDto(interaction?.data);
  return verifierAuthentication ? { verifierAuthentication } : {};
}
