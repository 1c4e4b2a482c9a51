import { createHash, type X509Certificate } from "node:crypto";
import { AsnConvert } from "@peculiar/asn1-schema";
import {
  Certificate as AsnCertificate,
  type GeneralName as AsnGeneralName,
  GeneralName as AsnGeneralNameType,
  type Name as AsnName,
  AuthorityKeyIdentifier,
  CRLDistributionPoints,
} from "@peculiar/asn1-x509";
import { CredkitError } from "../../errors/credkit-error.js";
import { DISTINGUISHED_NAME_ATTRIBUTES } from "./distinguished-name.js";
import { x509 } from "./peculiar.js";
import { KEY_USAGE_NAMES, type KeyUsageName } from "./x509-extensions.js";

/** One extension as the REST API shows it (One Core `CertificateX509ExtensionDTO`). */
export interface X509ExtensionAttributes {
  oid: string;
  /** readable value: one line per item (key usages, names, OIDs ...), hex of the DER value for unknown extensions */
  value: string;
  critical: boolean;
}

/** A certificate's `x509Attributes` (One Core `CertificateX509AttributesDTO`). */
export interface X509Attributes {
  /** hex octets of the DER serial number, colon separated (`3e:a9:…`) */
  serialNumber: string;
  notBefore: Date;
  notAfter: Date;
  /** RDNs in encoded order joined by ", " (`C=CH, O=Acme, CN=issuer`) */
  issuer: string;
  subject: string;
  /** SHA-256 of the DER certificate, lower-case hex */
  fingerprint: string;
  extensions: X509ExtensionAttributes[];
}

const ATTRIBUTE_ABBREVIATIONS = new Map<string, string>([
  ...DISTINGUISHED_NAME_ATTRIBUTES.map((attribute) => [attribute.oid, attribute.short] as const),
  ["2.5.4.9", "street"],
  ["2.5.4.4", "SN"],
  ["2.5.4.42", "GN"],
  ["2.5.4.12", "title"],
  ["2.5.4.97", "organizationIdentifier"],
  ["0.9.2342.19200300.100.1.25", "DC"],
  ["0.9.2342.19200300.100.1.1", "UID"],
  ["1.2.840.113549.1.9.1", "Email"],
]);

const hexColons = (bytes: ArrayBuffer | Uint8Array) =>
  Buffer.from(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes))
    .toString("hex")
    .replace(/(..)(?!$)/g, "$1:");

/** RDNs in encoded order joined by ", ", attributes by their short name (OID when unknown). */
export function formatName(name: AsnName): string {
  return name
    .map((rdn) =>
      rdn
        .map((entry) => `${ATTRIBUTE_ABBREVIATIONS.get(entry.type) ?? entry.type}=${entry.value.toString()}`)
        .join("+"),
    )
    .join(", ");
}

function formatGeneralName(name: AsnGeneralName): string {
  if (name.dNSName !== undefined) return `DNSName(${name.dNSName})`;
  if (name.uniformResourceIdentifier !== undefined) return `URI(${name.uniformResourceIdentifier})`;
  if (name.rfc822Name !== undefined) return `RFC822Name(${name.rfc822Name})`;
  if (name.iPAddress !== undefined) return `IPAddress(${name.iPAddress})`;
  if (name.directoryName !== undefined) return `DirectoryName(${formatName(name.directoryName)})`;
  if (name.registeredID !== undefined) return `RegisteredID(${name.registeredID})`;
  if (name.otherName !== undefined) return `OtherName(${name.otherName.typeId}, [...])`;
  return "Unsupported(<unparsed>)";
}

function formatPeculiarName(name: x509.GeneralName): string {
  return formatGeneralName(AsnConvert.parse(name.rawData, AsnGeneralNameType));
}

function generalNames(names: readonly x509.GeneralName[]): string[] {
  return names.map(formatPeculiarName);
}

function keyUsageNames(flags: number): KeyUsageName[] {
  return KEY_USAGE_NAMES.filter((_, bit) => (flags & (1 << bit)) !== 0);
}

/** Readable lines of one extension's value (the texts One Core shows; unknown extensions: hex of the DER value). */
function extensionLines(extension: x509.Extension): string[] {
  if (extension instanceof x509.KeyUsagesExtension) return keyUsageNames(extension.usages);
  if (extension instanceof x509.BasicConstraintsExtension) return [`Certificate Authority: ${extension.ca}`];
  if (extension instanceof x509.ExtendedKeyUsageExtension) return extension.usages.map(String);
  if (extension instanceof x509.SubjectKeyIdentifierExtension)
    return [`Key ID: ${hexColons(Buffer.from(extension.keyId, "hex"))}`];
  if (extension instanceof x509.SubjectAlternativeNameExtension) return generalNames(extension.names.items);
  if (extension instanceof x509.IssuerAlternativeNameExtension) return generalNames(extension.names.items);
  if (extension instanceof x509.AuthorityInfoAccessExtension) {
    const methods: [string, x509.GeneralName[]][] = [
      ["1.3.6.1.5.5.7.48.1", extension.ocsp],
      ["1.3.6.1.5.5.7.48.2", extension.caIssuers],
      ["1.3.6.1.5.5.7.48.3", extension.timeStamping],
      ["1.3.6.1.5.5.7.48.5", extension.caRepository],
    ];
    return methods.flatMap(([oid, names]) => names.flatMap((name) => [oid, formatPeculiarName(name)]));
  }
  if (extension.type === "2.5.29.35") {
    const aki = AsnConvert.parse(extension.value, AuthorityKeyIdentifier);
    return [
      ...(aki.authorityCertIssuer ?? []).map(formatGeneralName),
      ...(aki.authorityCertSerialNumber
        ? [`Serial: ${Buffer.from(aki.authorityCertSerialNumber).toString("hex")}`]
        : []),
      ...(aki.keyIdentifier ? [`Key ID: ${hexColons(aki.keyIdentifier.buffer)}`] : []),
    ];
  }
  if (extension.type === "2.5.29.31") {
    return AsnConvert.parse(extension.value, CRLDistributionPoints).flatMap((point) => [
      ...(point.cRLIssuer ?? []).map(formatGeneralName),
      ...(point.distributionPoint?.fullName ?? []).map(formatGeneralName),
    ]);
  }
  return [Buffer.from(extension.value).toString("hex")];
}

/** @peculiar/x509 view of a certificate (typed extensions); BR_0224 when it does not parse. */
export function peculiarCertificate(certificate: X509Certificate): x509.X509Certificate {
  try {
    return new x509.X509Certificate(certificate.raw);
  } catch (error) {
    throw new CredkitError("BR_0224", "the certificate's extensions do not parse", { cause: error });
  }
}

/** KeyUsage names of a certificate; undefined when it has no keyUsage extension (RFC 5280: no restriction). */
export function certificateKeyUsage(certificate: X509Certificate): KeyUsageName[] | undefined {
  const extension = peculiarCertificate(certificate).getExtension(x509.KeyUsagesExtension);
  return extension ? keyUsageNames(extension.usages) : undefined;
}

/** The first commonName of the subject. */
export function subjectCommonName(certificate: X509Certificate): string | undefined {
  return peculiarCertificate(certificate).subjectName.getField("CN")[0];
}

/** The certificate's x509Attributes (the REST view of a stored chain's leaf). */
export function x509Attributes(certificate: X509Certificate): X509Attributes {
  const parsed = peculiarCertificate(certificate);
  const tbs = AsnConvert.parse(certificate.raw, AsnCertificate).tbsCertificate;
  let extensions: X509ExtensionAttributes[];
  try {
    extensions = parsed.extensions.map((extension) => ({
      oid: extension.type,
      value: extensionLines(extension).join("\n"),
      critical: extension.critical,
    }));
  } catch (error) {
    throw new CredkitError("BR_0224", "an extension of the certificate does not parse", { cause: error });
  }
  return {
    serialNumber: hexColons(tbs.serialNumber),
    notBefore: parsed.notBefore,
    notAfter: parsed.notAfter,
    issuer: formatName(tbs.issuer),
    subject: formatName(tbs.subject),
    fingerprint: createHash("sha256").update(certificate.raw).digest("hex"),
    extensions,
  };
}
