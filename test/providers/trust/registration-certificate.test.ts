import "reflect-metadata";
import { X509Certificate as NodeX509Certificate, webcrypto } from "node:crypto";
import * as x509 from "@peculiar/x509";
import { SignJWT } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { boundIdentifiersOf } from "../../../src/engines/holder/openid4vp/verifier-trust.js";
import type { CredkitError } from "../../../src/errors/credkit-error.js";
import { evaluateRegistrationCertificate } from "../../../src/providers/trust/evaluate-registration-certificate.js";
import { decodeRegistrationCertificate } from "../../../src/providers/trust/registration-certificate.js";
import {
  createRegistrar,
  exampleClaims,
  type Registrar,
  signRegistrationCertificate,
} from "../../support/registration-certificate-fixture.js";
import { createTestCertificate, createTestRootCa } from "../../support/x509-fixture.js";

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

describe("ETSI TS 119 475 registration certificates", () => {
  let registrar: Registrar;
  let anchors: NodeX509Certificate[];

  beforeAll(async () => {
    registrar = await createRegistrar("Unit Registrar");
    anchors = [new NodeX509Certificate(registrar.root.pem)];
  });

  const options = () => ({ now: new Date(), leeway: 60, trustAnchors: anchors });

  it("trusts a well-formed certificate whose chain leads to an anchor, naming signer and anchor", async () => {
    const evaluation = evaluateRegistrationCertificate(await signRegistrationCertificate(registrar), options());
    expect(evaluation).toMatchObject({
      result: "TRUSTED",
      signer: expect.stringContaining("Unit Registrar WRPRC Signer"),
      trustAnchor: expect.stringContaining("Unit Registrar Root CA"),
    });
    expect(evaluation.claims?.name).toBe("Webshop");
    expect(evaluation.validTo).toBeInstanceOf(Date);
  });

  it("verifies ES384 signatures (the ETSI example's alg) with a P-384 registrar key", async () => {
    const algorithm = { name: "ECDSA", namedCurve: "P-384", hash: "SHA-384" } as const;
    const keys = (await webcrypto.subtle.generateKey(algorithm, true, ["sign", "verify"])) as unknown as CryptoKeyPair;
    const certificate = await x509.X509CertificateGenerator.createSelfSigned({
      serialNumber: "0384",
      name: "CN=P-384 Registrar",
      notBefore: new Date(Date.now() - 3600_000),
      notAfter: new Date(Date.now() + 86400_000),
      signingAlgorithm: algorithm,
      keys,
      extensions: [new x509.BasicConstraintsExtension(true, undefined, true)],
    });
    const jwt = await new SignJWT(exampleClaims())
      .setProtectedHeader({
        alg: "ES384",
        typ: "rc-wrp+jwt",
        b64: true,
        crit: ["b64"],
        x5c: [Buffer.from(certificate.rawData).toString("base64")],
      })
      .sign(keys.privateKey);
    const trusted = evaluateRegistrationCertificate(jwt, {
      ...options(),
      trustAnchors: [new NodeX509Certificate(Buffer.from(certificate.rawData))],
    });
    expect(trusted.result, trusted.reason).toBe("TRUSTED");
    // the same token claiming ES256 does not fit the P-384 key
    const [, payload, signature] = jwt.split(".");
    const header = Buffer.from(JSON.stringify({ ...decodeRegistrationCertificate(jwt).header, alg: "ES256" })).toString(
      "base64url",
    );
    expect(
      evaluateRegistrationCertificate(`${header}.${payload}.${signature}`, {
        ...options(),
        trustAnchors: [new NodeX509Certificate(Buffer.from(certificate.rawData))],
      }).reason,
    ).toContain("does not fit alg ES256");
  });

  it("refuses unknown crit parameters and unencoded payloads", () => {
    const header = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
    const body = Buffer.from("{}").toString("base64url");
    const detailOf = (jwt: string) => {
      try {
        decodeRegistrationCertificate(jwt);
      } catch (error) {
        return (error as CredkitError).detail;
      }
      return undefined;
    };
    expect(detailOf(`${header({ alg: "ES256", crit: ["sigT"], sigT: "x" })}.${body}.c2ln`)).toContain("crit");
    expect(detailOf(`${header({ alg: "ES256", b64: false })}.${body}.c2ln`)).toContain("b64: false");
  });

  it("binds to the access certificate's organizationIdentifier when one is given", async () => {
    const jwt = await signRegistrationCertificate(registrar);
    expect(
      evaluateRegistrationCertificate(jwt, { ...options(), boundIdentifiers: ["LEIXG-743700EB2QF2J1WRO915"] }).result,
    ).toBe("TRUSTED");
    const other = evaluateRegistrationCertificate(jwt, { ...options(), boundIdentifiers: ["VATDE-1"] });
    expect(other.result).toBe("UNTRUSTED");
    expect(other.reason).toContain("not the relying party that signed the request");
    expect(
      boundIdentifiersOf({
        verifierCertificate: { subject: "C=FI, O=Webshop, organizationIdentifier=LEIXG-743700EB2QF2J1WRO915" },
      }),
    ).toEqual(["LEIXG-743700EB2QF2J1WRO915"]);
    expect(boundIdentifiersOf({ verifierCertificate: { subject: "CN=no identifier" } })).toEqual([]);
    expect(boundIdentifiersOf({ signingKid: "did:key:z#z" })).toEqual([]);
  });

  it("reads organizationIdentifier from the access certificate's subject, not from text inside another attribute", async () => {
    const root = await createTestRootCa("access CA");
    const subjectOf = async (name: string) => {
      const issued = await createTestCertificate(root, name);
      return new NodeX509Certificate(issued.pem).subject.replace(/\n/g, ", ");
    };
    // a commonName the CA let the verifier choose, holding an escaped ", organizationIdentifier=..." (RFC 4514 \,)
    const injected = await subjectOf("evil\\, 2.5.4.97=LEIXG-743700EB2QF2J1WRO915");
    expect(injected).toContain("\\,");
    expect(boundIdentifiersOf({ verifierCertificate: { subject: injected } })).toEqual([]);
    const injectedPlus = await subjectOf("evil\\+organizationIdentifier=LEIXG-743700EB2QF2J1WRO915");
    expect(boundIdentifiersOf({ verifierCertificate: { subject: injectedPlus } })).toEqual([]);
    // a real organizationIdentifier attribute is read (also one whose value holds an escaped comma)
    expect(
      boundIdentifiersOf({ verifierCertificate: { subject: await subjectOf("shop, 2.5.4.97=VATFI-123") } }),
    ).toEqual(["VATFI-123"]);
    expect(boundIdentifiersOf({ verifierCertificate: { subject: "CN=shop, organizationIdentifier=VAT\\,X" } })).toEqual(
      ["VAT,X"],
    );
  });

  it("explains what is wrong instead of throwing", () => {
    for (const [jwt, reason] of [
      ["", "is empty"],
      ["a.b", "compact JWS"],
      [`${Buffer.from("[1]").toString("base64url")}.e30.c2ln`, "header is not a JSON object"],
      // a payload JSON.stringify could not store again (the proof's trust information keeps it)
      [
        `${Buffer.from('{"alg":"ES256"}').toString("base64url")}.${Buffer.from(`{"name":${"[".repeat(20_000)}1${"]".repeat(20_000)}}`).toString("base64url")}.c2ln`,
        "payload is nested deeper than 64 levels",
      ],
    ] as const) {
      const evaluation = evaluateRegistrationCertificate(jwt, options());
      expect(evaluation.result).toBe("UNTRUSTED");
      expect(evaluation.reason).toContain(reason);
    }
  });
});
