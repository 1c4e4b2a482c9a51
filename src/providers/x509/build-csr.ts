import { Attributes, CertificationRequest, CertificationRequestInfo } from "@peculiar/asn1-csr";
import { AsnConvert } from "@peculiar/asn1-schema";
import { Attribute, Extensions, SubjectPublicKeyInfo } from "@peculiar/asn1-x509";
import type { Signer } from "../../ports/signer.js";
import { type DistinguishedName, toAsnName } from "./distinguished-name.js";
import { buildExtensions, type ExtensionsSpec } from "./x509-extensions.js";
import { signX509, x509SignatureAlgorithm } from "./x509-signature.js";

/** PKCS#9 extensionRequest attribute (RFC 2985 §5.4.2) */
const OID_EXTENSION_REQUEST = "1.2.840.113549.1.9.14";

/** What a certification request asks for. */
export interface CsrTemplate {
  subject: DistinguishedName;
  /** DER SubjectPublicKeyInfo of the key the request is for; `signer` must sign with that key */
  subjectPublicKeyInfo: Uint8Array;
  /** requested extensions (extensionRequest attribute); none when absent. Leave out `ca`: a CA decides that */
  extensions?: Omit<ExtensionsSpec, "authorityKeyIdentifier">;
}

/** PEM text with 64-character lines (RFC 7468). */
export function toPem(der: Uint8Array | ArrayBuffer, label: string): string {
  const base64 = Buffer.from(der instanceof ArrayBuffer ? new Uint8Array(der) : der).toString("base64");
  const lines = base64.match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join("\n")}\n-----END ${label}-----\n`;
}

/**
 * A PKCS#10 certification request (RFC 2986) signed by `signer`, whose key proves possession of the requested
 * public key. Answers the PEM (`-----BEGIN CERTIFICATE REQUEST-----`).
 */
export async function createCertificationRequest(template: CsrTemplate, signer: Signer): Promise<string> {
  const signatureAlgorithm = x509SignatureAlgorithm(signer);
  const attributes = template.extensions
    ? [
        new Attribute({
          type: OID_EXTENSION_REQUEST,
          values: [AsnConvert.serialize(new Extensions(buildExtensions(template.extensions)))],
        }),
      ]
    : [];
  const certificationRequestInfo = new CertificationRequestInfo({
    version: 0,
    subject: toAsnName(template.subject),
    subjectPKInfo: AsnConvert.parse(template.subjectPublicKeyInfo, SubjectPublicKeyInfo),
    attributes: new Attributes(attributes),
  });
  const info = new Uint8Array(AsnConvert.serialize(certificationRequestInfo));
  const signature = await signX509(signer, info);
  const der = AsnConvert.serialize(
    new CertificationRequest({ certificationRequestInfo, signatureAlgorithm, signature }),
  );
  return toPem(der, "CERTIFICATE REQUEST");
}
