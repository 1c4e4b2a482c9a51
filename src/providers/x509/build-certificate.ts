import { randomBytes, X509Certificate } from "node:crypto";
import { AsnConvert } from "@peculiar/asn1-schema";
import {
  Certificate,
  Extensions,
  type Name,
  SubjectKeyIdentifier,
  SubjectPublicKeyInfo,
  TBSCertificate,
  Validity,
  Version,
} from "@peculiar/asn1-x509";
import { CredkitError } from "../../errors/credkit-error.js";
import type { Signer } from "../../ports/signer.js";
import { type DistinguishedName, toAsnName } from "./distinguished-name.js";
import { keyIdentifier } from "./public-key-info.js";
import { buildExtensions, type ExtensionsSpec } from "./x509-extensions.js";
import { signX509, x509SignatureAlgorithm } from "./x509-signature.js";

/** What a new certificate says about its subject. */
export interface CertificateTemplate {
  subject: DistinguishedName;
  /** DER SubjectPublicKeyInfo of the subject's key (see subjectPublicKeyInfoFromJwk) */
  subjectPublicKeyInfo: Uint8Array;
  notBefore: Date;
  notAfter: Date;
  /** the key identifiers are derived: SKI from the subject key, AKI from the issuer */
  extensions: Omit<ExtensionsSpec, "subjectKeyIdentifier" | "authorityKeyIdentifier"> & { ca: boolean };
  /** default: 16 random bytes (positive, RFC 5280 §4.1.2.2 allows up to 20) */
  serialNumber?: Uint8Array;
}

function randomSerial(): Uint8Array {
  const serial = randomBytes(16);
  serial[0] = 0x40 | (serial[0]! & 0x3f); // positive, no leading zero octet
  return new Uint8Array(serial);
}

/** The issuer's subject name (byte-exact, for name chaining) and key identifier (its SKI, else derived). */
const ISSUERS = new WeakMap<X509Certificate, { name: Name; keyId: Uint8Array }>();

function issuerOf(issuer: X509Certificate): { name: Name; keyId: Uint8Array } {
  const known = ISSUERS.get(issuer);
  if (known) return known;
  const parsed = AsnConvert.parse(issuer.raw, Certificate);
  const tbs = parsed.tbsCertificate;
  const ski = tbs.extensions?.find((extension) => extension.extnID === "2.5.29.14");
  const keyId = ski
    ? new Uint8Array(AsnConvert.parse(ski.extnValue.buffer, SubjectKeyIdentifier).buffer)
    : keyIdentifier(new Uint8Array(AsnConvert.serialize(tbs.subjectPublicKeyInfo)));
  const result = { name: tbs.subject, keyId };
  ISSUERS.set(issuer, result);
  return result;
}

/**
 * Creates an X.509 v3 certificate for `template`, signed by `signer` (whose key must be the issuer certificate's,
 * or the template's own key when `issuer` is absent: a self-signed certificate). The result is checked against the
 * issuer's public key, so a signer that does not match the issuer fails with BR_0329 instead of producing garbage.
 */
export async function issueCertificate(
  template: CertificateTemplate,
  signer: Signer,
  issuer?: X509Certificate,
): Promise<X509Certificate> {
  const subject = toAsnName(template.subject);
  const subjectKeyId = keyIdentifier(template.subjectPublicKeyInfo);
  const { name: issuerName, keyId: authorityKeyId } = issuer
    ? issuerOf(issuer)
    : { name: subject, keyId: subjectKeyId };
  const signatureAlgorithm = x509SignatureAlgorithm(signer);
  const tbsCertificate = new TBSCertificate({
    version: Version.v3,
    serialNumber: (template.serialNumber ?? randomSerial()).slice().buffer,
    signature: signatureAlgorithm,
    issuer: issuerName,
    validity: new Validity({ notBefore: template.notBefore, notAfter: template.notAfter }),
    subject,
    subjectPublicKeyInfo: AsnConvert.parse(template.subjectPublicKeyInfo, SubjectPublicKeyInfo),
    extensions: new Extensions(
      buildExtensions({
        ...template.extensions,
        subjectKeyIdentifier: subjectKeyId,
        authorityKeyIdentifier: authorityKeyId,
      }),
    ),
  });
  const tbs = new Uint8Array(AsnConvert.serialize(tbsCertificate));
  const signatureValue = await signX509(signer, tbs);
  const der = AsnConvert.serialize(new Certificate({ tbsCertificate, signatureAlgorithm, signatureValue }));
  const certificate = new X509Certificate(Buffer.from(der));
  if (!certificate.verify((issuer ?? certificate).publicKey)) {
    throw new CredkitError("BR_0329", "the new certificate's signature does not verify with the issuer's key");
  }
  return certificate;
}
