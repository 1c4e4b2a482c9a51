import { AttributeTypeAndValue, AttributeValue, Name, RelativeDistinguishedName } from "@peculiar/asn1-x509";

/**
 * A subject or issuer distinguished name as the REST API takes it: one optional value per attribute, camelCase names
 * of the X.520 attribute types (the spelling of One Core's CSR subject: `organisationName`, not `organizationName`).
 */
export interface DistinguishedName {
  /** CN, 2.5.4.3 */
  commonName?: string;
  /** C, 2.5.4.6: ISO 3166-1 alpha-2 */
  countryName?: string;
  /** ST, 2.5.4.8 */
  stateOrProvinceName?: string;
  /** L, 2.5.4.7 */
  localityName?: string;
  /** O, 2.5.4.10 */
  organisationName?: string;
  /** OU, 2.5.4.11 */
  organisationalUnitName?: string;
  /** serialNumber, 2.5.4.5 (of the subject, not of the certificate) */
  serialNumber?: string;
}

type Encoding = "printableString" | "utf8String";

/** Encoding order (One Core's: CN, C, O, OU, ST, L, serialNumber) with OIDs and the short names shown in strings. */
export const DISTINGUISHED_NAME_ATTRIBUTES: readonly {
  field: keyof DistinguishedName;
  oid: string;
  short: string;
  encoding: Encoding;
}[] = [
  { field: "commonName", oid: "2.5.4.3", short: "CN", encoding: "utf8String" },
  { field: "countryName", oid: "2.5.4.6", short: "C", encoding: "printableString" },
  { field: "organisationName", oid: "2.5.4.10", short: "O", encoding: "utf8String" },
  { field: "organisationalUnitName", oid: "2.5.4.11", short: "OU", encoding: "utf8String" },
  { field: "stateOrProvinceName", oid: "2.5.4.8", short: "ST", encoding: "utf8String" },
  { field: "localityName", oid: "2.5.4.7", short: "L", encoding: "utf8String" },
  { field: "serialNumber", oid: "2.5.4.5", short: "serialNumber", encoding: "printableString" },
];

/** The X.501 Name of a distinguished name: one single-valued RDN per given attribute. */
export function toAsnName(name: DistinguishedName): Name {
  const rdns: RelativeDistinguishedName[] = [];
  for (const attribute of DISTINGUISHED_NAME_ATTRIBUTES) {
    const value = name[attribute.field];
    if (value === undefined) continue;
    rdns.push(
      new RelativeDistinguishedName([
        new AttributeTypeAndValue({
          type: attribute.oid,
          value: new AttributeValue({ [attribute.encoding]: value }),
        }),
      ]),
    );
  }
  return new Name(rdns);
}

/** Whether a distinguished name has no attribute at all. */
export function isEmptyDistinguishedName(name: DistinguishedName): boolean {
  return DISTINGUISHED_NAME_ATTRIBUTES.every((attribute) => name[attribute.field] === undefined);
}
