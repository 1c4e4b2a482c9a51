/**
 * `verifier_info` from an INDEPENDENT verifier: request objects built and signed here with plain jose (did:jwk under the
 * decentralized_identifier prefix, an X.509 access certificate under x509_hash, or unsigned under redirect_uri), passed
 * by value (`request=`), carrying ETSI TS 119 475 registration certificates signed by a test registrar. The wallet is
 * credkit; what it concluded is read through its SDK (the same services the REST endpoints call).
 */
import { createHash, randomUUID } from "node:crypto";
import { exportJWK, generateKeyPair, type JWK, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Credkit } from "../../src/credkit.js";
import { createTestKit } from "../../src/testing/create-test-kit.js";
import {
  createRegistrar,
  exampleClaims,
  type Registrar,
  signRegistrationCertificate,
} from "../support/registration-certificate-fixture.js";
import { createTestCertificate, createTestRootCa, type TestCertificate } from "../support/x509-fixture.js";

const RESPONSE_URI = "http://127.0.0.1:9/response";
const DCQL = {
  credentials: [
    { id: "pid", format: "dc+sd-jwt", meta: { vct_values: ["urn:eudi:pid:1"] }, claims: [{ path: ["given_name"] }] },
    { id: "address", format: "dc+sd-jwt", meta: { vct_values: ["urn:example:address"] }, claims: [{ path: ["city"] }] },
  ],
};

interface IndependentVerifier {
  did: string;
  kid: string;
  privateKey: CryptoKey;
}

async function didJwkVerifier(): Promise<IndependentVerifier> {
  const pair = await generateKeyPair("ES256", { extractable: true });
  const jwk: JWK = await exportJWK(pair.publicKey);
  const did = `did:jwk:${Buffer.from(JSON.stringify({ kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y })).toString("base64url")}`;
  return { did, kid: `${did}#0`, privateKey: pair.privateKey };
}

function requestParameters(clientId: string, extra: Record<string, unknown>) {
  return {
    client_id: clientId,
    response_type: "vp_token",
    response_mode: "direct_post",
    response_uri: RESPONSE_URI,
    nonce: randomUUID(),
    state: randomUUID(),
    dcql_query: DCQL,
    aud: "https://self-issued.me/v2",
    iat: Math.floor(Date.now() / 1000),
    exp: Math.floor(Date.now() / 1000) + 600,
    ...extra,
  };
}

describe("verifier_info from an independent verifier (plain jose) resolved by the credkit wallet", () => {
  let registrar: Registrar;
  let accessRoot: TestCertificate;
  let wallet: Credkit;
  let organisationId: string;
  let verifier: IndependentVerifier;

  beforeAll(async () => {
    registrar = await createRegistrar("Interop Registrar");
    accessRoot = await createTestRootCa("Interop Access CA");
    verifier = await didJwkVerifier();
    wallet = await createTestKit({
      config: {
        app: { http: { allowInsecureHttpTransport: true } },
        certificateValidation: { trustAnchors: [registrar.root.pem, accessRoot.pem] },
      },
    });
    organisationId = (await wallet.organisations.create({ name: `wallet ${randomUUID()}` })).id;
  });

  afterAll(async () => {
    await wallet?.close();
  });

  /** a request signed by the did:jwk verifier, by value */
  async function signedRequest(verifierInfo: unknown): Promise<string> {
    const clientId = `decentralized_identifier:${verifier.did}`;
    const jwt = await new SignJWT(
      requestParameters(clientId, verifierInfo === undefined ? {} : { verifier_info: verifierInfo }),
    )
      .setProtectedHeader({ alg: "ES256", typ: "oauth-authz-req+jwt", kid: verifier.kid })
      .sign(verifier.privateKey);
    return `openid4vp://?client_id=${encodeURIComponent(clientId)}&request=${jwt}`;
  }

  async function receive(url: string) {
    const { proofId } = (await wallet.holder.handleInvitation({ url, organisationId })) as { proofId: string };
    const proof = (await wallet.storage.proofs.get(proofId))!;
    return {
      proofId,
      proof,
      detail: await wallet.proofRequests.get(proofId),
      trustDetail: await wallet.proofRequests.trustDetail(proofId),
      definition: await wallet.holder.getPresentationDefinition(proofId),
    };
  }

  it("TRUSTED: a registration certificate for one credential query gives that query its purpose", async () => {
    const certificate = await signRegistrationCertificate(
      registrar,
      exampleClaims({
        name: "Post Office",
        // the VAT number names the relying party; the DID binds the certificate to the request's signer (§5.1)
        sub: {
          id: [
            { type: "http://data.europa.eu/eudi/id/VAT", identifier: "VATFI-12345678" },
            { type: "did", identifier: verifier.did },
          ],
          legal_name: "Posti Oy",
        },
        service: undefined,
        srv_description: [{ lang: "en", value: "Parcels." }],
        info_uri: "https://post.invalid",
        support_uri: "help@post.invalid",
        dpa: undefined,
        supervisory_authority: { email: "dpa@fi.invalid", phone: "+358 1", uri: "https://dpa.fi.invalid" },
        act: undefined,
        public_body: true,
        purpose: [
          { lang: "en", value: "Proof of address for parcel pick-up." },
          { lang: "fi", value: "Osoitteen todistaminen." },
        ],
      }),
    );
    const { detail, trustDetail, definition, proof } = await receive(
      await signedRequest([
        { format: "registration_cert", data: certificate, credential_ids: ["address"] },
        { format: "example_statement", data: { any: "thing" } },
      ]),
    );
    expect(detail.trustInformation).toMatchObject({ name: "Post Office", result: "TRUSTED" });
    expect(proof.trustInformation?.attestations.map((a) => a.result)).toEqual(["TRUSTED", "UNKNOWN"]);
    expect(proof.trustInformation?.attestations[0]).toMatchObject({
      credentialIds: ["address"],
      trustAnchor: expect.stringContaining("Interop Registrar Root CA"),
      signer: expect.stringContaining("Interop Registrar WRPRC Signer"),
    });
    expect(trustDetail).toEqual({
      eudiEcosystem: {
        name: "Post Office",
        website: "https://post.invalid",
        email: "help@post.invalid",
        country: "FI",
        identifier: "VATFI-12345678",
        serviceDescription: [{ en: "Parcels." }],
        supervisoryAuthority: { email: "dpa@fi.invalid", phone: "+358 1", uri: "https://dpa.fi.invalid" },
        isPublicSector: true,
      },
    });
    expect(definition.credentialQueries.address?.purpose).toBe("Proof of address for parcel pick-up.");
    expect(definition.credentialQueries.pid?.purpose).toBeUndefined();
  });

  it("UNTRUSTED without refusing the request: expired, unanchored, old typ, unsigned request, bad credential_ids", async () => {
    const now = Math.floor(Date.now() / 1000);
    const strangers = await createRegistrar("Unknown Registrar");
    const cases: { what: string; url: string; reason: string }[] = [
      {
        what: "expired",
        url: await signedRequest([
          {
            format: "registration_cert",
            data: await signRegistrationCertificate(registrar, exampleClaims({ iat: now - 7200, exp: now - 3600 })),
          },
        ]),
        reason: "expired at",
      },
      {
        what: "not yet valid",
        url: await signedRequest([
          {
            format: "registration_cert",
            data: await signRegistrationCertificate(registrar, exampleClaims({ nbf: now + 3600 })),
          },
        ]),
        reason: "not valid before",
      },
      {
        what: "registrar not anchored",
        url: await signedRequest([{ format: "registration_cert", data: await signRegistrationCertificate(strangers) }]),
        reason: "does not lead to a trusted registrar",
      },
      {
        what: "older typ rc-rp+jwt",
        url: await signedRequest([
          {
            format: "registration_cert",
            data: await signRegistrationCertificate(registrar, exampleClaims(), { typ: "rc-rp+jwt" }),
          },
        ]),
        reason: "typ must be rc-wrp+jwt",
      },
      {
        what: "credential_ids naming no query",
        url: await signedRequest([
          {
            format: "registration_cert",
            data: await signRegistrationCertificate(registrar),
            credential_ids: ["mdl"],
          },
        ]),
        reason: "not a credential query",
      },
      {
        what: "unsigned redirect_uri request",
        url: `openid4vp://?${new URLSearchParams(
          Object.entries(
            requestParameters(`redirect_uri:${RESPONSE_URI}`, {
              verifier_info: [{ format: "registration_cert", data: await signRegistrationCertificate(registrar) }],
              // URL parameters are strings: no JWT claims
              aud: undefined,
              iat: undefined,
              exp: undefined,
            }),
          )
            .filter(([, value]) => value !== undefined)
            .map(([name, value]) => [name, typeof value === "string" ? value : JSON.stringify(value)]),
        ).toString()}`,
        reason: "not bound to the verifier",
      },
      {
        what: "malformed verifier_info",
        url: await signedRequest({ format: "registration_cert", data: "x" }),
        reason: "non-empty array",
      },
    ];
    for (const bad of cases) {
      const { detail, proof, definition } = await receive(bad.url);
      expect(detail.state, bad.what).toBe("REQUESTED");
      expect(detail.trustInformation?.result, bad.what).toBe("UNTRUSTED");
      expect(proof.trustInformation?.attestations[0]?.reason, bad.what).toContain(bad.reason);
      expect(definition.credentialQueries.pid?.purpose, bad.what).toBeUndefined();
    }
  });

  it("UNKNOWN with only attestation formats the wallet does not evaluate; nothing without verifier_info", async () => {
    const unknown = await receive(await signedRequest([{ format: "example_statement", data: "eyJ..." }]));
    expect(unknown.detail.trustInformation).toEqual({ receivedAt: expect.any(Date), result: "UNKNOWN" });
    expect(unknown.trustDetail).toEqual({});
    const none = await receive(await signedRequest(undefined));
    expect(none.detail.trustInformation).toBeUndefined();
    expect(none.trustDetail).toEqual({});
  });

  it("x509_hash: the registration certificate must name the relying party of the access certificate", async () => {
    const access = await createTestCertificate(accessRoot, "Webshop Access, 2.5.4.97=LEIXG-743700EB2QF2J1WRO915");
    const clientId = `x509_hash:${createHash("sha256").update(Buffer.from(access.der, "base64")).digest("base64url")}`;
    const request = async (certificate: string) => {
      const jwt = await new SignJWT(
        requestParameters(clientId, { verifier_info: [{ format: "registration_cert", data: certificate }] }),
      )
        .setProtectedHeader({ alg: "ES256", typ: "oauth-authz-req+jwt", x5c: [access.der] })
        .sign(access.keys.privateKey as CryptoKey);
      return `openid4vp://?client_id=${encodeURIComponent(clientId)}&request=${jwt}`;
    };
    // the example certificate names LEIXG-743700EB2QF2J1WRO915: the same relying party
    const same = await receive(await request(await signRegistrationCertificate(registrar)));
    expect(same.detail.trustInformation?.result).toBe("TRUSTED");
    const otherParty = await receive(
      await request(
        await signRegistrationCertificate(
          registrar,
          exampleClaims({ sub: { id: [{ type: "http://data.europa.eu/eudi/id/LEI", identifier: "LEIXG-OTHER" }] } }),
        ),
      ),
    );
    expect(otherParty.detail.trustInformation?.result).toBe("UNTRUSTED");
    expect(otherParty.proof.trustInformation?.attestations[0]?.reason).toContain("not the relying party");
  });
});
