import type { X509Certificate } from "node:crypto";
import { CredkitError } from "../../errors/credkit-error.js";
import { x509 } from "./peculiar.js";
import { issuedBy, notAfter, notBefore } from "./validate-chain.js";
import { certificateKeyUsage, peculiarCertificate } from "./x509-attributes.js";

/** Extensions credkit understands; any other marked critical makes a chain unusable (RFC 5280 §4.2, BR_0248). */
const KNOWN_EXTENSIONS = new Set([
  "2.5.29.14", // subjectKeyIdentifier
  "2.5.29.15", // keyUsage
  "2.5.29.17", // subjectAltName
  "2.5.29.18", // issuerAltName
  "2.5.29.19", // basicConstraints
  "2.5.29.30", // nameConstraints
  "2.5.29.31", // cRLDistributionPoints
  "2.5.29.32", // certificatePolicies
  "2.5.29.33", // policyMappings
  "2.5.29.35", // authorityKeyIdentifier
  "2.5.29.36", // policyConstraints
  "2.5.29.37", // extKeyUsage
  "2.5.29.54", // inhibitAnyPolicy
  "1.3.6.1.5.5.7.1.1", // authorityInfoAccess
]);

export interface OwnChainOptions {
  now: Date;
  /** seconds of clock skew tolerated on notBefore / notAfter */
  leeway: number;
  /**
   * END_ENTITY: the leaf signs credentials (a keyUsage, when present, must allow digitalSignature);
   * CA: the leaf issues certificates (cA with keyCertSign) and the chain must end in a self-signed root.
   */
  leaf: "END_ENTITY" | "CA";
}

export interface OwnChainValidity {
  /** the chain is usable from (latest notBefore) ... */
  validFrom: Date;
  /** ... until (earliest notAfter) */
  validUntil: Date;
  /** some certificate is not valid yet (the certificate starts NOT_YET_ACTIVE) */
  notYetValid: boolean;
}

/**
 * Checks a chain (leaf first) a deployment presents as its own certificate or CA, the way One Core's identifier
 * creation does: every issuer is a CA (BR_0244) allowed to sign certificates (keyCertSign, BR_0249) whose path length
 * is respected (BR_0250) and whose signature verifies (BR_0211); no unknown critical extension (BR_0248); the leaf's
 * key usage fits its role (BR_0249); nothing has expired (BR_0213). A certificate that is not valid yet is no error:
 * the answer says so, with the period in which the whole chain is valid.
 */
export function validateOwnChain(chain: readonly X509Certificate[], options: OwnChainOptions): OwnChainValidity {
  const leaf = chain[0];
  if (!leaf) throw new CredkitError("BR_0224", "the certificate chain is empty");
  const skew = options.leeway * 1000;
  const now = options.now.getTime();
  let validFrom = notBefore(leaf);
  let validUntil = notAfter(leaf);
  for (const [index, certificate] of chain.entries()) {
    const label = index === 0 ? "the certificate" : `chain[${index}]`;
    if (notAfter(certificate).getTime() + skew < now) {
      throw new CredkitError("BR_0213", `${label} expired at ${notAfter(certificate).toISOString()}`);
    }
    if (notBefore(certificate) > validFrom) validFrom = notBefore(certificate);
    if (notAfter(certificate) < validUntil) validUntil = notAfter(certificate);
    for (const extension of peculiarCertificate(certificate).extensions) {
      if (extension.critical && !KNOWN_EXTENSIONS.has(extension.type)) {
        throw new CredkitError("BR_0248", `${label} has the unknown critical extension ${extension.type}`);
      }
    }
    const issuer = chain[index + 1];
    if (!issuer) continue;
    if (!issuer.ca) throw new CredkitError("BR_0244", `chain[${index + 1}] issues a certificate but is not a CA`);
    if (!(certificateKeyUsage(issuer)?.includes("keyCertSign") ?? false)) {
      throw new CredkitError("BR_0249", `chain[${index + 1}] is a CA without the keyCertSign key usage`);
    }
    if (!issuedBy(certificate, issuer)) {
      throw new CredkitError("BR_0211", `${label} is not signed by chain[${index + 1}]`);
    }
  }
  checkOwnPathLengths(chain);

  const usage = certificateKeyUsage(leaf);
  if (options.leaf === "END_ENTITY") {
    if (usage !== undefined && !usage.includes("digitalSignature")) {
      throw new CredkitError("BR_0249", "the certificate's key usage does not allow digitalSignature");
    }
  } else {
    if (!leaf.ca) throw new CredkitError("BR_0249", "the certificate is not a CA certificate (basicConstraints cA)");
    if (!(usage?.includes("keyCertSign") ?? false)) {
      throw new CredkitError("BR_0249", "the CA certificate's key usage does not allow keyCertSign");
    }
    const root = chain[chain.length - 1]!;
    if (root.issuer !== root.subject || !issuedBy(root, root)) {
      throw new CredkitError("BR_0244", "the CA chain does not end in a self-signed root certificate");
    }
  }
  return { validFrom, validUntil, notYetValid: validFrom.getTime() - skew > now };
}

/**
 * RFC 5280 §4.2.1.9 as One Core applies it to identifier chains: a CA's pathLenConstraint bounds the CA certificates
 * that follow it towards the leaf, the leaf counting when it is a CA itself (a CA identifier's own certificate). Remote
 * chains use the plain RFC count (checkPathLengths in validate-chain.ts), where a leaf never counts.
 */
function checkOwnPathLengths(chain: readonly X509Certificate[]): void {
  const authorities = chain.filter((certificate) => certificate.ca);
  for (const [index, certificate] of authorities.entries()) {
    const pathLength = peculiarCertificate(certificate).getExtension(x509.BasicConstraintsExtension)?.pathLength;
    if (pathLength !== undefined && pathLength < index) {
      throw new CredkitError("BR_0250", `a CA with pathLenConstraint ${pathLength} has ${index} CAs below it`);
    }
  }
}
