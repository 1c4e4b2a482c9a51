import { createHash, randomBytes, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { setGlobalConfig } from "@openid4vc/oauth2";
import { Openid4vpVerifier } from "@openid4vc/openid4vp";
import { SDJwtVcInstance } from "@sd-jwt/sd-jwt-vc";
import { DcqlPresentationResult, DcqlQuery } from "dcql";
import {
  compactDecrypt,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JWK,
  jwtVerify,
} from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Credkit } from "../../src/credkit.js";
import type { SubmitPresentationInput } from "../../src/engines/holder/holder-inputs.js";
import { createTestKit } from "../../src/testing/create-test-kit.js";
import { type IssuerFixture, startIssuerFixture } from "../support/issuer-fixture.js";

// An INDEPENDENT verifier: request creation and response parsing by @openid4vc/openid4vp (not credkit code), DCQL
// satisfaction by `dcql`, SD-JWT VC + KB-JWT verification by @sd-jwt/sd-jwt-vc with keys resolved here (the issuer's
// did:key, the holder's cnf.jwk), served on loopback with the redirect_uri client_id prefix (unsigned requests). The
// wallet is credkit, holding an SD-JWT VC a credkit issuer issued to it.

// the verifier runs on http://127.0.0.1 (the library refuses non-https URLs by default)
setGlobalConfig({ allowInsecureUrls: true });

type RequestPayload = Record<string, unknown> & {
  client_id: string;
  nonce: string;
  state?: string;
  response_uri: string;
  response_mode: "direct_post" | "direct_post.jwt";
  dcql_query: Record<string, unknown>;
  client_metadata?: Record<string, unknown>;
};

interface Session {
  payload: RequestPayload;
  encryption?: { privateKey: CryptoKey; publicJwk: JWK };
  /** what the wallet POSTed to the request_uri (request_uri_method=post) */
  requestUriPost?: URLSearchParams;
  /** protected header of an encrypted response */
  jweHeader?: Record<string, unknown>;
  /** query id → disclosed claims of each verified presentation */
  presented?: Record<string, Record<string, unknown>[]>;
  error?: string;
  failure?: string;
}

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

/** public JWK of an Ed25519 did:key (multicodec 0xed01), resolved without credkit */
function didKeyJwk(did: string): JWK {
  const bytes = base58btcDecode(did.slice("did:key:z".length));
  if (bytes[0] !== 0xed || bytes[1] !== 0x01) throw new Error(`${did} is not an Ed25519 did:key`);
  return { kty: "OKP", crv: "Ed25519", x: Buffer.from(bytes.slice(2)).toString("base64url") };
}

const sha256 = (data: string | ArrayBuffer | Uint8Array) =>
  new Uint8Array(
    createHash("sha256")
      .update(typeof data === "string" ? data : Buffer.from(data as ArrayBuffer))
      .digest(),
  );

/** Verifies an SD-JWT VC presentation with KB-JWT (issuer from its did:key, holder from cnf.jwk; nonce and aud). */
async function verifyPresentation(presentation: string, nonce: string, audience: string) {
  const issuerJwt = presentation.split("~")[0]!;
  const header = decodeProtectedHeader(issuerJwt);
  const { iss } = JSON.parse(Buffer.from(issuerJwt.split(".")[1]!, "base64url").toString()) as { iss: string };
  const issuerKey = await importJWK(didKeyJwk(iss), header.alg);
  const sdjwt = new SDJwtVcInstance({
    hasher: async (data: string | ArrayBuffer) => sha256(data),
    hashAlg: "sha-256",
    verifier: async (data: string, signature: string) => {
      try {
        await jwtVerify(`${data}.${signature}`, issuerKey);
        return true;
      } catch {
        return false;
      }
    },
    kbVerifier: async (data: string, signature: string, payload) => {
      const jwk = (payload.cnf as { jwk?: JWK } | undefined)?.jwk;
      if (!jwk) return false;
      const kbHeader = decodeProtectedHeader(`${data}.${signature}`);
      try {
        await jwtVerify(`${data}.${signature}`, await importJWK(jwk, kbHeader.alg), { typ: "kb+jwt" });
        return true;
      } catch {
        return false;
      }
    },
  });
  const verified = await sdjwt.verify(presentation, { keyBindingNonce: nonce });
  if (!verified.kb) throw new Error("no key binding JWT");
  if (verified.kb.payload.aud !== audience) {
    throw new Error(`KB-JWT aud ${String(verified.kb.payload.aud)} is not ${audience}`);
  }
  return verified.payload as Record<string, unknown>;
}

/** The independent verifier: @openid4vc/openid4vp for requests and responses, on a loopback port. */
async function startVerifier() {
  const sessions = new Map<string, Session>();
  const encryptionKeys = new Map<string, Session>();
  const callbacks = {
    hash: (data, alg) => new Uint8Array(createHash(alg.replace("-", "")).update(data).digest()),
    fetch: (input, init) => fetch(input, init),
    signJwt: () => {
      throw new Error("this verifier sends unsigned requests");
    },
    verifyJwt: () => {
      throw new Error("no signed JWTs expected");
    },
    encryptJwe: () => {
      throw new Error("no encrypted requests");
    },
    decryptJwe: async (jwe) => {
      const { kid } = decodeProtectedHeader(jwe);
      const session = kid ? encryptionKeys.get(kid) : undefined;
      if (!session?.encryption) return { decrypted: false };
      const { plaintext } = await compactDecrypt(jwe, session.encryption.privateKey);
      return {
        decrypted: true,
        decryptionJwk: session.encryption.publicJwk as never,
        payload: new TextDecoder().decode(plaintext),
      };
    },
  } satisfies ConstructorParameters<typeof Openid4vpVerifier>[0]["callbacks"];
  const library = new Openid4vpVerifier({ callbacks });

  let base = "";
  const respond = (res: ServerResponse, status: number, body: unknown, type = "application/json") =>
    res.writeHead(status, { "content-type": type }).end(typeof body === "string" ? body : JSON.stringify(body));

  const unsignedRequestObject = (payload: Record<string, unknown>) => {
    const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
    const now = Math.floor(Date.now() / 1000);
    return `${encode({ alg: "none", typ: "oauth-authz-req+jwt" })}.${encode({ ...payload, aud: "https://self-issued.me/v2", iat: now, exp: now + 300 })}.`;
  };

  async function handleResponse(form: URLSearchParams): Promise<[number, unknown]> {
    const fields = Object.fromEntries(form);
    let session = fields.state ? sessions.get(fields.state) : undefined;
    if (fields.response) {
      const header = decodeProtectedHeader(fields.response);
      session = encryptionKeys.get(String(header.kid));
      if (!session?.encryption) return [400, { error: "invalid_request", error_description: "unknown key" }];
      session.jweHeader = header as Record<string, unknown>;
      // an encrypted error response
      const { plaintext } = await compactDecrypt(fields.response, session.encryption.privateKey);
      const inner = JSON.parse(new TextDecoder().decode(plaintext)) as Record<string, unknown>;
      if (typeof inner.error === "string") {
        if (inner.state !== session.payload.state) return [400, { error: "invalid_request" }];
        session.error = inner.error;
        return [200, {}];
      }
    }
    if (!session) return [400, { error: "invalid_request", error_description: "unknown state" }];
    if (fields.error) {
      session.error = fields.error;
      return [200, {}];
    }
    try {
      const parsed = await library.parseOpenid4vpAuthorizationResponse({
        authorizationResponse: fields,
        authorizationRequestPayload: session.payload as never,
        callbacks,
      });
      if (parsed.type !== "dcql") throw new Error(`expected a DCQL response, got ${parsed.type}`);
      const presented: Record<string, Record<string, unknown>[]> = {};
      const record: Record<string, unknown[]> = {};
      for (const [queryId, presentations] of Object.entries(parsed.dcql.presentations)) {
        for (const presentation of presentations) {
          if (typeof presentation !== "string") throw new Error("SD-JWT VC presentations are strings");
          const claims = await verifyPresentation(presentation, parsed.expectedNonce, session.payload.client_id);
          presented[queryId] = [...(presented[queryId] ?? []), claims];
          record[queryId] = [
            ...(record[queryId] ?? []),
            {
              credential_format: "dc+sd-jwt",
              vct: claims.vct,
              claims,
              cryptographic_holder_binding: true,
            },
          ];
        }
      }
      const result = DcqlPresentationResult.fromDcqlPresentation(record as never, {
        dcqlQuery: DcqlQuery.parse(session.payload.dcql_query as never),
      });
      if (!result.can_be_satisfied) throw new Error(`the DCQL query is not satisfied: ${JSON.stringify(result)}`);
      session.presented = presented;
      return [200, {}];
    } catch (error) {
      session.failure = error instanceof Error ? error.message : String(error);
      return [400, { error: "invalid_request", error_description: session.failure }];
    }
  }

  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const url = new URL(req.url ?? "/", base);
    const requestMatch = /^\/request\/([\w-]+)$/.exec(url.pathname);
    if (requestMatch) {
      const session = sessions.get(requestMatch[1]!);
      if (!session) return respond(res, 404, { error: "not_found" });
      let payload: Record<string, unknown> = session.payload;
      if (req.method === "POST") {
        session.requestUriPost = new URLSearchParams(body);
        payload = { ...payload, wallet_nonce: session.requestUriPost.get("wallet_nonce") };
      }
      return respond(res, 200, unsignedRequestObject(payload), "application/oauth-authz-req+jwt");
    }
    if (url.pathname === "/response" && req.method === "POST") {
      const [status, answer] = await handleResponse(new URLSearchParams(body));
      return respond(res, status, answer);
    }
    respond(res, 404, { error: "not_found" });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const responseUri = `${base}/response`;
  const clientId = `redirect_uri:${responseUri}`;

  return {
    clientId,
    /**
     * A request created and validated by the library; `by: "value"` is the library's own URL (parameters),
     * `"reference"` a request_uri serving it as an unsigned request object (GET, or POST with `method: "post"`).
     */
    async createRequest(options: {
      dcqlQuery: Record<string, unknown>;
      responseMode?: "direct_post" | "direct_post.jwt";
      by?: "value" | "reference";
      method?: "get" | "post";
      encValues?: string[];
    }) {
      const state = randomUUID();
      const responseMode = options.responseMode ?? "direct_post";
      let encryption: Session["encryption"];
      const clientMetadata: Record<string, unknown> = {
        vp_formats_supported: {
          "dc+sd-jwt": { "sd-jwt_alg_values": ["EdDSA", "ES256"], "kb-jwt_alg_values": ["EdDSA", "ES256"] },
        },
      };
      if (responseMode === "direct_post.jwt") {
        const pair = await generateKeyPair("ECDH-ES", { crv: "P-256", extractable: true });
        const kid = randomBytes(8).toString("hex");
        const publicJwk = { ...(await exportJWK(pair.publicKey)), kid, use: "enc", alg: "ECDH-ES" };
        encryption = { privateKey: pair.privateKey as CryptoKey, publicJwk };
        // a signing key first: the wallet must pick the encryption key
        const signing = {
          ...(await exportJWK((await generateKeyPair("ES256")).publicKey)),
          kid: "sig-1",
          use: "sig",
          alg: "ES256",
        };
        clientMetadata.jwks = { keys: [signing, publicJwk] };
        if (options.encValues) clientMetadata.encrypted_response_enc_values_supported = options.encValues;
      }
      const created = await library.createOpenId4vpAuthorizationRequest({
        authorizationRequestPayload: {
          response_type: "vp_token",
          client_id: clientId,
          response_uri: responseUri,
          response_mode: responseMode,
          nonce: randomBytes(16).toString("base64url"),
          state,
          dcql_query: options.dcqlQuery,
          client_metadata: clientMetadata as never,
        },
      });
      const payload = created.authorizationRequestPayload as unknown as RequestPayload;
      const session: Session = { payload, ...(encryption && { encryption }) };
      sessions.set(state, session);
      if (encryption) encryptionKeys.set(String(encryption.publicJwk.kid), session);
      if ((options.by ?? "value") === "value") return { url: created.authorizationRequest, session };
      const params = new URLSearchParams({ client_id: clientId, request_uri: `${base}/request/${state}` });
      if (options.method) params.set("request_uri_method", options.method);
      return { url: `openid4vp://?${params}`, session };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe("interop: credkit's wallet answers an @openid4vc/openid4vp verifier (DCQL, SD-JWT VC + KB-JWT)", () => {
  let issuer: IssuerFixture;
  let wallet: Credkit;
  let verifier: Awaited<ReturnType<typeof startVerifier>>;
  let orgId: string;
  let credentialId: string;
  /** a second credential of the same type */
  let secondCredentialId: string;

  const pidQuery = () => ({
    credentials: [
      {
        id: "pid",
        format: "dc+sd-jwt",
        meta: { vct_values: [issuer.schema.vct] },
        claims: [
          { id: "given_name", path: ["given_name"] },
          { id: "street", path: ["address", "street"] },
          { id: "nationalities", path: ["nationalities", null] },
        ],
      },
    ],
  });

  async function answer(url: string, submission?: SubmitPresentationInput["submission"]) {
    const handled = await wallet.holder.handleInvitation({ url, organisationId: orgId });
    expect(handled.interactionType).toBe("VERIFICATION");
    await wallet.holder.submitPresentation({
      interactionId: handled.interactionId,
      submission: submission ?? { pid: { credentialId } },
    });
    return handled;
  }

  beforeAll(async () => {
    issuer = await startIssuerFixture();
    verifier = await startVerifier();
    wallet = await createTestKit({ config: { app: { http: { allowInsecureHttpTransport: true } } } });
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
    const offer = await issuer.createOffer();
    const { interactionId } = await wallet.holder.handleInvitation({ url: offer.url, organisationId: orgId });
    credentialId = (await wallet.holder.acceptIssuance({ interactionId, keyId })).id;
    const second = await issuer.createOffer({
      given_name: "Max",
      age: 30,
      address: { street: "Hauptstraße 1" },
      nationalities: ["AT"],
    });
    const secondInteraction = await wallet.holder.handleInvitation({ url: second.url, organisationId: orgId });
    secondCredentialId = (await wallet.holder.acceptIssuance({ interactionId: secondInteraction.interactionId, keyId }))
      .id;
  });

  afterAll(async () => {
    await verifier?.close();
    await wallet?.close();
    await issuer?.close();
  });

  it("request by value (URL parameters), direct_post: the verifier gets exactly the requested claims", async () => {
    const { url, session } = await verifier.createRequest({ dcqlQuery: pidQuery() });
    expect(url).toMatch(/^openid4vp:\/\/\?/);
    expect(new URL(url).searchParams.get("dcql_query")).toBeTypeOf("string");
    await answer(url);
    expect(session.failure).toBeUndefined();
    const [claims] = session.presented!.pid!;
    expect(claims).toMatchObject({
      vct: issuer.schema.vct,
      given_name: "Erika",
      address: { street: "Heidestraße 17" },
      nationalities: ["DE", "FR"],
    });
    // selective disclosure: nothing else of the subject
    expect(claims!.age).toBeUndefined();
    expect((claims!.address as Record<string, unknown>).city).toBeUndefined();
  });

  it("request by reference (GET), direct_post.jwt: encrypted to the verifier's enc key with its enc value", async () => {
    const { url, session } = await verifier.createRequest({
      dcqlQuery: pidQuery(),
      responseMode: "direct_post.jwt",
      by: "reference",
      encValues: ["A256GCM"],
    });
    await answer(url);
    expect(session.failure).toBeUndefined();
    expect(session.jweHeader).toMatchObject({
      alg: "ECDH-ES",
      enc: "A256GCM",
      kid: session.encryption!.publicJwk.kid,
    });
    expect(session.presented!.pid![0]).toMatchObject({ given_name: "Erika" });
  });

  it("request_uri_method=post: the wallet sends its metadata and a wallet_nonce the request object must echo", async () => {
    const { url, session } = await verifier.createRequest({ dcqlQuery: pidQuery(), by: "reference", method: "post" });
    await answer(url);
    expect(session.failure).toBeUndefined();
    const posted = session.requestUriPost!;
    expect(posted.get("wallet_nonce")).toMatch(/^[\w-]{16,}$/);
    const metadata = JSON.parse(posted.get("wallet_metadata")!);
    expect(metadata.vp_formats_supported["dc+sd-jwt"]["kb-jwt_alg_values"]).toContain("EdDSA");
    expect(metadata.client_id_prefixes_supported).toContain("redirect_uri");
    // §5.10: not listed for a prefix whose requests are never signed
    expect(metadata.request_object_signing_alg_values_supported).toBeUndefined();
    expect(session.presented!.pid).toHaveLength(1);
  });

  it("claim_sets alternatives and an optional credential set: the wallet answers one complete option", async () => {
    const dcqlQuery = {
      credentials: [
        {
          id: "pid",
          format: "dc+sd-jwt",
          meta: { vct_values: [issuer.schema.vct] },
          claims: [
            { id: "age", path: ["age"] },
            { id: "name", path: ["given_name"] },
          ],
          claim_sets: [["age"], ["name"]],
        },
        { id: "diploma", format: "dc+sd-jwt", meta: { vct_values: ["https://example.org/diploma"] } },
      ],
      credential_sets: [{ options: [["pid"]] }, { required: false, options: [["diploma"]] }],
    };
    const { url, session } = await verifier.createRequest({ dcqlQuery });
    const handled = await wallet.holder.handleInvitation({ url, organisationId: orgId });
    const definition = await wallet.holder.getPresentationDefinition(handled.proofId!);
    expect(definition.credentialSets).toEqual([
      { required: true, options: [["pid"]] },
      { required: false, options: [["diploma"]] },
    ]);
    expect(definition.credentialQueries.diploma).toEqual({ multiple: false, failureHint: { reason: "NO_CREDENTIAL" } });
    const pid = definition.credentialQueries.pid!;
    expect("applicableCredentials" in pid).toBe(true);
    if (!("applicableCredentials" in pid)) return;
    const claims = pid.applicableCredentials[0]!.claims;
    expect(claims.find((c) => c.path === "age")).toMatchObject({ required: true, userSelection: false });
    expect(claims.find((c) => c.path === "given_name")).toMatchObject({ required: false, userSelection: true });

    await wallet.holder.submitPresentation({
      interactionId: handled.interactionId,
      submission: { pid: { credentialId } },
    });
    expect(session.failure).toBeUndefined();
    const [presented] = session.presented!.pid!;
    expect(presented!.age).toBe(42);
    expect(presented!.given_name).toBeUndefined();
    expect(Object.keys(session.presented!)).toEqual(["pid"]);
  });

  it("multiple: several credentials for one query; one for a single-valued query", async () => {
    const query = (multiple: boolean) => ({
      credentials: [
        {
          id: "pid",
          format: "dc+sd-jwt",
          multiple,
          meta: { vct_values: [issuer.schema.vct] },
          claims: [{ path: ["given_name"] }],
        },
      ],
    });
    const { url, session } = await verifier.createRequest({ dcqlQuery: query(true) });
    const handled = await wallet.holder.handleInvitation({ url, organisationId: orgId });
    const definition = await wallet.holder.getPresentationDefinition(handled.proofId!);
    const pid = definition.credentialQueries.pid!;
    expect(pid.multiple).toBe(true);
    expect("applicableCredentials" in pid && pid.applicableCredentials.map((c) => c.id).sort()).toEqual(
      [credentialId, secondCredentialId].sort(),
    );
    await wallet.holder.submitPresentation({
      interactionId: handled.interactionId,
      submission: { pid: [{ credentialId }, { credentialId: secondCredentialId }] },
    });
    expect(session.failure).toBeUndefined();
    expect(session.presented!.pid!.map((claims) => claims.given_name).sort()).toEqual(["Erika", "Max"]);
    expect(session.presented!.pid!.every((claims) => claims.age === undefined)).toBe(true);

    const single = await verifier.createRequest({ dcqlQuery: query(false) });
    const other = await wallet.holder.handleInvitation({ url: single.url, organisationId: orgId });
    await expect(
      wallet.holder.submitPresentation({
        interactionId: other.interactionId,
        submission: { pid: [{ credentialId }, { credentialId: secondCredentialId }] },
      }),
    ).rejects.toMatchObject({ code: "BR_0291" });
    expect(single.session.presented).toBeUndefined();
  });

  it("reject: the verifier receives access_denied (direct_post and, encrypted, direct_post.jwt)", async () => {
    for (const responseMode of ["direct_post", "direct_post.jwt"] as const) {
      const { url, session } = await verifier.createRequest({ dcqlQuery: pidQuery(), responseMode, by: "reference" });
      const handled = await wallet.holder.handleInvitation({ url, organisationId: orgId });
      await wallet.holder.rejectPresentation({ interactionId: handled.interactionId });
      expect(session.error).toBe("access_denied");
      expect(session.presented).toBeUndefined();
      const proof = await wallet.proofRequests.get(handled.proofId!);
      expect(proof.state).toBe("REJECTED");
    }
  });
});

/**
 * An independent OpenID4VP draft 20 verifier: the library creates the request (client_id_scheme redirect_uri, a
 * Presentation Exchange definition by value or by reference, direct_post.jwt with JARM client metadata) and parses
 * the encrypted response; the presentations are verified as above and the submission checked here.
 */
async function startDraft20Verifier() {
  interface Draft20Session {
    payload: Record<string, unknown> & { client_id: string; nonce: string; state: string };
    definition: Record<string, unknown>;
    privateKey: CryptoKey;
    publicJwk: JWK;
    jweHeader?: Record<string, unknown>;
    submission?: { definition_id: string; descriptor_map: { id: string; format: string; path: string }[] };
    presented?: Record<string, unknown>[];
    definitionFetched?: boolean;
    error?: string;
    failure?: string;
  }
  const sessions = new Map<string, Draft20Session>();
  const callbacks = {
    hash: (data, alg) => new Uint8Array(createHash(alg.replace("-", "")).update(data).digest()),
    fetch: (input, init) => fetch(input, init),
    signJwt: () => {
      throw new Error("this verifier sends unsigned requests");
    },
    verifyJwt: () => {
      throw new Error("no signed JWTs expected");
    },
    encryptJwe: () => {
      throw new Error("no encrypted requests");
    },
    decryptJwe: async (jwe) => {
      const { kid } = decodeProtectedHeader(jwe);
      const session = kid ? sessions.get(kid) : undefined;
      if (!session) return { decrypted: false };
      const { plaintext } = await compactDecrypt(jwe, session.privateKey);
      return {
        decrypted: true,
        decryptionJwk: session.publicJwk as never,
        payload: new TextDecoder().decode(plaintext),
      };
    },
  } satisfies ConstructorParameters<typeof Openid4vpVerifier>[0]["callbacks"];
  const library = new Openid4vpVerifier({ callbacks });
  let base = "";
  const respond = (res: ServerResponse, status: number, body: unknown, type = "application/json") =>
    res.writeHead(status, { "content-type": type }).end(typeof body === "string" ? body : JSON.stringify(body));

  async function handleResponse(form: URLSearchParams): Promise<[number, unknown]> {
    const jwe = form.get("response");
    if (!jwe) return [400, { error: "invalid_request", error_description: "direct_post.jwt expected" }];
    const session = sessions.get(String(decodeProtectedHeader(jwe).kid));
    if (!session) return [400, { error: "invalid_request", error_description: "unknown key" }];
    session.jweHeader = decodeProtectedHeader(jwe) as Record<string, unknown>;
    try {
      const parsed = await library.parseOpenid4vpAuthorizationResponse({
        authorizationResponse: Object.fromEntries(form),
        // by reference, the definition the wallet was sent
        authorizationRequestPayload: { ...session.payload, presentation_definition: session.definition } as never,
        callbacks,
      });
      if (parsed.type !== "pex") throw new Error(`expected a Presentation Exchange response, got ${parsed.type}`);
      const submission = parsed.pex.presentationSubmission as Draft20Session["submission"];
      if (submission?.definition_id !== session.definition.id)
        throw new Error("the submission answers another definition");
      session.submission = submission;
      const presented: Record<string, unknown>[] = [];
      for (const presentation of parsed.pex.presentations) {
        if (typeof presentation !== "string") throw new Error("SD-JWT VC presentations are strings");
        presented.push(await verifyPresentation(presentation, parsed.expectedNonce, session.payload.client_id));
      }
      session.presented = presented;
      return [200, {}];
    } catch (error) {
      session.failure = error instanceof Error ? error.message : String(error);
      return [400, { error: "invalid_request", error_description: session.failure }];
    }
  }

  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const url = new URL(req.url ?? "/", base);
    const definitionMatch = /^\/definition\/([\w-]+)$/.exec(url.pathname);
    if (definitionMatch && req.method === "GET") {
      const session = sessions.get(definitionMatch[1]!);
      if (!session) return respond(res, 404, { error: "not_found" });
      session.definitionFetched = true;
      return respond(res, 200, session.definition);
    }
    if (url.pathname === "/response" && req.method === "POST") {
      const [status, answer] = await handleResponse(new URLSearchParams(body));
      return respond(res, status, answer);
    }
    respond(res, 404, { error: "not_found" });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const responseUri = `${base}/response`;

  return {
    responseUri,
    async createRequest(definition: Record<string, unknown>, options: { byReference?: boolean } = {}) {
      const state = randomUUID();
      const pair = await generateKeyPair("ECDH-ES", { crv: "P-256", extractable: true });
      const publicJwk = { ...(await exportJWK(pair.publicKey)), kid: state, use: "enc", alg: "ECDH-ES" };
      const created = await library.createOpenId4vpAuthorizationRequest({
        authorizationRequestPayload: {
          response_type: "vp_token",
          client_id: responseUri,
          client_id_scheme: "redirect_uri",
          response_uri: responseUri,
          response_mode: "direct_post.jwt",
          nonce: randomBytes(16).toString("base64url"),
          state,
          ...(options.byReference
            ? { presentation_definition_uri: `${base}/definition/${state}` }
            : { presentation_definition: definition }),
          client_metadata: {
            vp_formats: { "vc+sd-jwt": { "sd-jwt_alg_values": ["EdDSA", "ES256"], "kb-jwt_alg_values": ["EdDSA"] } },
            jwks: { keys: [publicJwk] },
            authorization_encrypted_response_alg: "ECDH-ES",
            authorization_encrypted_response_enc: "A256GCM",
          } as never,
        } as never,
      });
      const session: Draft20Session = {
        payload: created.authorizationRequestPayload as Draft20Session["payload"],
        definition,
        privateKey: pair.privateKey as CryptoKey,
        publicJwk,
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

describe("interop: credkit's wallet answers an @openid4vc/openid4vp draft 20 verifier (PEX, direct_post.jwt)", () => {
  let issuer: IssuerFixture;
  let wallet: Credkit;
  let verifier: Awaited<ReturnType<typeof startDraft20Verifier>>;
  let orgId: string;
  let credentialId: string;

  beforeAll(async () => {
    issuer = await startIssuerFixture();
    verifier = await startDraft20Verifier();
    wallet = await createTestKit({ config: { app: { http: { allowInsecureHttpTransport: true } } } });
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
    const offer = await issuer.createOffer();
    const { interactionId } = await wallet.holder.handleInvitation({ url: offer.url, organisationId: orgId });
    credentialId = (await wallet.holder.acceptIssuance({ interactionId, keyId })).id;
  });

  afterAll(async () => {
    await verifier?.close();
    await wallet?.close();
    await issuer?.close();
  });

  /** identity or diploma (pick 1 of group A): the wallet holds only the identity */
  const definition = () => ({
    id: randomUUID(),
    submission_requirements: [{ name: "identity or diploma", rule: "pick", count: 1, from: "A" }],
    input_descriptors: [
      {
        id: "pid",
        group: ["A"],
        format: { "vc+sd-jwt": { "sd-jwt_alg_values": ["EdDSA"], "kb-jwt_alg_values": ["EdDSA"] } },
        constraints: {
          limit_disclosure: "required",
          fields: [
            { path: ["$.vct"], filter: { type: "string", const: issuer.schema.vct } },
            { id: "name", path: ["$.given_name"] },
            { id: "street", path: ["$.address.street"], optional: true },
          ],
        },
      },
      {
        id: "diploma",
        group: ["A"],
        constraints: {
          fields: [{ path: ["$.vct"], filter: { type: "string", const: "https://example.org/diploma" } }],
        },
      },
    ],
  });

  for (const byReference of [false, true]) {
    it(`definition ${byReference ? "by reference (presentation_definition_uri)" : "by value"}: submission_requirements listed and met, the response encrypted with the verifier's enc`, async () => {
      const { url, session } = await verifier.createRequest(definition(), { byReference });
      const handled = await wallet.holder.handleInvitation({ url, organisationId: orgId });
      expect(handled.interactionType).toBe("VERIFICATION");
      expect(handled.protocol).toBe("OPENID4VP_DRAFT20");
      expect(session.definitionFetched ?? false).toBe(byReference);

      const listed = await wallet.holder.getPresentationDefinitionV1(handled.proofId!);
      expect(listed.requestGroups).toHaveLength(1);
      const [group] = listed.requestGroups;
      expect(group).toMatchObject({ id: "A", name: "identity or diploma", rule: { type: "pick", count: 1 } });
      const [pid, diploma] = group!.requestedCredentials;
      expect(pid!.applicableCredentials).toEqual([credentialId]);
      expect(diploma!.applicableCredentials).toEqual([]);

      // both alternatives at once break `count: 1`: refused before anything is sent
      await expect(
        wallet.holder.submitPresentationV1({
          interactionId: handled.interactionId,
          submitCredentials: {
            pid: { credentialId, submitClaims: [] },
            diploma: { credentialId, submitClaims: [] },
          },
        }),
      ).rejects.toMatchObject({ code: "BR_0291" });
      expect(session.jweHeader).toBeUndefined();

      await wallet.holder.submitPresentationV1({
        interactionId: handled.interactionId,
        submitCredentials: { pid: { credentialId, submitClaims: ["street"] } },
      });
      expect(session.failure).toBeUndefined();
      expect(session.jweHeader).toMatchObject({ alg: "ECDH-ES", enc: "A256GCM", kid: session.payload.state });
      expect(session.submission!.descriptor_map).toEqual([{ id: "pid", format: "vc+sd-jwt", path: "$" }]);
      const [claims] = session.presented!;
      expect(claims).toMatchObject({
        vct: issuer.schema.vct,
        given_name: "Erika",
        address: { street: "Heidestraße 17" },
      });
      expect(claims!.age).toBeUndefined();
      const proof = await wallet.proofRequests.get(handled.proofId!);
      expect(proof.state).toBe("ACCEPTED");
    });
  }
});
