/**
 * OpenID4VP 1.0 Client Identifier Prefixes `x509_san_dns`, `x509_hash` and `verifier_attestation` (§5.9.3, §12), over
 * real loopback HTTP: credkit's verifier (a CERTIFICATE identifier; a KEY identifier carrying a Verifier Attestation in
 * its trustInformation) ↔ credkit's wallet trusting a test root CA (certificateValidation.trustAnchors). Each prefix is
 * presented end to end; requests the wallet cannot authenticate — untrusted chain, wrong SAN, wrong hash, response_uri
 * host mismatch, tampered signature, attestation with a wrong sub / expired / for another key / untrusted / wrong typ /
 * other redirect_uris — are refused with BR_0085 and a reason, and no holder proof is created.
 */
import { createHash, randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { CompactSign, exportJWK, generateKeyPair, type JWK } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Credkit } from "../../src/credkit.js";
import { credkitNode } from "../../src/http/mount.js";
import { memoryStorage } from "../../src/storage/memory/index.js";
import { createTestKit } from "../../src/testing/create-test-kit.js";
import {
  type CertificateIdentifier,
  createCertificateIdentifier,
  createEcdsaKey,
  createTestPki,
  mintVerifierAttestation,
  type TestPki,
} from "../support/certificate-identifier.js";
import { createApiClient } from "../support/http-harness.js";
import { decodeJws, startVerifierFixture, type VerifierFixture } from "../support/verifier-fixture.js";
import { createTestCertificate, type TestCertificate } from "../support/x509-fixture.js";

const PROTOCOL = "OPENID4VP_FINAL1";

interface ClaimJson {
  path: string;
  value: unknown;
}

function flatten(claims: ClaimJson[], out: Record<string, unknown> = {}): Record<string, unknown> {
  for (const claim of claims) {
    if (Array.isArray(claim.value)) flatten(claim.value as ClaimJson[], out);
    else out[claim.path] = claim.value;
  }
  return out;
}

const sha256Base64url = (der: string) => createHash("sha256").update(Buffer.from(der, "base64")).digest("base64url");

describe("OpenID4VP 1.0 x509_san_dns, x509_hash and verifier_attestation: credkit verifier ↔ credkit wallet", () => {
  let offset = 0;
  const clock = { now: () => new Date(Date.now() + offset) };
  let verifier: VerifierFixture;
  let host: string;
  let pki: TestPki;
  let untrusted: TestPki;
  let certificate: CertificateIdentifier;
  /** certified for verifier.example only: its x509_san_dns requests name a host that is not the response URI's */
  let foreignHost: CertificateIdentifier;
  let attestationIssuer: TestCertificate;
  let attested: { identifierId: string; publicJwk: JWK; attestation: string };
  let proofSchemaId: string;

  let wallet: Credkit;
  let walletServer: Server;
  let walletApi: ReturnType<typeof createApiClient>;
  let orgId: string;
  let credentialId: string;
  let forgery: Server;
  let forgeryUrl: string;
  const forged = new Map<string, string>();

  beforeAll(async () => {
    verifier = await startVerifierFixture({ clock });
    host = new URL(verifier.baseUrl).hostname;
    pki = await createTestPki("credkit verifiers");
    untrusted = await createTestPki("somebody else");
    certificate = await createCertificateIdentifier(verifier.api, verifier.organisationId, pki, {
      dns: ["verifier.example", host],
    });
    foreignHost = await createCertificateIdentifier(verifier.api, verifier.organisationId, pki, {
      dns: ["verifier.example"],
    });
    attestationIssuer = await createTestCertificate(pki.intermediate, "attestation issuer");
    const key = await createEcdsaKey(verifier.api, verifier.organisationId, "attested verifier key");
    const attestation = await mintVerifierAttestation({
      signer: attestationIssuer,
      chain: [pki.intermediate],
      sub: "verifier.example",
      cnfJwk: key.publicJwk,
      redirectUris: [verifier.responseUri],
    });
    const created = await verifier.api("POST", "/api/identifier/v1", {
      organisationId: verifier.organisationId,
      name: `attested verifier ${randomUUID()}`,
      key: { keyId: key.keyId },
      trustInformation: [{ type: "VERIFIER_ATTESTATION", data: attestation }],
    });
    expect(created.status, created.text).toBe(201);
    attested = { identifierId: created.json.id as string, publicJwk: key.publicJwk, attestation };
    proofSchemaId = await verifier.createProofSchema([
      {
        schema: verifier.issuer.schema,
        claims: [
          { path: "given_name", required: true },
          { path: "age", required: false },
        ],
      },
    ]);

    wallet = await createTestKit({
      config: {
        app: { http: { allowInsecureHttpTransport: true } },
        certificateValidation: { trustAnchors: [pki.root.pem] },
      },
      storage: memoryStorage(),
    });
    walletServer = createServer(credkitNode(wallet));
    await new Promise<void>((resolve) => walletServer.listen(0, "127.0.0.1", () => resolve()));
    walletApi = createApiClient(`http://127.0.0.1:${(walletServer.address() as AddressInfo).port}`);
    orgId = (await wallet.organisations.create({ name: `wallet ${randomUUID()}` })).id;
    const keyId = (
      await wallet.keys.create({
        organisationId: orgId,
        keyType: "EDDSA",
        keyParams: {},
        name: "holder key",
        storageType: "INTERNAL",
        storageParams: {},
      })
    ).id;
    const offer = await verifier.issuer.schema.createOffer();
    const { interactionId } = await wallet.holder.handleInvitation({ url: offer.url, organisationId: orgId });
    credentialId = (await wallet.holder.acceptIssuance({ interactionId, keyId })).id;

    // serves hand-made request objects at /<id>, for the requests credkit's verifier would never produce
    forgery = createServer((req, res) => {
      const body = forged.get((req.url ?? "").slice(1));
      if (body === undefined) res.writeHead(404).end();
      else res.writeHead(200, { "content-type": "application/oauth-authz-req+jwt" }).end(body);
    });
    await new Promise<void>((resolve) => forgery.listen(0, "127.0.0.1", () => resolve()));
    forgeryUrl = `http://127.0.0.1:${(forgery.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    for (const server of [walletServer, forgery]) {
      if (!server) continue;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    await wallet?.close();
    await wallet?.storage.close();
    await verifier?.close();
  });

  async function share(
    params: { clientIdScheme?: string; responseMode?: string },
    create: { verifier?: string; verifierCertificate?: string },
  ) {
    const created = await verifier.api("POST", "/api/proof-request/v1", {
      proofSchemaId,
      protocol: PROTOCOL,
      ...create,
    });
    expect(created.status, created.text).toBe(201);
    const proofId = created.json.id as string;
    const shared = await verifier.api("POST", `/api/proof-request/v1/${proofId}/share`, { params });
    return { proofId, shared };
  }

  async function sharedRequest(
    params: { clientIdScheme?: string; responseMode?: string },
    create: { verifier?: string; verifierCertificate?: string },
  ) {
    const { proofId, shared } = await share(params, create);
    expect(shared.status, shared.text).toBe(201);
    const url = new URL(shared.json.url as string);
    const requestUri = url.searchParams.get("request_uri")!;
    const response = await fetch(requestUri);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/oauth-authz-req+jwt");
    const requestObject = await response.text();
    return {
      proofId,
      url: url.toString(),
      clientId: url.searchParams.get("client_id")!,
      requestObject,
      ...decodeJws(requestObject),
    };
  }

  /** handle-invitation → present the identity credential → the verifier's proof */
  async function present(url: string) {
    const handled = await walletApi("POST", "/api/interaction/v1/handle-invitation", { url, organisationId: orgId });
    expect(handled.status, handled.text).toBe(201);
    const { interactionId, proofId } = handled.json as { interactionId: string; proofId: string };
    const stored = (await wallet.storage.interactions.get(interactionId))?.data as Record<string, unknown>;
    const submitted = await walletApi("POST", "/api/interaction/v2/presentation-submit", {
      interactionId,
      submission: { input_0: { credentialId } },
    });
    expect(submitted.status, submitted.text).toBe(204);
    const holderProof = (await walletApi("GET", `/api/proof-request/v1/${proofId}`)).json;
    expect(holderProof.state).toBe("ACCEPTED");
    return { stored, holderProof };
  }

  async function walletRows() {
    const proofs = await wallet.storage.proofs.findMany({ op: "eq", column: "organisationId", value: orgId });
    const interactions = await wallet.storage.interactions.findMany({
      op: "eq",
      column: "organisationId",
      value: orgId,
    });
    return { proofs: proofs.length, interactions: interactions.length };
  }

  /** the wallet refuses the invitation with BR_0085 naming `reason`, and stores nothing */
  async function expectRefused(url: string, reason: string | RegExp) {
    const before = await walletRows();
    const handled = await walletApi("POST", "/api/interaction/v1/handle-invitation", { url, organisationId: orgId });
    expect(handled.status, handled.text).toBe(400);
    expect(handled.json.code).toBe("BR_0085");
    if (typeof reason === "string") expect(handled.json.cause.message).toContain(reason);
    else expect(handled.json.cause.message).toMatch(reason);
    expect(await walletRows()).toEqual(before);
    return handled.json.cause.message as string;
  }

  /** an openid4vp:// URL whose request_uri serves `requestObject` */
  function forgedUrl(clientId: string, requestObject: string): string {
    const id = randomUUID();
    forged.set(id, requestObject);
    return `openid4vp://?client_id=${encodeURIComponent(clientId)}&request_uri=${encodeURIComponent(`${forgeryUrl}/${id}`)}`;
  }

  async function sign(header: Record<string, unknown>, payload: Record<string, unknown>, key: CryptoKey) {
    return new CompactSign(new TextEncoder().encode(JSON.stringify(payload)))
      .setProtectedHeader({ alg: "ES256", typ: "oauth-authz-req+jwt", ...header })
      .sign(key);
  }

  /** the parameters of a real request, as a hand-made request object's payload under another client_id */
  async function requestPayload(clientId: string): Promise<Record<string, unknown>> {
    const real = await sharedRequest({ clientIdScheme: "x509_hash" }, { verifier: certificate.identifierId });
    return { ...real.payload, client_id: clientId };
  }

  describe("presentations", () => {
    it("x509_san_dns, direct_post: client_id is the leaf's dNSName SAN of the response URI host; signed with x5c", async () => {
      const request = await sharedRequest(
        { clientIdScheme: "x509_san_dns", responseMode: "direct_post" },
        { verifier: certificate.identifierId },
      );
      expect(request.clientId).toBe(`x509_san_dns:${host}`);
      expect(request.payload.client_id).toBe(request.clientId);
      expect(new URL(request.payload.response_uri as string).hostname).toBe(host);
      // the chain without the trust anchor (HAIP 1.0 §5), leaf first; the x5c names the key, no kid
      expect(request.header).toMatchObject({ alg: "ES256", typ: "oauth-authz-req+jwt" });
      expect(request.header.x5c).toEqual([certificate.leaf.der, pki.intermediate.der]);
      expect(request.header.kid).toBeUndefined();

      const { stored, holderProof } = await present(request.url);
      expect(stored).toMatchObject({
        clientId: request.clientId,
        clientIdPrefix: "x509_san_dns",
        verifierCertificate: {
          dnsNames: ["verifier.example", host],
          x509Hash: sha256Base64url(certificate.leaf.der),
          trustAnchor: expect.stringContaining("credkit verifiers root"),
          subject: expect.stringContaining("CN=verifier"),
        },
      });
      // the holder proof detail shows the verifier as the wallet authenticated it
      expect(holderProof.verifierAuthentication).toEqual({
        clientId: request.clientId,
        clientIdPrefix: "x509_san_dns",
        certificate: stored.verifierCertificate,
      });
      const proof = await verifier.proof(request.proofId);
      expect(proof.state, proof.errorReason).toBe("ACCEPTED");
      expect(proof.verifier).toMatchObject({ id: certificate.identifierId, type: "CERTIFICATE" });
      expect(proof.verifierAuthentication).toBeUndefined();
      expect(flatten(proof.proofInputs[0].claims)).toEqual({ given_name: "Erika" });
    });

    it("x509_hash, direct_post.jwt: client_id is the base64url SHA-256 of the leaf DER", async () => {
      const request = await sharedRequest(
        { clientIdScheme: "x509_hash", responseMode: "direct_post.jwt" },
        { verifier: certificate.identifierId },
      );
      expect(request.clientId).toBe(`x509_hash:${sha256Base64url(certificate.leaf.der)}`);
      expect(request.header.x5c).toEqual([certificate.leaf.der, pki.intermediate.der]);
      const { stored } = await present(request.url);
      expect(stored).toMatchObject({ clientIdPrefix: "x509_hash", responseMode: "direct_post.jwt" });
      const proof = await verifier.proof(request.proofId);
      expect(proof.state, proof.errorReason).toBe("ACCEPTED");
    });

    it("a CERTIFICATE verifier shares x509_hash by default; verifierCertificate alone names the verifier", async () => {
      const request = await sharedRequest({}, { verifierCertificate: certificate.certificateId });
      expect(request.clientId).toBe(`x509_hash:${sha256Base64url(certificate.leaf.der)}`);
      const proof = await verifier.proof(request.proofId);
      expect(proof.verifier).toMatchObject({ id: certificate.identifierId });
      await present(request.url);
      expect((await verifier.proof(request.proofId)).state).toBe("ACCEPTED");
    });

    it("verifier_attestation: client_id is the attestation's sub; the attestation rides in the jwt header", async () => {
      const request = await sharedRequest(
        { clientIdScheme: "verifier_attestation" },
        { verifier: attested.identifierId },
      );
      expect(request.clientId).toBe("verifier_attestation:verifier.example");
      expect(request.header).toMatchObject({ typ: "oauth-authz-req+jwt", alg: "ES256", jwt: attested.attestation });
      const { stored, holderProof } = await present(request.url);
      expect(holderProof.verifierAuthentication).toMatchObject({
        clientId: "verifier_attestation:verifier.example",
        clientIdPrefix: "verifier_attestation",
        attestation: { issuer: "https://attestations.example", subject: "verifier.example" },
      });
      expect(stored).toMatchObject({
        clientIdPrefix: "verifier_attestation",
        verifierAttestation: {
          issuer: "https://attestations.example",
          subject: "verifier.example",
          redirectUris: [verifier.responseUri],
          signedBy: { subject: expect.stringContaining("attestation issuer") },
        },
      });
      expect((await verifier.proof(request.proofId)).state).toBe("ACCEPTED");
    });
  });

  describe("the wallet refuses what it cannot authenticate (BR_0085, nothing stored)", () => {
    it("x509_san_dns: the response_uri host is not the client identifier", async () => {
      const request = await sharedRequest({ clientIdScheme: "x509_san_dns" }, { verifier: foreignHost.identifierId });
      expect(request.clientId).toBe("x509_san_dns:verifier.example");
      await expectRefused(request.url, `the host of the response_uri must be the client identifier "verifier.example"`);
    });

    it("a chain that does not lead to a trust anchor", async () => {
      const leaf = await createTestCertificate(untrusted.intermediate, "impostor", { dns: [host] });
      const clientId = `x509_san_dns:${host}`;
      const object = await sign(
        { x5c: [leaf.der, untrusted.intermediate.der] },
        await requestPayload(clientId),
        leaf.keys.privateKey,
      );
      const reason = await expectRefused(forgedUrl(clientId, object), "does not lead to a trust anchor");
      expect(reason).toContain("CN=impostor");
      // and a wallet with no trust anchors at all says so
      const bare = await createTestKit({ config: { app: { http: { allowInsecureHttpTransport: true } } } });
      try {
        const request = await sharedRequest({ clientIdScheme: "x509_hash" }, { verifier: certificate.identifierId });
        const org = (await bare.organisations.create({ name: "bare" })).id;
        await expect(bare.holder.handleInvitation({ url: request.url, organisationId: org })).rejects.toMatchObject({
          code: "BR_0085",
          detail: expect.stringContaining("no trust anchors are configured"),
        });
      } finally {
        await bare.close();
        await bare.storage.close();
      }
    });

    it("x509_san_dns: the client identifier is not a dNSName SAN of the leaf", async () => {
      const leaf = await createTestCertificate(pki.intermediate, "other", { dns: ["other.example"] });
      const clientId = `x509_san_dns:${host}`;
      const object = await sign(
        { x5c: [leaf.der, pki.intermediate.der] },
        await requestPayload(clientId),
        leaf.keys.privateKey,
      );
      await expectRefused(
        forgedUrl(clientId, object),
        `"${host}" is not a dNSName SAN of the request's leaf certificate`,
      );
    });

    it("x509_hash: the client identifier is not the hash of the leaf", async () => {
      const leaf = await createTestCertificate(pki.intermediate, "other", { dns: [host] });
      const clientId = `x509_hash:${sha256Base64url(certificate.leaf.der)}`;
      const object = await sign(
        { x5c: [leaf.der, pki.intermediate.der] },
        await requestPayload(clientId),
        leaf.keys.privateKey,
      );
      await expectRefused(forgedUrl(clientId, object), "is not the SHA-256 hash of the request's leaf certificate");
    });

    it("a request object whose payload was changed after signing (tampered signature)", async () => {
      const request = await sharedRequest({ clientIdScheme: "x509_hash" }, { verifier: certificate.identifierId });
      const [header, , signature] = request.requestObject.split(".");
      const payload = Buffer.from(JSON.stringify({ ...request.payload, nonce: "forged-nonce" })).toString("base64url");
      await expectRefused(
        forgedUrl(request.clientId, `${header}.${payload}.${signature}`),
        "the signature does not verify with the key of the x5c leaf certificate",
      );
      // and a request that is not signed at all
      const unsigned = `${Buffer.from(JSON.stringify({ alg: "none", typ: "oauth-authz-req+jwt" })).toString("base64url")}.${payload}.`;
      await expectRefused(forgedUrl(request.clientId, unsigned), "a x509_hash request must be signed");
    });

    it("a leaf whose key usage does not allow digitalSignature (keyCertSign only) cannot sign requests", async () => {
      const pair = await generateKeyPair("ES256", { extractable: true });
      const leaf = await createTestCertificate(pki.intermediate, "cert-sign only verifier", {
        publicJwk: await exportJWK(pair.publicKey),
        keyUsage: 32, // @peculiar/x509 KeyUsageFlags.keyCertSign
      });
      const clientId = `x509_hash:${sha256Base64url(leaf.der)}`;
      const object = await sign(
        { x5c: [leaf.der, pki.intermediate.der] },
        await requestPayload(clientId),
        pair.privateKey,
      );
      await expectRefused(forgedUrl(clientId, object), "key usage does not allow digitalSignature");
    });

    it("a request whose parameters are nested too deeply answers 400, not 5xx", async () => {
      const pair = await generateKeyPair("ES256", { extractable: true });
      const leaf = await createTestCertificate(pki.intermediate, "deep verifier", {
        publicJwk: await exportJWK(pair.publicKey),
      });
      const clientId = `x509_hash:${sha256Base64url(leaf.der)}`;
      // 20 000 nested arrays: JSON.parse reads them, a recursive walk or JSON.stringify of them overflows the stack
      const payload = JSON.stringify({
        ...(await requestPayload(clientId)),
        client_metadata: { extra: "DEEP" },
      }).replace('"DEEP"', `${"[".repeat(20_000)}"x"${"]".repeat(20_000)}`);
      const object = await new CompactSign(new TextEncoder().encode(payload))
        .setProtectedHeader({ alg: "ES256", typ: "oauth-authz-req+jwt", x5c: [leaf.der, pki.intermediate.der] })
        .sign(pair.privateKey);
      await expectRefused(forgedUrl(clientId, object), "nested deeper than 64 levels");
    });

    describe("verifier_attestation", () => {
      let requestKey: { privateKey: CryptoKey; publicJwk: JWK };
      const clientId = "verifier_attestation:verifier.example";

      beforeAll(async () => {
        const pair = await generateKeyPair("ES256", { extractable: true });
        requestKey = { privateKey: pair.privateKey, publicJwk: await exportJWK(pair.publicKey) };
      });

      async function attestedRequest(attestation: Partial<Parameters<typeof mintVerifierAttestation>[0]>) {
        const jwt = await mintVerifierAttestation({
          signer: attestationIssuer,
          chain: [pki.intermediate],
          sub: "verifier.example",
          cnfJwk: requestKey.publicJwk,
          ...attestation,
        });
        const object = await sign({ jwt }, await requestPayload(clientId), requestKey.privateKey);
        return forgedUrl(clientId, object);
      }

      it("accepts a well-formed one (the baseline of the cases below)", async () => {
        const url = await attestedRequest({});
        const handled = await walletApi("POST", "/api/interaction/v1/handle-invitation", {
          url,
          organisationId: orgId,
        });
        expect(handled.status, handled.text).toBe(201);
        await walletApi("POST", "/api/interaction/v1/presentation-reject", {
          interactionId: handled.json.interactionId,
        });
      });

      it("an attestation for another client identifier (sub)", async () => {
        await expectRefused(
          await attestedRequest({ sub: "someone.example" }),
          `the verifier attestation's sub "someone.example" is not the client identifier "verifier.example"`,
        );
      });

      it("an expired attestation", async () => {
        const past = Math.floor(Date.now() / 1000) - 3600;
        await expectRefused(
          await attestedRequest({ exp: past, iat: past - 60 }),
          /the verifier attestation expired at \d{4}-/,
        );
      });

      it("a request not signed by the attestation's cnf key", async () => {
        const other = await generateKeyPair("ES256", { extractable: true });
        await expectRefused(
          await attestedRequest({ cnfJwk: await exportJWK(other.publicKey) }),
          "the signature does not verify with the verifier attestation's cnf.jwk",
        );
      });

      it("an attestation issuer that is not trusted", async () => {
        const issuer = await createTestCertificate(untrusted.intermediate, "rogue attestation issuer");
        await expectRefused(
          await attestedRequest({ signer: issuer, chain: [untrusted.intermediate] }),
          "the verifier attestation: the x5c certificate chain",
        );
      });

      it("a JWT of another type, and redirect_uris without the response_uri", async () => {
        await expectRefused(
          await attestedRequest({ typ: "JWT" }),
          'the verifier attestation typ must be verifier-attestation+jwt, got "JWT"',
        );
        await expectRefused(
          await attestedRequest({ redirectUris: ["https://verifier.example/cb"] }),
          "is not one of the verifier attestation's redirect_uris",
        );
      });

      it("an attestation with crit header parameters the wallet does not understand (RFC 7515 §4.1.11)", async () => {
        await expectRefused(
          await attestedRequest({ header: { crit: ["x-policy"], "x-policy": "ignore-sub" } }),
          "the verifier attestation: crit header extensions are not understood",
        );
      });

      it("a request object without the attestation", async () => {
        const object = await sign({}, await requestPayload(clientId), requestKey.privateKey);
        await expectRefused(forgedUrl(clientId, object), "must carry the Verifier Attestation JWT in its jwt header");
      });
    });
  });

  describe("OpenID4VP draft 20: client_id_scheme x509_san_dns", () => {
    it("the client_id is the bare dNSName, the request signed with x5c; credkit's wallet authenticates and presents", async () => {
      const created = await verifier.api("POST", "/api/proof-request/v1", {
        proofSchemaId,
        protocol: "OPENID4VP_DRAFT20",
        verifier: certificate.identifierId,
      });
      expect(created.status, created.text).toBe(201);
      const proofId = created.json.id as string;
      const shared = await verifier.api("POST", `/api/proof-request/v1/${proofId}/share`, {
        params: { clientIdScheme: "x509_san_dns" },
      });
      expect(shared.status, shared.text).toBe(201);
      const url = new URL(shared.json.url as string);
      expect(url.searchParams.get("client_id")).toBe(host);
      expect(url.searchParams.get("client_id_scheme")).toBe("x509_san_dns");
      const object = decodeJws(await (await fetch(url.searchParams.get("request_uri")!)).text());
      expect(object.header.x5c).toEqual([certificate.leaf.der, pki.intermediate.der]);
      expect(object.payload).toMatchObject({ client_id: host, client_id_scheme: "x509_san_dns" });

      const handled = await walletApi("POST", "/api/interaction/v1/handle-invitation", {
        url: url.toString(),
        organisationId: orgId,
      });
      expect(handled.status, handled.text).toBe(201);
      const holderProof = (await walletApi("GET", `/api/proof-request/v1/${handled.json.proofId}`)).json;
      expect(holderProof.verifierAuthentication).toMatchObject({
        clientId: host,
        clientIdPrefix: "x509_san_dns",
        certificate: { x509Hash: sha256Base64url(certificate.leaf.der) },
      });
      const definition = await walletApi(
        "GET",
        `/api/proof-request/v1/${handled.json.proofId}/presentation-definition`,
      );
      const requested = definition.json.requestGroups[0].requestedCredentials[0];
      const field = requested.fields.find((f: { name: string }) => f.name === "given_name").id as string;
      const submitted = await walletApi("POST", "/api/interaction/v1/presentation-submit", {
        interactionId: handled.json.interactionId,
        submitCredentials: { input_0: { credentialId, submitClaims: [field] } },
      });
      expect(submitted.status, submitted.text).toBe(204);
      expect((await verifier.proof(proofId)).state).toBe("ACCEPTED");

      // a certificate for another host: the wallet refuses its response_uri
      const other = await verifier.api("POST", "/api/proof-request/v1", {
        proofSchemaId,
        protocol: "OPENID4VP_DRAFT20",
        verifier: foreignHost.identifierId,
      });
      const foreign = await verifier.api("POST", `/api/proof-request/v1/${other.json.id}/share`, {
        params: { clientIdScheme: "x509_san_dns" },
      });
      expect(foreign.status, foreign.text).toBe(201);
      await expectRefused(foreign.json.url as string, "the host of the response_uri must be the client identifier");
    });
  });

  describe("the verifier refuses to share what a wallet could not authenticate", () => {
    it("x509 prefixes need a CERTIFICATE verifier; x509_san_dns a dNSName SAN", async () => {
      const { proofId, shared } = await share(
        { clientIdScheme: "x509_hash" },
        { verifier: verifier.verifierIdentifierId },
      );
      expect(shared.status).toBe(400);
      expect(shared.json.code).toBe("BR_0084");
      expect(shared.json.cause.message).toContain("needs a CERTIFICATE verifier identifier");
      expect((await verifier.proof(proofId)).state).toBe("CREATED");

      const noSan = await createCertificateIdentifier(verifier.api, verifier.organisationId, pki);
      const noDns = await share({ clientIdScheme: "x509_san_dns" }, { verifier: noSan.identifierId });
      expect(noDns.shared.status).toBe(400);
      expect(noDns.shared.json.cause.message).toContain("has no dNSName subject alternative name");
      // x509_hash does not need one
      expect((await share({ clientIdScheme: "x509_hash" }, { verifier: noSan.identifierId })).shared.status).toBe(201);
    });

    it("verifierCertificate must be a certificate of the verifier identifier", async () => {
      const created = await verifier.api("POST", "/api/proof-request/v1", {
        proofSchemaId,
        protocol: PROTOCOL,
        verifier: foreignHost.identifierId,
        verifierCertificate: certificate.certificateId,
      });
      expect(created.status).toBe(404);
      expect(created.json.code).toBe("BR_0223");
    });

    it("verifier_attestation: an identifier without attestation, one for another key, an expired one", async () => {
      const none = await share({ clientIdScheme: "verifier_attestation" }, { verifier: verifier.verifierIdentifierId });
      expect(none.shared.status).toBe(400);
      expect(none.shared.json.code).toBe("BR_0084");
      expect(none.shared.json.cause.message).toContain("carries no Verifier Attestation JWT");

      const key = await createEcdsaKey(verifier.api, verifier.organisationId, "another key");
      const soon = Math.floor(Date.now() / 1000) + 600;
      const attestation = await mintVerifierAttestation({
        signer: attestationIssuer,
        sub: "verifier.example",
        cnfJwk: attested.publicJwk,
        exp: soon,
      });
      const mismatched = await verifier.api("POST", "/api/identifier/v1", {
        organisationId: verifier.organisationId,
        name: `mismatched ${randomUUID()}`,
        key: { keyId: key.keyId },
        trustInformation: [{ type: "VERIFIER_ATTESTATION", data: attestation }],
      });
      expect(mismatched.status, mismatched.text).toBe(201);
      const wrongKey = await share({ clientIdScheme: "verifier_attestation" }, { verifier: mismatched.json.id });
      expect(wrongKey.shared.status).toBe(400);
      expect(wrongKey.shared.json.cause.message).toContain("cnf.jwk is not the signing key of verifier identifier");

      // the attested identifier's attestation runs out after an hour: an hour and a bit later it cannot be shared
      offset = 2 * 3600_000;
      try {
        const expired = await share({ clientIdScheme: "verifier_attestation" }, { verifier: attested.identifierId });
        expect(expired.shared.status).toBe(400);
        expect(expired.shared.json.cause.message).toMatch(/the Verifier Attestation expired at/);
      } finally {
        offset = 0;
      }
    });
  });
});
