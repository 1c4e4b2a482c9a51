/**
 * A deployment running its own verifier PKI: a self-signed CA identifier issues the verifier's certificate (`content`
 * with a DNS subjectAlternativeName, credkit extension), the verifier shares x509_san_dns requests signed with it, and a
 * credkit wallet that lists that CA in certificateValidation.trustAnchors authenticates and answers them — all over
 * real loopback HTTP. A wallet without the anchor refuses the same request.
 */
import { randomUUID, X509Certificate } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startVerifierFixture, type VerifierFixture } from "../support/verifier-fixture.js";
import { startWalletFixture, type WalletFixture } from "../support/wallet-fixture.js";

describe("verifier with its own CA identifier ↔ credkit wallet trusting that CA (x509_san_dns)", () => {
  let verifier: VerifierFixture;
  let host: string;
  let caPem: string;
  let certificateIdentifierId: string;
  let proofSchemaId: string;
  const wallets: WalletFixture[] = [];

  async function createKey(name: string): Promise<string> {
    const created = await verifier.api("POST", "/api/key/v1", {
      organisationId: verifier.organisationId,
      keyType: "ECDSA",
      keyParams: {},
      name: `${name} ${randomUUID()}`,
      storageType: "INTERNAL",
      storageParams: {},
    });
    expect(created.status, created.text).toBe(201);
    return created.json.id as string;
  }

  /** a wallet trusting `trustAnchors`, holding one credential of the verifier's schema */
  async function startWallet(trustAnchors: string[]): Promise<WalletFixture & { credentialId: string }> {
    const wallet = await startWalletFixture({ trustAnchors }, "ECDSA");
    wallets.push(wallet);
    const credentialId = await wallet.receiveCredential((await verifier.issuer.schema.createOffer()).url);
    return Object.assign(wallet, { credentialId });
  }

  async function shareSanDns(): Promise<{ proofId: string; url: string }> {
    const created = await verifier.api("POST", "/api/proof-request/v1", {
      proofSchemaId,
      protocol: "OPENID4VP_FINAL1",
      verifier: certificateIdentifierId,
    });
    expect(created.status, created.text).toBe(201);
    const proofId = created.json.id as string;
    const shared = await verifier.api("POST", `/api/proof-request/v1/${proofId}/share`, {
      params: { clientIdScheme: "x509_san_dns" },
    });
    expect(shared.status, shared.text).toBe(201);
    return { proofId, url: shared.json.url as string };
  }

  beforeAll(async () => {
    verifier = await startVerifierFixture();
    host = new URL(verifier.baseUrl).hostname;
    const ca = await verifier.api("POST", "/api/identifier/v1", {
      organisationId: verifier.organisationId,
      name: `Verifier CA ${randomUUID()}`,
      certificateAuthorities: [
        {
          keyId: await createKey("CA key"),
          selfSigned: {
            content: { subject: { commonName: "Acme verifier CA", countryName: "CH" } },
            signer: "X509_CERTIFICATE",
          },
        },
      ],
    });
    expect(ca.status, ca.text).toBe(201);
    const caDetail = (await verifier.api("GET", `/api/identifier/v1/${ca.json.id}`)).json;
    caPem = caDetail.certificateAuthorities[0].chain as string;
    const certificate = await verifier.api("POST", "/api/identifier/v1", {
      organisationId: verifier.organisationId,
      name: `Verifier ${randomUUID()}`,
      certificates: [
        {
          keyId: await createKey("verifier key"),
          content: {
            profile: "GENERIC",
            subject: { commonName: "Acme verifier" },
            certificateAuthority: { identifierId: ca.json.id },
            signer: "X509_CERTIFICATE",
            subjectAlternativeName: { dns: ["verifier.acme.example", host] },
          },
        },
      ],
    });
    expect(certificate.status, certificate.text).toBe(201);
    certificateIdentifierId = certificate.json.id as string;
    proofSchemaId = await verifier.createProofSchema([
      { schema: verifier.issuer.schema, claims: [{ path: "given_name", required: true }] },
    ]);
  });

  afterAll(async () => {
    for (const wallet of wallets) await wallet.close();
    await verifier?.close();
  });

  it("the issued certificate carries the DNS names, chains to the CA and shows them in x509Attributes", async () => {
    const detail = (await verifier.api("GET", `/api/identifier/v1/${certificateIdentifierId}`)).json;
    const [leafPem] = (detail.certificates[0].chain as string).split(/(?=-----BEGIN CERTIFICATE-----)/);
    const leaf = new X509Certificate(leafPem!);
    expect(leaf.subjectAltName).toBe(`DNS:verifier.acme.example, DNS:${host}`);
    expect(leaf.verify(new X509Certificate(caPem).publicKey)).toBe(true);
    const san = (detail.certificates[0].x509Attributes.extensions as { oid: string; critical: boolean }[]).find(
      (extension) => extension.oid === "2.5.29.17",
    );
    expect(san).toMatchObject({ critical: false });
  });

  it("a wallet trusting the CA authenticates the request and the presentation is accepted", async () => {
    const wallet = await startWallet([caPem]);
    const { proofId, url } = await shareSanDns();
    expect(new URL(url).searchParams.get("client_id")).toBe(`x509_san_dns:${host}`);
    const handled = await wallet.api("POST", "/api/interaction/v1/handle-invitation", {
      url,
      organisationId: wallet.organisationId,
    });
    expect(handled.status, handled.text).toBe(201);
    const submitted = await wallet.api("POST", "/api/interaction/v2/presentation-submit", {
      interactionId: handled.json.interactionId,
      submission: { input_0: { credentialId: wallet.credentialId } },
    });
    expect(submitted.status, submitted.text).toBe(204);
    expect((await verifier.proof(proofId)).state).toBe("ACCEPTED");
  });

  it("a wallet without that anchor refuses the same kind of request and stores nothing", async () => {
    const wallet = await startWallet([]);
    const { url } = await shareSanDns();
    const handled = await wallet.api("POST", "/api/interaction/v1/handle-invitation", {
      url,
      organisationId: wallet.organisationId,
    });
    expect(handled.status).toBe(400);
    expect(handled.json.code).toBe("BR_0085");
    expect(handled.json.cause.message).toMatch(/not trusted: no trust anchors are configured/);
    const proofs = await wallet.kit.storage.proofs.findMany({
      op: "eq",
      column: "organisationId",
      value: wallet.organisationId,
    });
    expect(proofs).toHaveLength(0);
  });

  it("refuses a subjectAlternativeName that is not a DNS name, storing nothing", async () => {
    const response = await verifier.api("POST", "/api/identifier/v1", {
      organisationId: verifier.organisationId,
      name: `bad SAN ${randomUUID()}`,
      certificates: [
        {
          keyId: await createKey("bad SAN key"),
          content: {
            profile: "GENERIC",
            subject: { commonName: "x" },
            certificateAuthority: { identifierId: randomUUID() },
            signer: "X509_CERTIFICATE",
            subjectAlternativeName: { dns: ["not a host name"] },
          },
        },
      ],
    });
    expect(response.status).toBe(400);
    expect(response.json.code).toBe("BR_0084");
  });
});
