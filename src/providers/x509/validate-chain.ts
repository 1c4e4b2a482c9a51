import type { X509Certificate } from "node:crypto";
import { CredkitError } from "../../errors/credkit-error.js";

export interface ChainValidationOptions {
  now: Date;
  /** seconds of clock skew tolerated on notBefore / notAfter */
  leeway: number;
  /** trusted roots or intermediates; a chain is trusted when it contains one or is issued by one */
  trustAnchors: readonly X509Certificate[];
}

export interface ChainValidation {
  leaf: X509Certificate;
  /** whether the chain leads to one of the trust anchors */
  trusted: boolean;
  /** the anchor it leads to */
  anchor?: X509Certificate;
}

export function notBefore(certificate: X509Certificate): Date {
  return new Date(certificate.validFrom);
}

export function notAfter(certificate: X509Certificate): Date {
  return new Date(certificate.validTo);
}

/** BR_0359 / BR_0213 when a certificate is outside its validity period (with leeway). */
export function checkValidityPeriod(certificate: X509Certificate, now: Date, leeway: number, label: string): void {
  const skew = leeway * 1000;
  if (notBefore(certificate).getTime() - skew > now.getTime()) {
    throw new CredkitError("BR_0359", `${label} is not valid before ${notBefore(certificate).toISOString()}`);
  }
  if (notAfter(certificate).getTime() + skew < now.getTime()) {
    throw new CredkitError("BR_0213", `${label} expired at ${notAfter(certificate).toISOString()}`);
  }
}

function issuedBy(child: X509Certificate, parent: X509Certificate): boolean {
  if (!child.checkIssued(parent)) return false;
  try {
    return child.verify(parent.publicKey);
  } catch {
    return false;
  }
}

function sameCertificate(a: X509Certificate, b: X509Certificate): boolean {
  return a.raw.equals(b.raw);
}

/**
 * Validates a chain given leaf first (RFC 5280 §6 path validation, the parts a verifier of request objects and
 * attestations needs): each certificate must be signed by the next, every issuer must be a CA, every certificate must
 * be inside its validity period. The chain is trusted when one of its certificates is a trust anchor, or its last one
 * is issued by an anchor (anchors need not be sent, RFC 7515 §4.1.6). Failures: BR_0211 (signature or issuer
 * mismatch), BR_0244 (an issuer that is not a CA), BR_0213 / BR_0359 (validity).
 */
export function validateCertificateChain(
  chain: readonly X509Certificate[],
  options: ChainValidationOptions,
): ChainValidation {
  const leaf = chain[0];
  if (!leaf) throw new CredkitError("BR_0224", "the certificate chain is empty");
  for (const [index, certificate] of chain.entries()) {
    checkValidityPeriod(certificate, options.now, options.leeway, index === 0 ? "the certificate" : `chain[${index}]`);
    const issuer = chain[index + 1];
    if (!issuer) break;
    if (!issuer.ca) throw new CredkitError("BR_0244", `chain[${index + 1}] issues a certificate but is not a CA`);
    if (!issuedBy(certificate, issuer)) {
      throw new CredkitError("BR_0211", `chain[${index}] is not signed by chain[${index + 1}]`);
    }
  }
  for (const certificate of chain) {
    const anchor = options.trustAnchors.find((candidate) => sameCertificate(candidate, certificate));
    if (anchor) return { leaf, trusted: true, anchor };
  }
  const last = chain[chain.length - 1]!;
  for (const anchor of options.trustAnchors) {
    if (anchor.ca && issuedBy(last, anchor)) {
      checkValidityPeriod(anchor, options.now, options.leeway, "the trust anchor");
      return { leaf, trusted: true, anchor };
    }
  }
  return { leaf, trusted: false };
}
