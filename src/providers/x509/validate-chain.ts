import type { X509Certificate } from "node:crypto";
import { AsnConvert } from "@peculiar/asn1-schema";
import {
  Certificate as AsnCertificate,
  BasicConstraints,
  id_ce_basicConstraints,
  id_ce_keyUsage,
  KeyUsage,
  KeyUsageFlags,
} from "@peculiar/asn1-x509";
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

/** Whether `parent` issued `child`: name chaining and a signature that verifies with the parent's key. */
export function issuedBy(child: X509Certificate, parent: X509Certificate): boolean {
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

/** The keyUsage bits (undefined: no extension, no restriction) and pathLenConstraint of a certificate. */
interface PathConstraints {
  keyUsage?: number;
  pathLength?: number;
}

/**
 * Per certificate object (parsed certificates are shared, see parse-certificates.ts): reading the extensions costs
 * about as much as the rest of a validation, and the same chains and anchors come again and again.
 */
const CONSTRAINTS = new WeakMap<X509Certificate, PathConstraints>();

function constraintsOf(certificate: X509Certificate): PathConstraints {
  const cached = CONSTRAINTS.get(certificate);
  if (cached) return cached;
  const constraints: PathConstraints = {};
  try {
    for (const extension of AsnConvert.parse(certificate.raw, AsnCertificate).tbsCertificate.extensions ?? []) {
      if (extension.extnID === id_ce_keyUsage) {
        constraints.keyUsage = AsnConvert.parse(extension.extnValue.buffer, KeyUsage).toNumber();
      } else if (extension.extnID === id_ce_basicConstraints) {
        const pathLength = AsnConvert.parse(extension.extnValue.buffer, BasicConstraints).pathLenConstraint;
        if (pathLength !== undefined) constraints.pathLength = pathLength;
      }
    }
  } catch (error) {
    throw new CredkitError("BR_0224", "the certificate's extensions do not parse", { cause: error });
  }
  CONSTRAINTS.set(certificate, constraints);
  return constraints;
}

/**
 * RFC 5280 §4.2.1.9: a CA's pathLenConstraint bounds the non-self-issued intermediate CA certificates between it and
 * the leaf (the leaf itself does not count). `path` is leaf first, ending with the anchor when it was not sent.
 */
function checkPathLengths(path: readonly X509Certificate[], anchor?: X509Certificate): void {
  let intermediates = 0;
  for (const [index, certificate] of path.entries()) {
    if (index === 0) continue;
    const { pathLength } = constraintsOf(certificate);
    if (pathLength !== undefined && intermediates > pathLength) {
      throw new CredkitError(
        "BR_0250",
        `${certificate === anchor ? "the trust anchor" : `chain[${index}]`} has pathLenConstraint ${pathLength} but ${intermediates} CA certificates below it`,
      );
    }
    if (certificate.subject !== certificate.issuer) intermediates++;
  }
}

/**
 * Validates a chain given leaf first (RFC 5280 §6 path validation, the parts a verifier of request objects and
 * attestations needs): each certificate must be signed by the next, every issuer must be a CA, every certificate must
 * be inside its validity period. The chain is trusted when one of its certificates is a trust anchor, or its last one
 * is issued by an anchor (anchors need not be sent, RFC 7515 §4.1.6). The leaf's keyUsage, when present, must allow
 * digitalSignature (it signs the JWS the chain came with), and every pathLenConstraint — the anchor's too — must hold.
 * Failures: BR_0211 (signature or issuer mismatch), BR_0244 (an issuer that is not a CA), BR_0213 / BR_0359
 * (validity), BR_0249 (leaf key usage), BR_0250 (path length).
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
  // the leaf signs (request objects, attestations, registration certificates): a keyUsage must allow it
  const usage = constraintsOf(leaf).keyUsage;
  if (usage !== undefined && (usage & KeyUsageFlags.digitalSignature) === 0) {
    throw new CredkitError("BR_0249", "the certificate's key usage does not allow digitalSignature");
  }
  checkPathLengths(chain);
  for (const certificate of chain) {
    const anchor = options.trustAnchors.find((candidate) => sameCertificate(candidate, certificate));
    if (anchor) return { leaf, trusted: true, anchor };
  }
  const last = chain[chain.length - 1]!;
  for (const anchor of options.trustAnchors) {
    if (anchor.ca && issuedBy(last, anchor)) {
      checkValidityPeriod(anchor, options.now, options.leeway, "the trust anchor");
      checkPathLengths([...chain, anchor], anchor);
      return { leaf, trusted: true, anchor };
    }
  }
  return { leaf, trusted: false };
}
