import { SignJWT } from "jose";
import { createTestCertificate, createTestRootCa, type TestCertificate } from "./x509-fixture.js";

// ETSI TS 119 475 Wallet-Relying Party Registration Certificates for tests: a registrar (a root CA and the certificate
// it signs registration certificates with) and JWTs signed with jose, independent of credkit's code.

export interface Registrar {
  root: TestCertificate;
  /** the registrar's signing certificate (x5c leaf), issued by `root` */
  signer: TestCertificate;
}

export async function createRegistrar(name = "Test Registrar"): Promise<Registrar> {
  const root = await createTestRootCa(`${name} Root CA`);
  const signer = await createTestCertificate(root, `${name} WRPRC Signer`);
  return { root, signer };
}

/** The payload of the ETSI TS 119 475 v1.1.1 example (a webshop registered through an intermediary). */
export function exampleClaims(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const now = Math.floor(Date.now() / 1000);
  return {
    name: "Webshop",
    sub: {
      legal_name: ["Webshop Holding Company Ltd"],
      id: [{ type: "http://data.europa.eu/eudi/id/LEI", identifier: "LEIXG-743700EB2QF2J1WRO915" }],
    },
    country: "FI",
    registry_uri: "https://registry.invalid",
    service: [
      { lang: "en-GB", value: "Webshop selling stuff." },
      { lang: "fi", value: "Verkkokauppa." },
    ],
    entitlements: ["https://uri.etsi.org/19475/Entitlement/Service_Provider"],
    privacy_policy: [
      {
        type: "http://data.europa.eu/eudi/policy/privacy-policy",
        policyURI: "https://webshop.invalid/privacy",
      },
    ],
    info_uri: ["https://webshop.invalid"],
    support_uri: ["mailto:support@webshop.invalid", "tel:+358100200"],
    dpa: {
      country: "FI",
      email: ["report@dpa.invalid"],
      phone: ["+358123456789"],
      uri: ["https://dpa.invalid/report-form"],
    },
    policy_id: ["0.4.0.19475.3.1"],
    certificate_policy: "https://registrar.invalid/certificate-policy",
    status: { status_list: { idx: 0, uri: "https://registrar.invalid/status-lists/1" } },
    act: { sub: { id: "LEIXG-1234567890ABCDEFGHIJ", name: "Intermediary Ltd" } },
    credentials: [
      { format: "dc+sd-jwt", meta: "https://credentials.invalid/address", claim: [{ path: "given_name" }] },
    ],
    purpose: [{ lang: "en-GB", value: "Required for sending parcels." }],
    intended_use_id: "parcel-delivery",
    public_body: false,
    iat: now - 60,
    exp: now + 30 * 86400,
    ...overrides,
  };
}

export interface SignOptions {
  typ?: string;
  /** default [signer] */
  x5c?: TestCertificate[];
  /** default the registrar's signer */
  key?: CryptoKey;
}

/** A registration certificate JWT signed (ES256) by the registrar's signing certificate. */
export async function signRegistrationCertificate(
  registrar: Registrar,
  claims: Record<string, unknown> = exampleClaims(),
  options: SignOptions = {},
): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({
      alg: "ES256",
      typ: options.typ ?? "rc-wrp+jwt",
      x5c: (options.x5c ?? [registrar.signer]).map((certificate) => certificate.der),
    })
    .sign(options.key ?? (registrar.signer.keys.privateKey as CryptoKey));
}

/** The same JWT with another payload under the original signature. */
export function tamper(jwt: string, change: (claims: Record<string, unknown>) => Record<string, unknown>): string {
  const [header, payload, signature] = jwt.split(".") as [string, string, string];
  const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Record<string, unknown>;
  return `${header}.${Buffer.from(JSON.stringify(change(claims))).toString("base64url")}.${signature}`;
}
