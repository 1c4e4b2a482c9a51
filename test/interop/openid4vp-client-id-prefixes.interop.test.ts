/**
 * Interop of the OpenID4VP 1.0 Client Identifier Prefixes `x509_san_dns`, `x509_hash` and `verifier_attestation`
 * (§5.9.3, §12), both ways:
 *
 * 1. an independent wallet — the OpenID4VP client of @openid4vc/openid4vp, with X.509 checks done here by
 *    @peculiar/x509 and jose (not credkit code) — resolves credkit's signed requests, checks the client identifier
 *    against the x5c leaf (SAN / hash, done by the library), presents an SD-JWT VC, and credkit accepts it;
 * 2. credkit's wallet resolves requests that an independent verifier built with @openid4vc/openid4vp signs with jose
 *    and an x5c chain of its own PKI (which the wallet trusts through certificateValidation.trustAnchors), presents, and
 *    the verifier checks the presentation with @sd-jwt/sd-jwt-vc; requests it cannot authenticate are refused.
 */
import "reflect-metadata";
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type CallbackContext, type Jwk, type JwtSigner, setGlobalConfig } from "@openid4vc/oauth2";
import {
  type Openid4vpAuthorizationRequest,
  Openid4vpClient,
  Openid4vpVerifier,
  type ResolvedOpenid4vpAuthorizationRequest,
} from "@openid4vc/openid4vp";
import * as x509 from "@peculiar/x509";
import { ES256 } from "@sd-jwt/crypto-nodejs";
import { SDJwtVcInstance } from "@sd-jwt/sd-jwt-vc";
import { DcqlQuery } from "dcql";
import {
  CompactSign,
  compactVerify,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  importJWK,
  importX509,
  type JWK,
  jwtVerify,
  SignJWT,
} from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Credkit } from "../../src/credkit.js";
import { createTestKit } from "../../src/testing/create-test-kit.js";
import {
  type CertificateIdentifier,
  createCertificateIdentifier,
  createEcdsaKey,
  createTestPki,
  mintVerifierAttestation,
  type TestPki,
} from "../support/certificate-identifier.js";
import { DEFAULT_CLAIMS, PRE_AUTHORIZED_GRANT, type SchemaHandle } from "../support/issuer-fixture.js";
import { startVerifierFixture, type VerifierFixture } from "../support/verifier-fixture.js";
import { createTestCertificate, type TestCertificate } from "../support/x509-fixture.js";

setGlobalConfig({ allowInsecureUrls: true });

const sha256 = (data: string | ArrayBuffer | Uint8Array) =>
  new Uint8Array(
    createHash("sha256")
      .update(typeof data === "string" ? data : Buffer.from(data as ArrayBuffer))
      .digest(),
  );

// --- X.509 done independently of credkit (@peculiar/x509 + jose) ---

/** validates an x5c chain (leaf first) up to `anchor`: each certificate signed by the next, the last by the anchor */
async function chainLeadsTo(x5c: string[], anchor: x509.X509Certificate): Promise<boolean> {
  const chain = x5c.map((der) => new x509.X509Certificate(Buffer.from(der, "base64")));
  const now = new Date();
  for (const [index, certificate] of chain.entries()) {
    if (certificate.notBefore > now || certificate.notAfter < now) return false;
    const issuer = chain[index + 1] ?? anchor;
    if (!(await certificate.verify({ publicKey: issuer.publicKey, signatureOnly: true }))) return false;
  }
  return true;
}

function sanDnsNames(der: string): string[] {
  const certificate = new x509.X509Certificate(Buffer.from(der, "base64"));
  const san = certificate.getExtension(x509.SubjectAlternativeNameExtension);
  return san ? san.names.items.filter((name) => name.type === "dns").map((name) => name.value) : [];
}

const toPem = (der: string) =>
  `-----BEGIN CERTIFICATE-----\n${der.match(/.{1,64}/g)!.join("\n")}\n-----END CERTIFICATE-----`;

// --- 1. an @openid4vc/openid4vp wallet against credkit's verifier ---

interface StoredCredential {
  sdJwt: string;
  vct: string;
  claims: Record<string, unknown>;
  privateJwk: JWK;
}

async function obtain(schema: SchemaHandle, now: () => Date): Promise<StoredCredential> {
  const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
  const offer = await schema.createOffer(DEFAULT_CLAIMS);
  const code = ((await (await fetch(offer.offerUri)).json()) as { grants: Record<string, Record<string, string>> })
    .grants[PRE_AUTHORIZED_GRANT]!["pre-authorized_code"]!;
  const token = (await (
    await fetch(schema.endpoints.token, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: PRE_AUTHORIZED_GRANT, "pre-authorized_code": code }),
    })
  ).json()) as { access_token: string };
  const { c_nonce } = (await (await fetch(schema.endpoints.nonce, { method: "POST" })).json()) as { c_nonce: string };
  const proof = await new SignJWT({ nonce: c_nonce })
    .setProtectedHeader({ alg: "ES256", typ: "openid4vci-proof+jwt", jwk: await exportJWK(publicKey) })
    .setAudience(schema.credentialIssuer)
    .setIssuedAt(Math.floor(now().getTime() / 1000))
    .sign(privateKey);
  const response = await fetch(schema.endpoints.credential, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token.access_token}` },
    body: JSON.stringify({ credential_configuration_id: schema.vct, proofs: { jwt: [proof] } }),
  });
  expect(response.status).toBe(200);
  const sdJwt = ((await response.json()) as { credentials: { credential: string }[] }).credentials[0]!.credential;
  const all = (await new SDJwtVcInstance({ hasher: sha256, hashAlg: "sha-256" }).getClaims(sdJwt)) as Record<
    string,
    unknown
  >;
  const claims = Object.fromEntries(
    Object.entries(all).filter(([k]) => !["iss", "iat", "exp", "nbf", "cnf", "status", "vct", "_sd_alg"].includes(k)),
  );
  return { sdJwt, vct: all.vct as string, claims, privateJwk: await exportJWK(privateKey) };
}

function frameOf(output: unknown): Record<string, unknown> | true {
  if (Array.isArray(output)) return Object.fromEntries(output.map((item, index) => [index, frameOf(item)]));
  if (output !== null && typeof output === "object") {
    return Object.fromEntries(Object.entries(output).map(([key, value]) => [key, frameOf(value)]));
  }
  return true;
}

describe("interop: an @openid4vc/openid4vp wallet resolves credkit's x509_san_dns, x509_hash and verifier_attestation requests", () => {
  let verifier: VerifierFixture;
  let pki: TestPki;
  let anchor: x509.X509Certificate;
  let certificate: CertificateIdentifier;
  let foreignHost: CertificateIdentifier;
  let attestedIdentifierId: string;
  let credential: StoredCredential;
  let proofSchemaId: string;
  /** what verifyJwt saw: the wallet really authenticated the requests */
  const verified: { method: string; subject?: string }[] = [];

  const callbacks: Omit<CallbackContext, "generateRandom" | "clientAuthentication"> = {
    fetch: (input, init) => fetch(input, init),
    hash: (data, alg) => new Uint8Array(createHash(alg.replace("-", "")).update(data).digest()),
    getX509CertificateMetadata: (der) => ({ sanDnsNames: sanDnsNames(der), sanUriNames: [] }),
    verifyJwt: async (signer: JwtSigner, { compact, header }) => {
      if (signer.method === "x5c") {
        if (!(await chainLeadsTo(signer.x5c, anchor))) return { verified: false };
        const leaf = await importX509(toPem(signer.x5c[0]!), header.alg);
        try {
          await compactVerify(compact, leaf);
        } catch {
          return { verified: false };
        }
        verified.push({
          method: "x5c",
          subject: new x509.X509Certificate(Buffer.from(signer.x5c[0]!, "base64")).subject,
        });
        return { verified: true, signerJwk: (await exportJWK(leaf)) as Jwk };
      }
      if (signer.method === "custom" && typeof header.jwt === "string") {
        // verifier_attestation (§12): the attestation is signed by a trusted x5c chain; its cnf.jwk signed the request
        const attestationHeader = decodeProtectedHeader(header.jwt);
        const x5c = attestationHeader.x5c as string[];
        if (attestationHeader.typ !== "verifier-attestation+jwt" || !(await chainLeadsTo(x5c, anchor))) {
          return { verified: false };
        }
        const { payload } = await jwtVerify(header.jwt, await importX509(toPem(x5c[0]!), "ES256"));
        const cnfJwk = (payload.cnf as { jwk: JWK }).jwk;
        try {
          await compactVerify(compact, await importJWK(cnfJwk, header.alg));
        } catch {
          return { verified: false };
        }
        verified.push({ method: "verifier_attestation", subject: payload.sub });
        return { verified: true, signerJwk: cnfJwk as Jwk };
      }
      return { verified: false };
    },
    encryptJwe: () => {
      throw new Error("direct_post only");
    },
    signJwt: () => {
      throw new Error("this wallet does not sign authorization responses");
    },
    decryptJwe: () => {
      throw new Error("this wallet does not accept encrypted requests");
    },
  };
  const client = new Openid4vpClient({ callbacks });

  beforeAll(async () => {
    verifier = await startVerifierFixture();
    pki = await createTestPki("interop verifiers");
    anchor = pki.root.certificate;
    const host = new URL(verifier.baseUrl).hostname;
    certificate = await createCertificateIdentifier(verifier.api, verifier.organisationId, pki, {
      dns: [host],
    });
    foreignHost = await createCertificateIdentifier(verifier.api, verifier.organisationId, pki, {
      dns: ["verifier.example"],
    });
    const key = await createEcdsaKey(verifier.api, verifier.organisationId, "attested");
    const attestationIssuer = await createTestCertificate(pki.intermediate, "attestation issuer");
    const attestation = await mintVerifierAttestation({
      signer: attestationIssuer,
      chain: [pki.intermediate],
      sub: "verifier.example",
      cnfJwk: key.publicJwk,
    });
    const created = await verifier.api("POST", "/api/identifier/v1", {
      organisationId: verifier.organisationId,
      name: `attested ${randomUUID()}`,
      key: { keyId: key.keyId },
      trustInformation: [{ type: "VERIFIER_ATTESTATION", data: attestation }],
    });
    expect(created.status, created.text).toBe(201);
    attestedIdentifierId = created.json.id as string;
    credential = await obtain(verifier.issuer.schema, verifier.now);
    proofSchemaId = await verifier.createProofSchema([
      { schema: verifier.issuer.schema, claims: [{ path: "given_name", required: true }] },
    ]);
  });
  afterAll(async () => {
    await verifier?.close();
  });

  async function share(identifierId: string, clientIdScheme: string) {
    const proofId = await verifier.createProofRequest(proofSchemaId, { verifier: identifierId });
    const shared = await verifier.api("POST", `/api/proof-request/v1/${proofId}/share`, { params: { clientIdScheme } });
    expect(shared.status, shared.text).toBe(201);
    return { proofId, url: shared.json.url as string };
  }

  async function resolve(url: string): Promise<ResolvedOpenid4vpAuthorizationRequest> {
    const parsed = client.parseOpenid4vpAuthorizationRequest({ authorizationRequest: url });
    return client.resolveOpenId4vpAuthorizationRequest({ authorizationRequestPayload: parsed.params });
  }

  async function respond(resolved: ResolvedOpenid4vpAuthorizationRequest) {
    const request = resolved.authorizationRequestPayload as Openid4vpAuthorizationRequest;
    const query = DcqlQuery.parse(resolved.dcql!.query as DcqlQuery.Input);
    const result = DcqlQuery.query(query, [
      {
        credential_format: "dc+sd-jwt" as const,
        vct: credential.vct,
        claims: credential.claims as never,
        cryptographic_holder_binding: true,
      },
    ]);
    const match = result.credential_matches.input_0!;
    if (!match.success) throw new Error("the credential does not match");
    const output = match.valid_credentials[0]!.claims.valid_claim_sets[0]!.output;
    const sdjwt = new SDJwtVcInstance({
      hasher: sha256,
      hashAlg: "sha-256",
      kbSigner: await ES256.getSigner(credential.privateJwk),
      kbSignAlg: "ES256",
    });
    const presentation = await sdjwt.present(credential.sdJwt, frameOf(output) as never, {
      kb: { payload: { aud: request.client_id!, nonce: request.nonce, iat: Math.floor(Date.now() / 1000) } },
    });
    const response = await client.createOpenid4vpAuthorizationResponse({
      authorizationRequestPayload: request,
      authorizationResponsePayload: { vp_token: { input_0: [presentation] } },
    });
    const submitted = await client.submitOpenid4vpAuthorizationResponse({
      authorizationRequestPayload: request,
      authorizationResponsePayload: response.authorizationResponsePayload,
    });
    return submitted.response.status;
  }

  it.each(["x509_san_dns", "x509_hash"] as const)(
    "%s: the library checks the client identifier against the x5c leaf and credkit accepts the presentation",
    async (prefix) => {
      const { proofId, url } = await share(certificate.identifierId, prefix);
      verified.length = 0;
      const resolved = await resolve(url);
      expect(resolved.client.prefix).toBe(prefix);
      expect(resolved.jar?.signer).toMatchObject({ method: "x5c" });
      expect(verified).toEqual([{ method: "x5c", subject: expect.stringContaining("CN=verifier") }]);
      const expected =
        prefix === "x509_san_dns"
          ? new URL(verifier.baseUrl).hostname
          : createHash("sha256").update(Buffer.from(certificate.leaf.der, "base64")).digest("base64url");
      expect(resolved.client.identifier).toBe(expected);
      expect(await respond(resolved)).toBe(200);
      const proof = await verifier.proof(proofId);
      expect(proof.state, proof.errorReason).toBe("ACCEPTED");
    },
  );

  it("verifier_attestation: the library resolves the request, verified through its callback (attestation + cnf)", async () => {
    const { proofId, url } = await share(attestedIdentifierId, "verifier_attestation");
    verified.length = 0;
    const resolved = await resolve(url);
    expect(resolved.client).toMatchObject({ prefix: "verifier_attestation", identifier: "verifier.example" });
    expect(verified).toEqual([{ method: "verifier_attestation", subject: "verifier.example" }]);
    expect(await respond(resolved)).toBe(200);
    expect((await verifier.proof(proofId)).state).toBe("ACCEPTED");
  });

  it("the library refuses, as credkit's wallet does, an x509_san_dns request whose response_uri host is another", async () => {
    const { url } = await share(foreignHost.identifierId, "x509_san_dns");
    await expect(resolve(url)).rejects.toThrow(/fully qualified domain name of the redirect_uri/);
  });
});

// --- 2. credkit's wallet against an @openid4vc/openid4vp verifier signing with x5c ---

const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

function didKeyJwk(did: string): JWK {
  let value = 0n;
  for (const char of did.slice("did:key:z".length)) value = value * 58n + BigInt(BASE58.indexOf(char));
  const bytes: number[] = [];
  while (value > 0n) {
    bytes.unshift(Number(value % 256n));
    value /= 256n;
  }
  if (bytes[0] !== 0xed || bytes[1] !== 0x01) throw new Error(`${did} is not an Ed25519 did:key`);
  return { kty: "OKP", crv: "Ed25519", x: Buffer.from(bytes.slice(2)).toString("base64url") };
}

/** SD-JWT VC + KB-JWT verification with @sd-jwt (issuer key from its did:key, holder key from cnf.jwk) */
async function verifyPresentation(presentation: string, nonce: string, audience: string) {
  const issuerJwt = presentation.split("~")[0]!;
  const { iss } = JSON.parse(Buffer.from(issuerJwt.split(".")[1]!, "base64url").toString()) as { iss: string };
  const issuerKey = await importJWK(didKeyJwk(iss), decodeProtectedHeader(issuerJwt).alg);
  const sdjwt = new SDJwtVcInstance({
    hasher: async (data: string | ArrayBuffer) => sha256(data),
    hashAlg: "sha-256",
    verifier: async (data: string, signature: string) =>
      jwtVerify(`${data}.${signature}`, issuerKey).then(
        () => true,
        () => false,
      ),
    kbVerifier: async (data: string, signature: string, payload) => {
      const jwk = (payload.cnf as { jwk?: JWK } | undefined)?.jwk;
      if (!jwk) return false;
      const alg = decodeProtectedHeader(`${data}.${signature}`).alg;
      return jwtVerify(`${data}.${signature}`, await importJWK(jwk, alg), { typ: "kb+jwt" }).then(
        () => true,
        () => false,
      );
    },
  });
  const result = await sdjwt.verify(presentation, { keyBindingNonce: nonce });
  if (result.kb?.payload.aud !== audience) throw new Error(`KB-JWT aud is not ${audience}`);
  return result.payload as Record<string, unknown>;
}

interface VerifierSession {
  payload: Record<string, unknown> & { client_id: string; nonce: string; state: string };
  jwt?: string;
  presented?: Record<string, unknown>;
  failure?: string;
}

/** an independent verifier: requests by @openid4vc/openid4vp, signed by jose with the leaf key and its x5c chain */
async function startX509Verifier(leaf: TestCertificate, chain: TestCertificate[]) {
  const sessions = new Map<string, VerifierSession>();
  const callbacks = {
    hash: (data, alg) => new Uint8Array(createHash(alg.replace("-", "")).update(data).digest()),
    fetch: (input, init) => fetch(input, init),
    signJwt: async (signer, { header, payload }) => {
      if (signer.method !== "x5c") throw new Error("this verifier signs with x5c");
      const jwt = await new CompactSign(new TextEncoder().encode(JSON.stringify(payload)))
        .setProtectedHeader(header as never)
        .sign(leaf.keys.privateKey);
      return { jwt, signerJwk: (await exportJWK(leaf.keys.publicKey)) as Jwk };
    },
    verifyJwt: () => {
      throw new Error("no signed JWTs expected");
    },
    encryptJwe: () => {
      throw new Error("no encrypted requests");
    },
    decryptJwe: () => {
      throw new Error("direct_post only");
    },
  } satisfies ConstructorParameters<typeof Openid4vpVerifier>[0]["callbacks"];
  const library = new Openid4vpVerifier({ callbacks });
  let base = "";
  const respond = (res: ServerResponse, status: number, body: string, type = "application/json") =>
    res.writeHead(status, { "content-type": type }).end(body);
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? "/", base);
    const requestMatch = /^\/request\/([\w-]+)$/.exec(url.pathname);
    const session = requestMatch ? sessions.get(requestMatch[1]!) : undefined;
    if (session?.jwt) return respond(res, 200, session.jwt, "application/oauth-authz-req+jwt");
    if (url.pathname === "/response" && req.method === "POST") {
      const fields = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString("utf8")));
      const answered = fields.state ? sessions.get(fields.state) : undefined;
      if (!answered) return respond(res, 400, JSON.stringify({ error: "invalid_request" }));
      try {
        const parsed = await library.parseOpenid4vpAuthorizationResponse({
          authorizationResponse: fields,
          authorizationRequestPayload: answered.payload as never,
          callbacks,
        });
        if (parsed.type !== "dcql") throw new Error("expected a DCQL response");
        const [presentation] = parsed.dcql.presentations.pid as string[];
        answered.presented = await verifyPresentation(presentation!, parsed.expectedNonce, answered.payload.client_id);
        return respond(res, 200, "{}");
      } catch (error) {
        answered.failure = error instanceof Error ? error.message : String(error);
        return respond(res, 400, JSON.stringify({ error: "invalid_request" }));
      }
    }
    respond(res, 404, "{}");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const x5c = [leaf, ...chain].map((certificate) => certificate.der);

  return {
    host: "127.0.0.1",
    x5c,
    async createRequest(options: { clientId: string; vct: string; by: "value" | "reference" }) {
      const state = randomUUID();
      const created = await library.createOpenId4vpAuthorizationRequest({
        authorizationRequestPayload: {
          response_type: "vp_token",
          client_id: options.clientId,
          response_uri: `${base}/response`,
          response_mode: "direct_post",
          nonce: randomBytes(16).toString("base64url"),
          state,
          dcql_query: {
            credentials: [
              {
                id: "pid",
                format: "dc+sd-jwt",
                meta: { vct_values: [options.vct] },
                claims: [{ path: ["given_name"] }],
              },
            ],
          },
          client_metadata: {
            vp_formats_supported: {
              "dc+sd-jwt": { "sd-jwt_alg_values": ["EdDSA", "ES256"], "kb-jwt_alg_values": ["EdDSA", "ES256"] },
            },
          } as never,
        },
        jar: {
          jwtSigner: { method: "x5c", x5c, alg: "ES256" },
          expiresInSeconds: 300,
          additionalJwtPayload: { aud: "https://self-issued.me/v2" },
          ...(options.by === "reference" && { requestUri: `${base}/request/${state}` }),
        },
      });
      const session: VerifierSession = {
        payload: created.authorizationRequestPayload as VerifierSession["payload"],
        jwt: created.jar!.authorizationRequestJwt,
      };
      sessions.set(state, session);
      return { url: created.authorizationRequest, session };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe("interop: credkit's wallet resolves requests an @openid4vc/openid4vp verifier signs with an x5c chain", () => {
  let verifier: VerifierFixture;
  let wallet: Credkit;
  let orgId: string;
  let credentialId: string;
  let pki: TestPki;
  let independent: Awaited<ReturnType<typeof startX509Verifier>>;
  let leaf: TestCertificate;

  beforeAll(async () => {
    verifier = await startVerifierFixture();
    pki = await createTestPki("independent verifier");
    leaf = await createTestCertificate(pki.intermediate, "independent verifier", { dns: ["127.0.0.1"] });
    independent = await startX509Verifier(leaf, [pki.intermediate]);
    wallet = await createTestKit({
      config: {
        app: { http: { allowInsecureHttpTransport: true } },
        certificateValidation: { trustAnchors: [pki.root.pem] },
      },
    });
    orgId = (await wallet.organisations.create({ name: `wallet ${randomUUID()}` })).id;
    const keyId = (
      await wallet.keys.create({
        organisationId: orgId,
        keyType: "EDDSA",
        keyParams: {},
        name: "holder",
        storageType: "INTERNAL",
        storageParams: {},
      })
    ).id;
    const offer = await verifier.issuer.schema.createOffer();
    const { interactionId } = await wallet.holder.handleInvitation({ url: offer.url, organisationId: orgId });
    credentialId = (await wallet.holder.acceptIssuance({ interactionId, keyId })).id;
  });
  afterAll(async () => {
    await independent?.close();
    await wallet?.close();
    await wallet?.storage.close();
    await verifier?.close();
  });

  const leafHash = () => createHash("sha256").update(Buffer.from(leaf.der, "base64")).digest("base64url");

  it.each([
    ["x509_san_dns", "reference"],
    ["x509_hash", "value"],
  ] as const)(
    "%s, request by %s: credkit authenticates the request and the verifier accepts the presentation",
    async (prefix, by) => {
      const clientId = prefix === "x509_san_dns" ? "x509_san_dns:127.0.0.1" : `x509_hash:${leafHash()}`;
      const { url, session } = await independent.createRequest({ clientId, vct: verifier.issuer.schema.vct, by });
      expect(new URL(url).searchParams.has(by === "value" ? "request" : "request_uri")).toBe(true);
      const handled = await wallet.holder.handleInvitation({ url, organisationId: orgId });
      const stored = (await wallet.storage.interactions.get(handled.interactionId))?.data as Record<string, unknown>;
      expect(stored).toMatchObject({
        clientIdPrefix: prefix,
        verifierCertificate: { dnsNames: ["127.0.0.1"], x509Hash: leafHash() },
      });
      await wallet.holder.submitPresentation({
        interactionId: handled.interactionId,
        submission: { pid: { credentialId } },
      });
      expect(session.failure).toBeUndefined();
      expect(session.presented).toMatchObject({ given_name: "Erika" });
    },
  );

  it("refuses (BR_0085) what it cannot authenticate: wrong SAN, wrong hash, a chain of another PKI", async () => {
    const cases: [string, string][] = [
      ["x509_san_dns:verifier.example", "is not a dNSName SAN"],
      [`x509_hash:${createHash("sha256").update("other").digest("base64url")}`, "is not the SHA-256 hash"],
    ];
    for (const [clientId, reason] of cases) {
      const { url } = await independent.createRequest({ clientId, vct: verifier.issuer.schema.vct, by: "reference" });
      await expect(wallet.holder.handleInvitation({ url, organisationId: orgId })).rejects.toMatchObject({
        code: "BR_0085",
        detail: expect.stringContaining(reason),
      });
    }
    const other = await createTestPki("not trusted");
    const impostorLeaf = await createTestCertificate(other.intermediate, "impostor", { dns: ["127.0.0.1"] });
    const impostor = await startX509Verifier(impostorLeaf, [other.intermediate]);
    try {
      const { url } = await impostor.createRequest({
        clientId: "x509_san_dns:127.0.0.1",
        vct: verifier.issuer.schema.vct,
        by: "reference",
      });
      await expect(wallet.holder.handleInvitation({ url, organisationId: orgId })).rejects.toMatchObject({
        code: "BR_0085",
        detail: expect.stringContaining("does not lead to a trust anchor"),
      });
    } finally {
      await impostor.close();
    }
  });
});
