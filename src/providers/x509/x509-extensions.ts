import { AsnConvert, OctetString } from "@peculiar/asn1-schema";
import {
  AuthorityKeyIdentifier,
  BasicConstraints,
  ExtendedKeyUsage,
  Extension,
  GeneralName,
  IssueAlternativeName,
  KeyIdentifier,
  KeyUsage,
  KeyUsageFlags,
  SubjectAlternativeName,
  SubjectKeyIdentifier,
} from "@peculiar/asn1-x509";

/** KeyUsage bit names (RFC 5280 §4.2.1.3), spelled as One Core reports them in x509Attributes. */
export const KEY_USAGE_NAMES = [
  "digitalSignature",
  "nonRepudiation",
  "keyEncipherment",
  "dataEncipherment",
  "keyAgreement",
  "keyCertSign",
  "crlSign",
  "encipherOnly",
  "decipherOnly",
] as const;
export type KeyUsageName = (typeof KEY_USAGE_NAMES)[number];

/** mdlDS extended key usage: document signer of ISO/IEC 18013-5 mDL (Annex B.1.4). */
export const EKU_MDL_DOCUMENT_SIGNER = "1.0.18013.5.1.2";

/** The X.509 v3 extensions credkit puts in the certificates and CSRs it creates. */
export interface ExtensionsSpec {
  /** basicConstraints (critical); a CA gets `cA: true` without a path length. Absent: no basicConstraints */
  ca?: boolean;
  /** keyUsage (critical) */
  keyUsage: readonly KeyUsageName[];
  /** extKeyUsage OIDs (critical when given) */
  extendedKeyUsage?: readonly string[];
  subjectKeyIdentifier?: Uint8Array;
  authorityKeyIdentifier?: Uint8Array;
  issuerAlternativeName?: { type: "EMAIL" | "URI"; name: string };
  /** subjectAltName (RFC 5280 §4.2.1.6; critical when the subject DN is empty): what x509_san_dns names */
  subjectAlternativeName?: { dns?: readonly string[]; uri?: readonly string[]; email?: readonly string[] };
  /** whether the subject DN is empty (then subjectAltName must be critical) */
  emptySubject?: boolean;
}

function extension(extnID: string, critical: boolean, value: object): Extension {
  return new Extension({ extnID, critical, extnValue: new OctetString(AsnConvert.serialize(value)) });
}

function keyUsageFlags(names: readonly KeyUsageName[]): number {
  let flags = 0;
  for (const name of names) flags |= KeyUsageFlags[name === "crlSign" ? "cRLSign" : name];
  return flags;
}

/** The extensions of a spec, in a stable order (basicConstraints, keyUsage, extKeyUsage, SKI, AKI, SAN, IAN). */
export function buildExtensions(spec: ExtensionsSpec): Extension[] {
  const extensions: Extension[] = [];
  if (spec.ca !== undefined) extensions.push(extension("2.5.29.19", true, new BasicConstraints({ cA: spec.ca })));
  extensions.push(extension("2.5.29.15", true, new KeyUsage(keyUsageFlags(spec.keyUsage))));
  if (spec.extendedKeyUsage && spec.extendedKeyUsage.length > 0) {
    extensions.push(extension("2.5.29.37", true, new ExtendedKeyUsage([...spec.extendedKeyUsage])));
  }
  if (spec.subjectKeyIdentifier) {
    extensions.push(extension("2.5.29.14", false, new SubjectKeyIdentifier(spec.subjectKeyIdentifier)));
  }
  if (spec.authorityKeyIdentifier) {
    const keyIdentifier = new KeyIdentifier(spec.authorityKeyIdentifier);
    extensions.push(extension("2.5.29.35", false, new AuthorityKeyIdentifier({ keyIdentifier })));
  }
  const san = spec.subjectAlternativeName;
  const sanNames = [
    ...(san?.dns ?? []).map((dNSName) => new GeneralName({ dNSName })),
    ...(san?.uri ?? []).map((uniformResourceIdentifier) => new GeneralName({ uniformResourceIdentifier })),
    ...(san?.email ?? []).map((rfc822Name) => new GeneralName({ rfc822Name })),
  ];
  if (sanNames.length > 0) {
    extensions.push(extension("2.5.29.17", spec.emptySubject === true, new SubjectAlternativeName(sanNames)));
  }
  if (spec.issuerAlternativeName) {
    const { type, name } = spec.issuerAlternativeName;
    const generalName = new GeneralName(type === "EMAIL" ? { rfc822Name: name } : { uniformResourceIdentifier: name });
    extensions.push(extension("2.5.29.18", false, new IssueAlternativeName([generalName])));
  }
  return extensions;
}
