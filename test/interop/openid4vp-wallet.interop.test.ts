import { createHash, createPublicKey, randomBytes } from "node:crypto";
import { type CallbackContext, type Jwk, setGlobalConfig } from "@openid4vc/oauth2";
import {
  type Openid4vpAuthorizationRequest,
  Openid4vpClient,
  type ResolvedOpenid4vpAuthorizationRequest,
} from "@openid4vc/openid4vp";
import { ES256 } from "@sd-jwt/crypto-nodejs";
import { SDJwtVcInstance } from "@sd-jwt/sd-jwt-vc";
import { DcqlQuery } from "dcql";
import { CompactEncrypt, compactVerify, exportJWK, generateKeyPair, importJWK, type JWK, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_CLAIMS, PRE_AUTHORIZED_GRANT, type SchemaHandle } from "../support/issuer-fixture.js";
import { startVerifierFixture, type VerifierFixture } from "../support/verifier-fixture.js";

// An independent wallet: the OpenID4VP 1.0 client of @openid4vc/openid4vp (not credkit code) resolves credkit's
// authorization request (checking the request object against its client_id prefix), `dcql` matches the request's DCQL
// query against the wallet's own credentials and picks the claims to disclose, @sd-jwt/sd-jwt-vc builds the
// presentation with a KB-JWT, and the library creates and submits the authorization response (direct_post, or
// direct_post.jwt encrypted with jose through the encryptJwe callback). The verifier's DID is resolved here (did:key),
// the wallet's keys and credentials never enter credkit. credkit then has to accept the result.

setGlobalConfig({ allowInsecureUrls: true });

// --- wallet crypto callbacks (jose / node:crypto) ---

const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

function base58btcDecode(text: string): Uint8Array {
  let value = 0n;
  for (const char of text) {
    const digit = BASE58.indexOf(char);
    if (digit < 0) throw new Error(`not base58: ${char}`);
    value = value * 58n + BigInt(digit);
  }
  const bytes: number[] = [];
  while (value > 0n) {
    bytes.unshift(Number(value % 256n));
    value /= 256n;
  }
  for (const char of text) {
    if (char !== "1") break;
    bytes.unshift(0);
  }
  return new Uint8Array(bytes);
}

/** DER prefix of a SubjectPublicKeyInfo holding a compressed P-256 point (RFC 5480) */
const P256_COMPRESSED_SPKI_PREFIX = Buffer.from("3039301306072a8648ce3d020106082a8648ce3d030107032200", "hex");

/** resolves a did:key DID URL to its public JWK (multicodec 0xed01 Ed25519, 0x1200 P-256), without credkit */
function resolveDidKey(didUrl: string): JWK {
  const [did, fragment] = didUrl.split("#");
  if (!did?.startsWith("did:key:z")) throw new Error(`this wallet resolves did:key only, got ${didUrl}`);
  const multibase = did.slice("did:key:".length);
  if (fragment !== undefined && fragment !== multibase) throw new Error(`unknown verification method ${didUrl}`);
  const bytes = base58btcDecode(multibase.slice(1));
  if (bytes[0] === 0xed && bytes[1] === 0x01) {
    return { kty: "OKP", crv: "Ed25519", x: Buffer.from(bytes.slice(2)).toString("base64url") };
  }
  if (bytes[0] === 0x80 && bytes[1] === 0x24 && bytes.length === 35) {
    const spki = Buffer.concat([P256_COMPRESSED_SPKI_PREFIX, bytes.slice(2)]);
    return createPublicKey({ key: spki, format: "der", type: "spki" }).export({ format: "jwk" }) as JWK;
  }
  throw new Error(`unsupported did:key multicodec in ${did}`);
}

/** what the wallet saw of each verifyJwt call (to check that signed requests really were verified) */
const verifiedJwts: { method: string; didUrl?: string; alg: string }[] = [];

const callbacks: Omit<CallbackContext, "generateRandom" | "clientAuthentication"> = {
  fetch: (input, init) => fetch(input, init),
  hash: (data, alg) => new Uint8Array(createHash(alg.replace("-", "")).update(data).digest()),
  verifyJwt: async (signer, { compact, header }) => {
    if (signer.method !== "did") return { verified: false };
    const jwk = resolveDidKey(signer.didUrl);
    try {
      await compactVerify(compact, await importJWK(jwk, header.alg));
      verifiedJwts.push({ method: signer.method, didUrl: signer.didUrl, alg: header.alg });
      return { verified: true, signerJwk: jwk as Jwk };
    } catch {
      return { verified: false };
    }
  },
  encryptJwe: async (encryptor, data) => {
    const jwk = encryptor.publicJwk as JWK;
    const jwe = new CompactEncrypt(new TextEncoder().encode(data))
      .setProtectedHeader({ alg: encryptor.alg, enc: encryptor.enc, ...(jwk.kid !== undefined && { kid: jwk.kid }) })
      .setKeyManagementParameters({
        ...(encryptor.apu !== undefined && { apu: Buffer.from(encryptor.apu, "base64url") }),
        ...(encryptor.apv !== undefined && { apv: Buffer.from(encryptor.apv, "base64url") }),
      });
    return { jwe: await jwe.encrypt(await importJWK(jwk, encryptor.alg)), encryptionJwk: encryptor.publicJwk };
  },
  signJwt: () => {
    throw new Error("this wallet does not sign authorization responses");
  },
  decryptJwe: () => {
    throw new Error("this wallet does not accept encrypted requests");
  },
};

const client = new Openid4vpClient({ callbacks });

// --- the wallet's credential store ---

interface StoredCredential {
  sdJwt: string;
  vct: string;
  /** the full (all disclosures applied) claims, as DCQL sees them */
  claims: Record<string, unknown>;
  privateJwk: JWK;
}

const hasher = (data: string | ArrayBuffer) =>
  new Uint8Array(
    createHash("sha256")
      .update(typeof data === "string" ? data : Buffer.from(data))
      .digest(),
  );

const SD_JWT_VC_CLAIMS_NOT_FOR_DCQL = ["iss", "iat", "exp", "nbf", "cnf", "status", "vct", "_sd_alg"];

async function store(sdJwt: string, privateJwk: JWK): Promise<StoredCredential> {
  const claims = (await new SDJwtVcInstance({ hasher, hashAlg: "sha-256" }).getClaims(sdJwt)) as Record<
    string,
    unknown
  >;
  const vct = claims.vct as string;
  return {
    sdJwt,
    vct,
    claims: Object.fromEntries(Object.entries(claims).filter(([k]) => !SD_JWT_VC_CLAIMS_NOT_FOR_DCQL.includes(k))),
    privateJwk,
  };
}

/** a presentation frame (@sd-jwt) that discloses exactly the members of a DCQL claims output */
function frameOf(output: unknown): Record<string, unknown> | true {
  if (Array.isArray(output)) return Object.fromEntries(output.map((item, index) => [index, frameOf(item)]));
  if (output !== null && typeof output === "object") {
    return Object.fromEntries(Object.entries(output).map(([key, value]) => [key, frameOf(value)]));
  }
  return true;
}

/** OpenID4VCI 1.0 pre-authorized flow with plain fetch, holder key = a fresh ES256 key of this wallet */
async function obtain(
  schema: SchemaHandle,
  claims: Record<string, unknown>,
  now: () => Date,
): Promise<StoredCredential> {
  const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
  const offer = await schema.createOffer(claims);
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
  const { credentials } = (await response.json()) as { credentials: { credential: string }[] };
  return store(credentials[0]!.credential, await exportJWK(privateKey));
}

// --- the wallet flow ---

interface WalletOutcome {
  resolved: ResolvedOpenid4vpAuthorizationRequest;
  /** per credential query id: the claims the wallet disclosed */
  disclosed: Record<string, Record<string, unknown>>;
  status: number;
  body: unknown;
}

/**
 * Resolves the request. By reference (request_uri) the library fetches the request object and verifies it against the
 * client_id prefix: a signed JAR for decentralized_identifier (verified through verifyJwt with the resolved DID). The
 * redirect_uri prefix forbids signed requests (OpenID4VP 1.0 §5.9.3), so credkit serves an unsigned request object
 * (`alg: none`) that the library does not take as a JAR; the wallet fetches it, checks it is unsigned, and resolves
 * its parameters as a plain (unsigned) authorization request.
 */
async function resolveRequest(url: string): Promise<ResolvedOpenid4vpAuthorizationRequest> {
  const parsed = client.parseOpenid4vpAuthorizationRequest({ authorizationRequest: url });
  const params = parsed.params as { client_id?: string; request_uri?: string };
  if (params.client_id?.startsWith("redirect_uri:") && params.request_uri) {
    const object = await (await fetch(params.request_uri)).text();
    const [header, payload, signature] = object.split(".");
    expect(JSON.parse(Buffer.from(header!, "base64url").toString())).toMatchObject({ alg: "none" });
    expect(signature).toBe("");
    const request = JSON.parse(Buffer.from(payload!, "base64url").toString()) as Openid4vpAuthorizationRequest;
    expect(request.client_id).toBe(params.client_id);
    return client.resolveOpenId4vpAuthorizationRequest({ authorizationRequestPayload: request });
  }
  return client.resolveOpenId4vpAuthorizationRequest({ authorizationRequestPayload: parsed.params });
}

async function respond(url: string, wallet: StoredCredential[], now: () => Date): Promise<WalletOutcome> {
  const resolved = await resolveRequest(url);
  const request = resolved.authorizationRequestPayload as Openid4vpAuthorizationRequest;
  expect(resolved.dcql).toBeDefined();
  const query = DcqlQuery.parse(resolved.dcql!.query as DcqlQuery.Input);
  DcqlQuery.validate(query);
  const result = DcqlQuery.query(
    query,
    wallet.map((c) => ({
      credential_format: "dc+sd-jwt" as const,
      vct: c.vct,
      claims: c.claims as never,
      cryptographic_holder_binding: true,
    })),
  );
  expect(result.can_be_satisfied).toBe(true);

  const vpToken: Record<string, string[]> = {};
  const disclosed: Record<string, Record<string, unknown>> = {};
  for (const credentialQuery of query.credentials) {
    const match = result.credential_matches[credentialQuery.id];
    if (!match?.success) continue;
    // the first valid credential, with the first (most preferred) claim set it satisfies
    const valid = match.valid_credentials[0]!;
    const credential = wallet[valid.input_credential_index]!;
    const output = valid.claims.valid_claim_sets[0]!.output as Record<string, unknown>;
    const sdjwt = new SDJwtVcInstance({
      hasher,
      hashAlg: "sha-256",
      kbSigner: await ES256.getSigner(credential.privateJwk),
      kbSignAlg: "ES256",
    });
    const presentation = await sdjwt.present(credential.sdJwt, frameOf(output) as never, {
      kb: { payload: { aud: request.client_id!, nonce: request.nonce, iat: Math.floor(now().getTime() / 1000) } },
    });
    vpToken[credentialQuery.id] = [presentation];
    disclosed[credentialQuery.id] = output;
  }

  const encrypted = request.response_mode === "direct_post.jwt";
  const response = await client.createOpenid4vpAuthorizationResponse({
    authorizationRequestPayload: request,
    authorizationResponsePayload: { vp_token: vpToken },
    ...(encrypted && {
      jarm: {
        encryption: { nonce: randomBytes(16).toString("base64url") },
        serverMetadata: {
          authorization_signing_alg_values_supported: [],
          authorization_encryption_alg_values_supported: ["ECDH-ES"],
          authorization_encryption_enc_values_supported: ["A128GCM", "A256GCM"],
        },
      },
    }),
  });
  expect(response.jarm !== undefined).toBe(encrypted);
  const submitted = await client.submitOpenid4vpAuthorizationResponse({
    authorizationRequestPayload: request,
    authorizationResponsePayload: response.authorizationResponsePayload,
    ...(response.jarm && { jarm: { responseJwt: response.jarm.responseJwt } }),
  });
  const text = await submitted.response.text();
  return { resolved, disclosed, status: submitted.response.status, body: text ? JSON.parse(text) : undefined };
}

describe("interop: an @openid4vc/openid4vp wallet presents SD-JWT VCs to credkit's verifier", () => {
  let verifier: VerifierFixture;
  let other: SchemaHandle;
  let full: StoredCredential;
  let minimal: StoredCredential;
  let otherCredential: StoredCredential;

  beforeAll(async () => {
    verifier = await startVerifierFixture({ revocation: true });
    other = await verifier.issuer.addSchema({ name: "Membership" });
    full = await obtain(verifier.issuer.schema, DEFAULT_CLAIMS, verifier.now);
    minimal = await obtain(verifier.issuer.schema, { given_name: "Max" }, verifier.now);
    otherCredential = await obtain(other, { given_name: "Clubber", age: 7 }, verifier.now);
  });
  afterAll(async () => {
    await verifier?.close();
  });

  async function proofRequest(
    inputs: Parameters<VerifierFixture["createProofSchema"]>[0],
    params: object,
    schemaOptions?: Parameters<VerifierFixture["createProofSchema"]>[1],
  ) {
    const proofId = await verifier.createProofRequest(await verifier.createProofSchema(inputs, schemaOptions));
    const shared = await verifier.api("POST", `/api/proof-request/v1/${proofId}/share`, { params });
    expect(shared.status).toBe(201);
    return { proofId, url: shared.json.url as string };
  }

  /** proofInputs[].claims of the proof detail as a JSON tree */
  async function receivedClaims(proofId: string) {
    const proof = await verifier.proof(proofId);
    expect(proof.state).toBe("ACCEPTED");
    expect(proof.completedDate).toBeTypeOf("string");
    const tree = (claims: { path: string; schema: { key: string; array: boolean }; value: unknown }[]) => {
      const out: Record<string, unknown> = {};
      for (const claim of claims) {
        const value = Array.isArray(claim.value)
          ? claim.schema.array && claim.value.every((c) => c.path.split("/").at(-1)?.match(/^\d+$/))
            ? claim.value.map((c: { value: unknown }) => c.value)
            : tree(claim.value)
          : claim.value;
        out[claim.schema.key] = value;
      }
      return out;
    };
    return proof.proofInputs.map((input: { claims: never[] }) => tree(input.claims));
  }

  it("redirect_uri: the share URL carries the unsigned request by value, which the library resolves as is", async () => {
    const { url } = await proofRequest(
      [{ schema: verifier.issuer.schema, claims: [{ path: "given_name", required: true }] }],
      {
        clientIdScheme: "redirect_uri",
      },
    );
    const parsed = client.parseOpenid4vpAuthorizationRequest({ authorizationRequest: url });
    expect(parsed.type).toBe("openid4vp");
    const resolved = await client.resolveOpenId4vpAuthorizationRequest({ authorizationRequestPayload: parsed.params });
    expect(resolved.client.prefix).toBe("redirect_uri");
    expect(resolved.dcql).toBeDefined();
  });

  const identityClaims = () => [
    { path: "given_name", required: true },
    { path: "address/street", required: false },
    { path: "nationalities", required: false },
  ];

  it.each([
    ["redirect_uri", "direct_post"],
    ["redirect_uri", "direct_post.jwt"],
    ["decentralized_identifier", "direct_post"],
    ["decentralized_identifier", "direct_post.jwt"],
  ] as const)(
    "client_id prefix %s, response mode %s: all requested claims, optional ones included",
    async (prefix, mode) => {
      const { proofId, url } = await proofRequest([{ schema: verifier.issuer.schema, claims: identityClaims() }], {
        clientIdScheme: prefix,
        responseMode: mode,
      });
      verifiedJwts.length = 0;
      const outcome = await respond(url, [otherCredential, full], verifier.now);

      expect(outcome.status).toBe(200);
      expect(outcome.resolved.client.prefix).toBe(prefix);
      expect(outcome.resolved.version).toBe(100);
      if (prefix === "decentralized_identifier") {
        expect(outcome.resolved.jar?.signer).toMatchObject({ method: "did" });
        expect(verifiedJwts).toEqual([expect.objectContaining({ method: "did", alg: "ES256" })]);
        expect(outcome.resolved.client.identifier).toBe(verifier.verifierDid);
      } else {
        expect(outcome.resolved.jar).toBeUndefined();
        expect(verifiedJwts).toEqual([]);
        expect(outcome.resolved.client.identifier).toBe(verifier.responseUri);
      }
      const expected = { given_name: "Erika", address: { street: "Heidestraße 17" }, nationalities: ["DE", "FR"] };
      expect(outcome.disclosed).toEqual({ input_0: expected });
      expect(await receivedClaims(proofId)).toEqual([expected]);
    },
  );

  it.each([
    ["redirect_uri", "direct_post"],
    ["decentralized_identifier", "direct_post.jwt"],
  ] as const)(
    "%s / %s: a credential without the optional claims satisfies the required-only claim set",
    async (prefix, mode) => {
      const { proofId, url } = await proofRequest([{ schema: verifier.issuer.schema, claims: identityClaims() }], {
        clientIdScheme: prefix,
        responseMode: mode,
      });
      const outcome = await respond(url, [minimal], verifier.now);
      expect(outcome.status).toBe(200);
      expect(outcome.disclosed).toEqual({ input_0: { given_name: "Max" } });
      expect(await receivedClaims(proofId)).toEqual([{ given_name: "Max" }]);
    },
  );

  it("a query without optional claims (no claim_sets) over two credential queries, decentralized_identifier + direct_post.jwt", async () => {
    const { proofId, url } = await proofRequest(
      [
        {
          schema: verifier.issuer.schema,
          claims: [
            { path: "given_name", required: true },
            { path: "address", required: true },
          ],
        },
        { schema: other, claims: [{ path: "age", required: true }] },
      ],
      { clientIdScheme: "decentralized_identifier", responseMode: "direct_post.jwt" },
    );
    const outcome = await respond(url, [minimal, full, otherCredential], verifier.now);
    expect(outcome.status).toBe(200);
    const query = outcome.resolved.dcql!.query as { credentials: { claim_sets?: unknown }[] };
    expect(query.credentials.every((c) => c.claim_sets === undefined)).toBe(true);
    expect(outcome.disclosed).toEqual({
      input_0: { given_name: "Erika", address: { street: "Heidestraße 17", city: "Köln" } },
      input_1: { age: 7 },
    });
    expect(await receivedClaims(proofId)).toEqual([
      { given_name: "Erika", address: { street: "Heidestraße 17", city: "Köln" } },
      { age: 7 },
    ]);
  });
  it("credential_sets: a proof schema accepting either credential; the wallet answers the one alternative it holds", async () => {
    const { proofId, url } = await proofRequest(
      [
        { schema: verifier.issuer.schema, claims: [{ path: "given_name", required: true }] },
        { schema: other, claims: [{ path: "age", required: true }] },
      ],
      { clientIdScheme: "decentralized_identifier", responseMode: "direct_post" },
      { credentialSets: [{ options: [[0], [1]] }] },
    );
    // dcql (inside respond) finds the query satisfiable with the membership card alone
    const outcome = await respond(url, [otherCredential], verifier.now);
    expect(outcome.status).toBe(200);
    expect((outcome.resolved.dcql!.query as { credential_sets?: unknown }).credential_sets).toEqual([
      { options: [["input_0"], ["input_1"]], required: true },
    ]);
    expect(Object.keys(outcome.disclosed)).toEqual(["input_1"]);
    // every proof input is listed; the alternative not chosen has no credential and no claims
    const proof = await verifier.proof(proofId);
    expect(proof.proofInputs.map((input: { credential?: unknown }) => input.credential !== undefined)).toEqual([
      false,
      true,
    ]);
    expect(await receivedClaims(proofId)).toEqual([{}, { age: 7 }]);
  });
});

describe("interop: an @openid4vc/openid4vp wallet answers credkit's OpenID4VP draft 20 verifier (PEX, direct_post.jwt)", () => {
  let verifier: VerifierFixture;
  let full: StoredCredential;

  beforeAll(async () => {
    verifier = await startVerifierFixture({ revocation: true });
    full = await obtain(verifier.issuer.schema, DEFAULT_CLAIMS, verifier.now);
  });
  afterAll(async () => {
    await verifier?.close();
  });

  it("did + direct_post.jwt: the library resolves the signed draft-20 request and encrypts its response (JARM)", async () => {
    const proofSchemaId = await verifier.createProofSchema([
      { schema: verifier.issuer.schema, claims: [{ path: "given_name", required: true }] },
    ]);
    const created = await verifier.api("POST", "/api/proof-request/v1", {
      proofSchemaId,
      protocol: "OPENID4VP_DRAFT20",
      verifier: verifier.verifierIdentifierId,
    });
    expect(created.status, created.text).toBe(201);
    const shared = await verifier.api("POST", `/api/proof-request/v1/${created.json.id}/share`, {
      params: { clientIdScheme: "did", responseMode: "direct_post.jwt" },
    });
    expect(shared.status, shared.text).toBe(201);

    verifiedJwts.length = 0;
    const parsed = client.parseOpenid4vpAuthorizationRequest({ authorizationRequest: shared.json.url as string });
    const resolved = await client.resolveOpenId4vpAuthorizationRequest({ authorizationRequestPayload: parsed.params });
    expect(resolved.version).toBeLessThan(22); // client_id_scheme: a draft before 22
    expect(resolved.client.identifier).toBe(verifier.verifierDid);
    expect(verifiedJwts).toEqual([expect.objectContaining({ method: "did", alg: "ES256" })]);
    expect(resolved.dcql).toBeUndefined();
    const definition = resolved.pex!.presentation_definition as {
      id: string;
      input_descriptors: { id: string; constraints: { fields: { path: string[] }[] } }[];
    };
    expect(definition.input_descriptors.map((d) => d.id)).toEqual(["input_0"]);
    expect(definition.input_descriptors[0]!.constraints.fields.map((f) => f.path[0])).toEqual([
      "$.vct",
      "$.given_name",
    ]);

    const request = resolved.authorizationRequestPayload as Openid4vpAuthorizationRequest;
    const sdjwt = new SDJwtVcInstance({
      hasher,
      hashAlg: "sha-256",
      kbSigner: await ES256.getSigner(full.privateJwk),
      kbSignAlg: "ES256",
    });
    const presentation = await sdjwt.present(full.sdJwt, { given_name: true } as never, {
      kb: {
        payload: { aud: request.client_id!, nonce: request.nonce, iat: Math.floor(verifier.now().getTime() / 1000) },
      },
    });
    const response = await client.createOpenid4vpAuthorizationResponse({
      authorizationRequestPayload: request,
      authorizationResponsePayload: {
        vp_token: presentation,
        presentation_submission: {
          id: randomBytes(8).toString("hex"),
          definition_id: definition.id,
          descriptor_map: [{ id: "input_0", format: "vc+sd-jwt", path: "$" }],
        },
      },
      jarm: {
        encryption: { nonce: randomBytes(16).toString("base64url") },
        serverMetadata: {
          authorization_signing_alg_values_supported: [],
          authorization_encryption_alg_values_supported: ["ECDH-ES"],
          authorization_encryption_enc_values_supported: ["A128GCM", "A256GCM"],
        },
      },
    });
    expect(response.jarm?.responseJwt.split(".")).toHaveLength(5);
    const submitted = await client.submitOpenid4vpAuthorizationResponse({
      authorizationRequestPayload: request,
      authorizationResponsePayload: response.authorizationResponsePayload,
      jarm: { responseJwt: response.jarm!.responseJwt },
    });
    expect(submitted.responseMode).toBe("direct_post.jwt");
    expect(submitted.response.status, await submitted.response.clone().text()).toBe(200);
    const proof = await verifier.proof(created.json.id);
    expect(proof.state, proof.errorReason).toBe("ACCEPTED");
    expect(proof.proofInputs[0].claims.map((c: { path: string; value: unknown }) => [c.path, c.value])).toEqual([
      ["given_name", "Erika"],
    ]);
  });
});
