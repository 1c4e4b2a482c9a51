import { readFileSync } from "node:fs";
import type { DcqlCredential } from "dcql";
import type { DcqlCandidate } from "../../../../src/providers/verification/dcql/index.js";

const FIXTURES = new URL("../../../fixtures/dcql/", import.meta.url);

/** Every DCQL query printed in OpenID4VP 1.0 (see test/fixtures/dcql/README.md). */
export const SPEC_QUERY_FILES = [
  "simple.json",
  "simple_mdoc.json",
  "multi_credentials.json",
  "credentials_alternatives.json",
  "complex_mdoc.json",
  "claims_alternatives.json",
  "value_matching_simple.json",
  "dcql_jwt_vc.json",
  "dcql_ldp_vc.json",
  "encrypted_response_request.json",
] as const;

export function readFixture(name: string): unknown {
  return JSON.parse(readFileSync(new URL(name, FIXTURES), "utf8"));
}

const IDENTITY = "https://credentials.example.com/identity_credential";
const MDL_NS = "org.iso.18013.5.1";

const fullPidClaims = {
  vct: IDENTITY,
  iss: "https://issuer.example.com",
  given_name: "John",
  family_name: "Doe",
  first_name: "John",
  last_name: "Doe",
  date_of_birth: "1940-01-01",
  postal_code: "90210",
  locality: "Beverly Hills",
  region: "California",
  address: { street_address: "123 Main St", locality: "Anytown", region: "Anystate", postal_code: "90210" },
  nationalities: ["US", "DE"],
  degrees: [
    { type: "Bachelor of Science", university: "University of Betelgeuse" },
    { type: "Master of Science", university: "University of Betelgeuse" },
  ],
  age_equal_or_over: { "18": true, "65": false },
};

/** SD-JWT VC and mdoc sample credentials; none contains JSON nulls or mixed arrays (see dcql-divergences.test.ts). */
export const CANDIDATES: DcqlCandidate[] = [
  { id: "pid-full", format: "dc+sd-jwt", vct: IDENTITY, holderBinding: true, claims: fullPidClaims },
  {
    id: "pid-partial",
    format: "dc+sd-jwt",
    vct: IDENTITY,
    holderBinding: true,
    claims: {
      given_name: "Erika",
      family_name: "Mustermann",
      last_name: "Mustermann",
      date_of_birth: "1964-08-12",
      locality: "Berlin",
      region: "Berlin",
      address: { locality: "Berlin", postal_code: "12345" },
      postal_code: "12345",
    },
  },
  { id: "pid-unbound", format: "dc+sd-jwt", vct: IDENTITY, holderBinding: false, claims: fullPidClaims },
  {
    id: "pid-zip-only",
    format: "dc+sd-jwt",
    vct: IDENTITY,
    holderBinding: true,
    claims: { last_name: "Doe", date_of_birth: "1940-01-01", postal_code: "90211" },
  },
  {
    id: "other-pid",
    format: "dc+sd-jwt",
    vct: "https://othercredentials.example/pid",
    holderBinding: true,
    claims: { given_name: "Jane", family_name: "Roe", address: { street_address: "1 Other Rd" } },
  },
  {
    id: "reduced-pid",
    format: "dc+sd-jwt",
    vct: "https://credentials.example.com/reduced_identity_credential",
    holderBinding: true,
    claims: { given_name: "Jane", family_name: "Roe" },
  },
  {
    id: "residence",
    format: "dc+sd-jwt",
    vct: "https://cred.example/residence_credential",
    holderBinding: true,
    claims: { postal_code: "8000", locality: "Zurich", region: "ZH" },
  },
  {
    id: "rewards",
    format: "dc+sd-jwt",
    vct: "https://company.example/company_rewards",
    holderBinding: true,
    claims: { rewards_number: 4711 },
  },
  {
    id: "mdl",
    format: "mso_mdoc",
    doctype: "org.iso.18013.5.1.mDL",
    holderBinding: true,
    claims: {
      [MDL_NS]: {
        given_name: "Ada",
        family_name: "Lovelace",
        portrait: new Uint8Array([0xff, 0xd8, 0xff]),
        resident_address: "12 St James's Square",
        resident_country: "GB",
        age_over_18: true,
      },
    },
  },
  {
    id: "mdl-no-address",
    format: "mso_mdoc",
    doctype: "org.iso.18013.5.1.mDL",
    holderBinding: true,
    claims: { [MDL_NS]: { given_name: "Alan", family_name: "Turing", portrait: new Uint8Array([1]) } },
  },
  {
    id: "photoid",
    format: "mso_mdoc",
    doctype: "org.iso.23220.photoid.1",
    holderBinding: true,
    claims: {
      [MDL_NS]: { given_name: "Grace", family_name: "Hopper", portrait: new Uint8Array([2]), resident_country: "US" },
    },
  },
  {
    id: "mvrc",
    format: "mso_mdoc",
    doctype: "org.iso.7367.1.mVRC",
    holderBinding: true,
    claims: {
      "org.iso.7367.1": { vehicle_holder: { name: "Ada" }, registration_number: "AB-123" },
      [MDL_NS]: { given_name: "Ada" },
    },
  },
  {
    id: "mvrc-no-holder",
    format: "mso_mdoc",
    doctype: "org.iso.7367.1.mVRC",
    holderBinding: true,
    claims: { "org.iso.7367.1": { registration_number: "CD-456" }, [MDL_NS]: { given_name: "Bob" } },
  },
  {
    id: "jwt-vc",
    format: "jwt_vc_json",
    type: ["VerifiableCredential", "IDCredential"],
    holderBinding: true,
    claims: {
      type: ["VerifiableCredential", "IDCredential"],
      credentialSubject: { family_name: "Doe", given_name: "John" },
    },
  },
  {
    id: "ldp-vc",
    format: "ldp_vc",
    type: ["VerifiableCredential", "IDCredential"],
    holderBinding: true,
    claims: {
      type: ["VerifiableCredential", "IDCredential"],
      credentialSubject: {
        family_name: "Doe",
        given_name: "John",
        birthdate: "1940-01-01",
        address: { street_address: "1 Main", locality: "Town", postal_code: "1000", country: "DE" },
      },
    },
  },
];

/** The same credential as the `dcql` package models it. */
export function toDcqlCredential(candidate: DcqlCandidate): DcqlCredential {
  const binding = candidate.holderBinding === true;
  if (candidate.format === "mso_mdoc") {
    return {
      credential_format: "mso_mdoc",
      doctype: candidate.doctype ?? "",
      namespaces: candidate.claims as Record<string, Record<string, unknown>>,
      cryptographic_holder_binding: binding,
    };
  }
  if (candidate.format === "dc+sd-jwt") {
    return {
      credential_format: "dc+sd-jwt",
      vct: candidate.vct ?? "",
      claims: candidate.claims as Extract<DcqlCredential, { credential_format: "dc+sd-jwt" }>["claims"],
      cryptographic_holder_binding: binding,
    };
  }
  return {
    credential_format: candidate.format as "jwt_vc_json" | "ldp_vc",
    type: candidate.type ?? [],
    claims: candidate.claims as Extract<DcqlCredential, { credential_format: "ldp_vc" }>["claims"],
    cryptographic_holder_binding: binding,
  };
}
