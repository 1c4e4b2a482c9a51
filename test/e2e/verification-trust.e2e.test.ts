/**
 * EUDI trust information over real loopback HTTP: a credkit verifier whose identifier carries an ETSI TS 119 475
 * registration certificate (signed here with jose by a test registrar) sends it as OpenID4VP 1.0 `verifier_info`; credkit
 * wallets with and without the registrar's CA as trust anchor receive the request, and their REST API shows the
 * outcome: proof detail `trustInformation`, GET …/trust-detail, and the purpose in the v2 presentation definition.
 */
import { randomUUID } from "node:crypto";
import { decodeJwt, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type IssuerFixture, startIssuerFixture } from "../support/issuer-fixture.js";
import {
  createRegistrar,
  exampleClaims,
  type Registrar,
  signRegistrationCertificate,
  tamper,
} from "../support/registration-certificate-fixture.js";
import { startWalletFixture, type WalletFixture } from "../support/wallet-fixture.js";
import { createTestCertificate } from "../support/x509-fixture.js";

const INSECURE = { app: { http: { allowInsecureHttpTransport: true } } };
const PROTOCOL = "OPENID4VP_FINAL1";

const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

/** did:key of an Ed25519 public key (base64url raw), computed independently of credkit (multicodec 0xed01) */
function ed25519DidKey(publicKey: string): string {
  const bytes = [0xed, 0x01, ...Buffer.from(publicKey, "base64url")];
  let value = BigInt(`0x${Buffer.from(bytes).toString("hex")}`);
  let text = "";
  while (value > 0n) {
    text = BASE58[Number(value % 58n)] + text;
    value /= 58n;
  }
  return `did:key:z${text}`;
}

/** the ETSI example, with the verifier's DID added to `sub.id`: what binds the certificate to its requests */
function boundClaims(did: string): Record<string, unknown> {
  const claims = exampleClaims();
  const sub = claims.sub as { id: unknown[] };
  return { ...claims, sub: { ...sub, id: [...sub.id, { type: "did", identifier: did }] } };
}

describe("EUDI trust information: registration certificates in verifier_info (credkit verifier ↔ credkit wallets)", () => {
  let verifier: IssuerFixture;
  let registrar: Registrar;
  let registrationCertificate: string;
  /** a DID identifier of the verifier carrying the registration certificate */
  let registeredIdentifierId: string;
  let trusting: WalletFixture;
  let other: WalletFixture;
  let proofSchemaId: string;

  /**
   * A did:key DID identifier; `trustInformation` may be a function of the DID it will have (did:key is derived from
   * the key), so a registration certificate can name the DID it is bound to.
   */
  async function createIdentifier(name: string, trustInformation?: unknown) {
    const key = (
      await verifier.api("POST", "/api/key/v1", {
        organisationId: verifier.organisationId,
        keyType: "EDDSA",
        keyParams: {},
        name: `key ${name}`,
        storageType: "INTERNAL",
        storageParams: {},
      })
    ).json;
    const keyId = key.id as string;
    if (typeof trustInformation === "function") {
      const publicKey = (await verifier.api("GET", `/api/key/v1/${keyId}`)).json.publicKey as string;
      trustInformation = await trustInformation(ed25519DidKey(publicKey));
    }
    return verifier.api("POST", "/api/identifier/v1", {
      organisationId: verifier.organisationId,
      name,
      did: {
        method: "KEY",
        keys: {
          authentication: [keyId],
          assertionMethod: [keyId],
          keyAgreement: [],
          capabilityInvocation: [],
          capabilityDelegation: [],
        },
      },
      ...(trustInformation !== undefined && { trustInformation }),
    });
  }

  async function share(verifierIdentifierId: string, clientIdScheme = "decentralized_identifier") {
    const created = await verifier.api("POST", "/api/proof-request/v1", {
      proofSchemaId,
      protocol: PROTOCOL,
      verifier: verifierIdentifierId,
    });
    expect(created.status, created.text).toBe(201);
    const shared = await verifier.api("POST", `/api/proof-request/v1/${created.json.id}/share`, {
      params: { clientIdScheme },
    });
    expect(shared.status, shared.text).toBe(201);
    return { verifierProofId: created.json.id as string, url: shared.json.url as string };
  }

  async function receive(wallet: WalletFixture, url: string): Promise<string> {
    const handled = await wallet.api("POST", "/api/interaction/v1/handle-invitation", {
      url,
      organisationId: wallet.organisationId,
    });
    expect(handled.status, handled.text).toBe(201);
    return handled.json.proofId as string;
  }

  beforeAll(async () => {
    registrar = await createRegistrar();
    verifier = await startIssuerFixture({ config: INSECURE });
    const created = await createIdentifier("registered verifier", async (did: string) => {
      registrationCertificate = await signRegistrationCertificate(registrar, boundClaims(did));
      return [{ type: "REGISTRATION_CERTIFICATE", data: registrationCertificate }];
    });
    expect(created.status, created.text).toBe(201);
    registeredIdentifierId = created.json.id as string;
    const schema = await verifier.api("POST", "/api/proof-schema/v1", {
      name: "parcel delivery",
      organisationId: verifier.organisationId,
      proofInputSchemas: [
        {
          credentialSchemaId: verifier.schema.id,
          claimSchemas: [{ id: verifier.schema.claimIds.given_name, required: true }],
        },
      ],
    });
    expect(schema.status, schema.text).toBe(201);
    proofSchemaId = schema.json.id as string;
    trusting = await startWalletFixture({ trustAnchors: [registrar.root.pem] });
    other = await startWalletFixture({ trustAnchors: [] });
    // the trusting wallet holds a credential that answers the request
    await trusting.receiveCredential((await verifier.schema.createOffer()).url);
  });

  afterAll(async () => {
    await trusting?.close();
    await other?.close();
    await verifier?.close();
  });

  it("stores the registration certificate on the identifier with its validity", async () => {
    const detail = await verifier.api("GET", `/api/identifier/v1/${registeredIdentifierId}`);
    expect(detail.status).toBe(200);
    const claims = decodeJwt(registrationCertificate);
    expect(detail.json.trustInformation).toEqual([
      {
        type: "REGISTRATION_CERTIFICATE",
        data: registrationCertificate,
        validFrom: new Date(claims.iat! * 1000).toISOString(),
        validTo: new Date(claims.exp! * 1000).toISOString(),
      },
    ]);
  });

  it("signed request objects carry verifier_info; the trusting wallet shows TRUSTED, the trust detail and the purpose", async () => {
    const { verifierProofId, url } = await share(registeredIdentifierId);
    // the request object behind request_uri (a signed JAR) carries the certificate as verifier_info
    const requestUri = new URL(url).searchParams.get("request_uri")!;
    const requestObject = await (await fetch(requestUri)).text();
    expect(decodeJwt(requestObject).verifier_info).toEqual([
      { format: "registration_cert", data: registrationCertificate },
    ]);

    const proofId = await receive(trusting, url);
    const proof = await trusting.api("GET", `/api/proof-request/v1/${proofId}`);
    expect(proof.status).toBe(200);
    expect(proof.json.role).toBe("HOLDER");
    expect(proof.json.trustInformation).toEqual({
      receivedAt: expect.any(String),
      name: "Webshop",
      result: "TRUSTED",
    });
    expect(Math.abs(Date.parse(proof.json.trustInformation.receivedAt) - Date.now())).toBeLessThan(60_000);

    const detail = await trusting.api("GET", `/api/proof-request/v1/${proofId}/trust-detail`);
    expect(detail.status).toBe(200);
    expect(detail.json).toEqual({
      eudiEcosystem: {
        name: "Webshop",
        website: "https://webshop.invalid",
        email: "support@webshop.invalid",
        phone: "+358100200",
        country: "FI",
        identifier: "LEIXG-743700EB2QF2J1WRO915",
        serviceDescription: [{ "en-GB": "Webshop selling stuff." }, { fi: "Verkkokauppa." }],
        supervisoryAuthority: {
          email: "report@dpa.invalid",
          phone: "+358123456789",
          uri: "https://dpa.invalid/report-form",
        },
        intermediary: { name: "Intermediary Ltd", identifier: "LEIXG-1234567890ABCDEFGHIJ" },
        isPublicSector: false,
      },
    });

    const definition = await trusting.api("GET", `/api/proof-request/v2/${proofId}/presentation-definition`);
    expect(definition.status, definition.text).toBe(200);
    expect(definition.json.credentialQueries.input_0.purpose).toBe("Required for sending parcels.");
    const [credential] = definition.json.credentialQueries.input_0.applicableCredentials;
    expect(credential).toBeDefined();

    // trust information changes nothing about answering: the presentation is accepted
    const interactionId = (await trusting.kit.storage.proofs.get(proofId))!.interactionId!;
    const submitted = await trusting.api("POST", "/api/interaction/v2/presentation-submit", {
      interactionId,
      submission: { input_0: { credentialId: credential.id } },
    });
    expect(submitted.status, submitted.text).toBe(204);
    expect((await verifier.api("GET", `/api/proof-request/v1/${verifierProofId}`)).json.state).toBe("ACCEPTED");
    // the verifier's own proof has no received trust information
    const verifierSide = await verifier.api("GET", `/api/proof-request/v1/${verifierProofId}/trust-detail`);
    expect(verifierSide.status).toBe(200);
    expect(verifierSide.json).toEqual({});
    expect(
      (await verifier.api("GET", `/api/proof-request/v1/${verifierProofId}`)).json.trustInformation,
    ).toBeUndefined();
  });

  it("a wallet without the registrar's CA as trust anchor shows UNTRUSTED and no purpose, but takes the request", async () => {
    const { url } = await share(registeredIdentifierId);
    const proofId = await receive(other, url);
    const proof = await other.api("GET", `/api/proof-request/v1/${proofId}`);
    expect(proof.json.trustInformation).toMatchObject({ name: "Webshop", result: "UNTRUSTED" });
    expect(proof.json.state).toBe("REQUESTED");
    const stored = await other.kit.storage.proofs.get(proofId);
    expect(stored?.trustInformation?.attestations[0]?.reason).toContain("does not lead to a trusted registrar");
    // what the certificate says is still there to inspect, next to the UNTRUSTED verdict
    const detail = await other.api("GET", `/api/proof-request/v1/${proofId}/trust-detail`);
    expect(detail.json.eudiEcosystem?.name).toBe("Webshop");
    const definition = await other.api("GET", `/api/proof-request/v2/${proofId}/presentation-definition`);
    expect(definition.status).toBe(200);
    expect(definition.json.credentialQueries.input_0.purpose).toBeUndefined();
  });

  it("registrarTrustAnchors, when set, alone decide which registrars are trusted", async () => {
    const registrarOnly = await startWalletFixture({ trustAnchors: [], registrarTrustAnchors: [registrar.root.pem] });
    const accessOnly = await startWalletFixture({ trustAnchors: [registrar.root.pem], registrarTrustAnchors: [] });
    try {
      const first = await receive(registrarOnly, (await share(registeredIdentifierId)).url);
      expect((await registrarOnly.api("GET", `/api/proof-request/v1/${first}`)).json.trustInformation).toMatchObject({
        result: "TRUSTED",
      });
      const second = await receive(accessOnly, (await share(registeredIdentifierId)).url);
      expect((await accessOnly.api("GET", `/api/proof-request/v1/${second}`)).json.trustInformation).toMatchObject({
        result: "UNTRUSTED",
      });
      const stored = await accessOnly.kit.storage.proofs.get(second);
      expect(stored?.trustInformation?.attestations[0]?.reason).toContain("does not lead to a trusted registrar");
    } finally {
      await registrarOnly?.close();
      await accessOnly?.close();
    }
  });

  it("a genuine registration certificate of another relying party (not naming this DID) is UNTRUSTED", async () => {
    // the certificate is valid and signed by the trusted registrar, but names only the webshop's LEI: copied
    const created = await createIdentifier("copycat verifier", [
      { type: "REGISTRATION_CERTIFICATE", data: await signRegistrationCertificate(registrar) },
    ]);
    expect(created.status, created.text).toBe(201);
    const proofId = await receive(trusting, (await share(created.json.id as string)).url);
    const proof = await trusting.api("GET", `/api/proof-request/v1/${proofId}`);
    expect(proof.json.trustInformation).toMatchObject({ result: "UNTRUSTED", name: "Webshop" });
    const stored = await trusting.kit.storage.proofs.get(proofId);
    expect(stored?.trustInformation?.attestations[0]?.reason).toMatch(/names "LEIXG-743700EB2QF2J1WRO915", not/);
    const definition = await trusting.api("GET", `/api/proof-request/v2/${proofId}/presentation-definition`);
    expect(definition.json.credentialQueries.input_0.purpose).toBeUndefined();
  });

  it("a tampered registration certificate is UNTRUSTED even for the trusting wallet", async () => {
    const created = await createIdentifier("tampered verifier", async (did: string) => [
      { type: "REGISTRATION_CERTIFICATE", data: await signRegistrationCertificate(registrar, boundClaims(did)) },
    ]);
    expect(created.status, created.text).toBe(201);
    const identifier = (await verifier.kit.storage.identifiers.get(created.json.id))!;
    const [entry] = identifier.trustInformation as { type: string; data: string }[];
    // someone edits the stored certificate (a different name under the registrar's signature)
    await verifier.kit.storage.identifiers.update(identifier.id, {
      trustInformation: [{ ...entry, data: tamper(entry!.data, (claims) => ({ ...claims, name: "Bank" })) }],
    });
    const proofId = await receive(trusting, (await share(identifier.id)).url);
    const proof = await trusting.api("GET", `/api/proof-request/v1/${proofId}`);
    expect(proof.json.trustInformation).toMatchObject({ result: "UNTRUSTED", name: "Bank" });
    const stored = await trusting.kit.storage.proofs.get(proofId);
    expect(stored?.trustInformation?.attestations[0]?.reason).toContain("signature does not verify");
    const definition = await trusting.api("GET", `/api/proof-request/v2/${proofId}/presentation-definition`);
    expect(definition.json.credentialQueries.input_0.purpose).toBeUndefined();
  });

  it("requests without verifier_info (redirect_uri, or a verifier without a certificate) have no trust information", async () => {
    // redirect_uri requests are unsigned: the certificate is not sent
    const unsigned = await share(registeredIdentifierId, "redirect_uri");
    expect(new URL(unsigned.url).searchParams.has("verifier_info")).toBe(false);
    // a verifier identifier without trust information
    const plain = await share(verifier.didIdentifierId);
    for (const url of [unsigned.url, plain.url]) {
      const proofId = await receive(trusting, url);
      const proof = await trusting.api("GET", `/api/proof-request/v1/${proofId}`);
      expect(proof.status).toBe(200);
      expect(proof.json.trustInformation).toBeUndefined();
      const detail = await trusting.api("GET", `/api/proof-request/v1/${proofId}/trust-detail`);
      expect(detail.status).toBe(200);
      expect(detail.json).toEqual({});
      const definition = await trusting.api("GET", `/api/proof-request/v2/${proofId}/presentation-definition`);
      expect(definition.json.credentialQueries.input_0.purpose).toBeUndefined();
    }
  });

  it("trust-detail of an unknown proof is 404 BR_0012", async () => {
    for (const id of [randomUUID(), "not-a-uuid"]) {
      const response = await trusting.api("GET", `/api/proof-request/v1/${id}/trust-detail`);
      expect(response.status).toBe(404);
      expect(response.json.code).toBe("BR_0012");
    }
  });

  it("refuses malformed registration certificates on identifier create (400) and stores nothing", async () => {
    const stranger = await createTestCertificate(registrar.root, "Someone else");
    const now = Math.floor(Date.now() / 1000);
    const cases: { what: string; data: unknown; type?: string; code: string; detail: string }[] = [
      { what: "not a JWT", data: "certainly-not-a-jwt", code: "BR_0355", detail: "not a compact JWS" },
      {
        what: "wrong typ",
        data: await signRegistrationCertificate(registrar, exampleClaims(), { typ: "JWT" }),
        code: "BR_0355",
        detail: "typ must be rc-wrp+jwt",
      },
      {
        what: "signed by another key than its x5c",
        data: await signRegistrationCertificate(registrar, exampleClaims(), {
          key: stranger.keys.privateKey as CryptoKey,
        }),
        code: "BR_0211",
        detail: "signature does not verify",
      },
      {
        what: "x5c that is no certificate",
        data: await new SignJWT(exampleClaims())
          .setProtectedHeader({ alg: "ES256", typ: "rc-wrp+jwt", x5c: ["bm90IGEgY2VydA=="] })
          .sign(registrar.signer.keys.privateKey as CryptoKey),
        code: "BR_0224",
        detail: "x5c",
      },
      {
        what: "no name and no dpa",
        data: await signRegistrationCertificate(registrar, exampleClaims({ name: undefined, dpa: undefined })),
        code: "BR_0355",
        detail: "name",
      },
      {
        what: "expired",
        data: await signRegistrationCertificate(registrar, exampleClaims({ iat: now - 7200, exp: now - 3600 })),
        code: "BR_0213",
        detail: "expired",
      },
      {
        what: "exp before iat",
        data: await signRegistrationCertificate(registrar, exampleClaims({ iat: now + 7200, exp: now + 3600 })),
        code: "BR_0355",
        detail: "not after",
      },
      { what: "unknown type", type: "TRUST_MARK", data: registrationCertificate, code: "BR_0084", detail: "type" },
      { what: "data not a string", data: { jwt: registrationCertificate }, code: "BR_0084", detail: "data" },
    ];
    for (const bad of cases) {
      const name = `refused ${bad.what}`;
      const response = await createIdentifier(name, [
        { type: "REGISTRATION_CERTIFICATE", data: registrationCertificate },
        { type: bad.type ?? "REGISTRATION_CERTIFICATE", data: bad.data },
      ]);
      expect(response.status, bad.what).toBe(400);
      expect(response.json.code, bad.what).toBe(bad.code);
      expect(response.json.cause.message, bad.what).toContain(bad.detail);
      const stored = await verifier.kit.storage.identifiers.findMany({ op: "eq", column: "name", value: name });
      expect(stored, bad.what).toHaveLength(0);
    }
  });

  it("accepts a VERIFIER_ATTESTATION entry (credkit extension) next to registration certificates", async () => {
    const exp = Math.floor(Date.now() / 1000) + 3600;
    const attestation = await new SignJWT({ sub: "verifier.example", exp })
      .setProtectedHeader({ alg: "ES256", typ: "verifier-attestation+jwt" })
      .sign(registrar.signer.keys.privateKey as CryptoKey);
    const created = await createIdentifier("attested verifier", [
      { type: "VERIFIER_ATTESTATION", data: attestation },
      { type: "REGISTRATION_CERTIFICATE", data: registrationCertificate },
    ]);
    expect(created.status, created.text).toBe(201);
    const detail = await verifier.api("GET", `/api/identifier/v1/${created.json.id}`);
    expect(detail.json.trustInformation).toEqual([
      { type: "VERIFIER_ATTESTATION", data: attestation, validTo: new Date(exp * 1000).toISOString() },
      expect.objectContaining({ type: "REGISTRATION_CERTIFICATE" }),
    ]);
  });

  it("describes the trust-detail route in the OpenAPI document", async () => {
    const document = await verifier.api("GET", "/api-docs/openapi.json");
    expect(document.status).toBe(200);
    expect(document.json.paths["/api/proof-request/v1/{id}/trust-detail"]?.get).toBeDefined();
  });
});
