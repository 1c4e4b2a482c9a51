import { createHash, randomUUID } from "node:crypto";
import { request as httpRequest } from "node:http";
import { CompactEncrypt, generateKeyPair, importJWK, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryStorage } from "../../src/storage/memory/index.js";
import { type SchemaHandle, withLatency } from "../support/issuer-fixture.js";
import {
  disclosuresOf,
  type HttpResult,
  type IssuedCredential,
  type ProofInputSpec,
  type SharedRequest,
  startVerifierFixture,
  type VerifierFixture,
} from "../support/verifier-fixture.js";

// Attacks on credkit's OpenID4VP 1.0 verifier over real loopback HTTP. The holder is written here (fetch, jose,
// @sd-jwt/sd-jwt-vc) and misbehaves in one way per test. A presentation that fails validation ends the proof in ERROR
// with the reason recorded (`errorReason` in the proof detail, an ERRORED history entry) and no claims stored; the
// response endpoint answers 400 `invalid_request` (OpenID4VP 1.0 §8.2, RFC 6749 §5.2) and the request is used up, so
// a corrected second attempt is refused too. Replays, expiry, oversized bodies and holder errors end in their own
// documented states (reference §8: ACCEPTED stays, INTERACTION_EXPIRED, REJECTED).

const MAX_RESPONSE_BYTES = 4096;

describe("OpenID4VP verifier security: bad responses end the proof in the documented state, with no claims", () => {
  let verifier: VerifierFixture;
  let identity: SchemaHandle;
  let other: SchemaHandle;
  let credential: IssuedCredential;
  /** the kit's clock runs this far ahead of real time */
  let offsetMs = 0;
  const now = () => new Date(Date.now() + offsetMs);
  const nowSeconds = () => Math.floor(now().getTime() / 1000);
  let leeway: number;
  let interactionExpiresIn: number;

  beforeAll(async () => {
    // storage calls take a few milliseconds, so that concurrent responses really interleave
    verifier = await startVerifierFixture({
      revocation: true,
      allowSuspension: true,
      clock: { now },
      storage: withLatency(memoryStorage()),
      maxOid4vpResponseBodyBytes: MAX_RESPONSE_BYTES,
    });
    identity = verifier.issuer.schema;
    other = await verifier.issuer.addSchema({ name: "Other vct" });
    credential = await verifier.issueCredential();
    const params = verifier.issuer.kit.config.verificationProtocol.OPENID4VP_FINAL1!.params.public as {
      leeway: number;
      verifier: { interactionExpiresIn: number };
    };
    leeway = params.leeway;
    interactionExpiresIn = params.verifier.interactionExpiresIn;
    expect(verifier.issuer.kit.config.app.maxOid4vpResponseBodyBytes).toBe(MAX_RESPONSE_BYTES);
  });
  afterAll(async () => {
    await verifier?.close();
  });

  const identityInput = (): ProofInputSpec => ({
    schema: identity,
    claims: [
      { path: "given_name", required: true },
      { path: "address/street", required: false },
    ],
  });
  const frame = { given_name: true, address: { street: true } };

  /** proof request (DID verifier) shared with the given prefix and response mode */
  const newRequest = (responseMode: "direct_post" | "direct_post.jwt" = "direct_post", inputs = [identityInput()]) =>
    verifier.request(inputs, { clientIdScheme: "decentralized_identifier", responseMode });

  const goodPresentation = (request: SharedRequest, holderCredential = credential) =>
    verifier.present(holderCredential, frame, verifier.keyBindingFor(request));

  /** number of credentials credkit stored from presentations (role VERIFIER) */
  async function receivedCredentials(): Promise<number> {
    const page = await verifier.api(
      "GET",
      `/api/credential/v1?page=0&pageSize=1&organisationId=${verifier.organisationId}&roles[]=VERIFIER`,
    );
    expect(page.status).toBe(200);
    return page.json.totalItems as number;
  }

  function expectInvalidRequest(response: HttpResult, description?: RegExp) {
    expect({ status: response.status, error: response.body?.error }).toEqual({ status: 400, error: "invalid_request" });
    if (description) expect(response.body.error_description).toMatch(description);
  }

  async function expectNoClaims(proofId: string) {
    const proof = await verifier.proof(proofId);
    expect(proof.proofInputs.length).toBeGreaterThan(0);
    for (const input of proof.proofInputs) {
      expect(input.claims).toEqual([]);
      expect(input).not.toHaveProperty("credential");
    }
    return proof;
  }

  /**
   * Sends a bad response and checks the outcome: 400 invalid_request naming `reason`; proof ERROR with errorReason,
   * completedDate and an ERRORED history entry (reason in its metadata); no claims or credentials stored; and the
   * request is used up: a correct response afterwards is refused and changes nothing.
   */
  async function expectErrored(request: SharedRequest, send: () => Promise<HttpResult>, reason: RegExp) {
    const before = await receivedCredentials();
    const response = await send();
    expectInvalidRequest(response, reason);

    const proof = await expectNoClaims(request.proofId);
    expect(proof.state).toBe("ERROR");
    expect(proof.errorReason).toMatch(reason);
    expect(proof.completedDate).toBeTypeOf("string");
    const history = await verifier.history(request.proofId);
    expect(history.map((h) => h.action)).toEqual(["ERRORED", "SHARED", "CREATED"]);
    const entry = await verifier.api("GET", `/api/history/v1/${(history[0] as unknown as { id: string }).id}`);
    expect(entry.json.metadata).toEqual({ ErrorMetadata: { errorCode: "BR_0291", message: proof.errorReason } });
    expect(await receivedCredentials()).toBe(before);

    const retry = await verifier.submitVpToken(request, { input_0: [await goodPresentation(request)] });
    expectInvalidRequest(retry);
    expect((await verifier.proof(request.proofId)).state).toBe("ERROR");
    expect(await receivedCredentials()).toBe(before);
    return proof;
  }

  /** a KB-JWT (RFC 9901 §4.3) over `sdJwt` signed here with jose, for presentations the SD-JWT library will not build */
  async function keyBindingJwt(
    sdJwt: string,
    key: { privateKey: CryptoKey },
    claims: { aud: string; nonce: string; iat?: number },
  ): Promise<string> {
    const sdHash = createHash("sha256").update(sdJwt).digest("base64url");
    return new SignJWT({ aud: claims.aud, nonce: claims.nonce, iat: claims.iat ?? nowSeconds(), sd_hash: sdHash })
      .setProtectedHeader({ alg: "ES256", typ: "kb+jwt" })
      .sign(key.privateKey);
  }

  /** the presentation without its KB-JWT (`<issuer-jwt>~<disclosures>~`) */
  const withoutKeyBinding = (presentation: string) => presentation.slice(0, presentation.lastIndexOf("~") + 1);

  // --- presentation checks: ERROR ---

  it("tampered disclosure (value changed, KB-JWT re-signed over it) → ERROR", async () => {
    const request = await newRequest();
    const sdJwt = withoutKeyBinding(await goodPresentation(request));
    const given = disclosuresOf(sdJwt).find((d) => d.decoded[1] === "given_name")!;
    const forged = Buffer.from(JSON.stringify([given.decoded[0], "given_name", "Mallory"])).toString("base64url");
    const tampered = sdJwt.replace(`~${given.encoded}~`, `~${forged}~`);
    expect(tampered).not.toBe(sdJwt);
    const presentation = tampered + (await keyBindingJwt(tampered, credential.holder, verifier.keyBindingFor(request)));
    await expectErrored(request, () => verifier.submitVpToken(request, { input_0: [presentation] }), /disclosure/i);
  });

  it("wrong nonce in the KB-JWT → ERROR", async () => {
    const request = await newRequest();
    const presentation = await verifier.present(credential, frame, { aud: request.clientId, nonce: "not-the-nonce" });
    await expectErrored(request, () => verifier.submitVpToken(request, { input_0: [presentation] }), /nonce/);
  });

  it("nonce of another request (a presentation replayed across requests) → ERROR", async () => {
    const first = await newRequest();
    const second = await newRequest();
    const forFirst = await goodPresentation(first);
    await expectErrored(second, () => verifier.submitVpToken(second, { input_0: [forFirst] }), /nonce/);
    // the first request is untouched and still takes its own presentation
    expect((await verifier.submitVpToken(first, { input_0: [forFirst] })).status).toBe(200);
    expect((await verifier.proof(first.proofId)).state).toBe("ACCEPTED");
  });

  it.each([
    [
      "another verifier's client_id",
      "decentralized_identifier:did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK",
    ],
    ["the client_id without its prefix", "DID"],
    ["the response_uri", "RESPONSE_URI"],
  ])("wrong audience in the KB-JWT (%s) → ERROR", async (_label, aud) => {
    const request = await newRequest();
    const audience = aud === "DID" ? verifier.verifierDid : aud === "RESPONSE_URI" ? verifier.responseUri : aud;
    const presentation = await verifier.present(credential, frame, { aud: audience, nonce: request.payload.nonce });
    await expectErrored(request, () => verifier.submitVpToken(request, { input_0: [presentation] }), /aud/);
  });

  it("missing key binding (no KB-JWT) → ERROR", async () => {
    const request = await newRequest();
    const presentation = await verifier.present(credential, frame, null);
    expect(presentation.endsWith("~")).toBe(true);
    await expectErrored(request, () => verifier.submitVpToken(request, { input_0: [presentation] }), /key binding/);
  });

  it("KB-JWT signed by a key other than the credential's cnf.jwk (a stolen credential) → ERROR", async () => {
    const request = await newRequest();
    const thief = await generateKeyPair("ES256");
    const sdJwt = withoutKeyBinding(await goodPresentation(request));
    const presentation = sdJwt + (await keyBindingJwt(sdJwt, thief, verifier.keyBindingFor(request)));
    await expectErrored(
      request,
      () => verifier.submitVpToken(request, { input_0: [presentation] }),
      /cnf\.jwk|signature/,
    );
  });

  it("stale KB-JWT (iat older than the leeway) → ERROR", async () => {
    const request = await newRequest();
    const presentation = await verifier.present(credential, frame, {
      ...verifier.keyBindingFor(request),
      iat: nowSeconds() - leeway - 120,
    });
    await expectErrored(request, () => verifier.submitVpToken(request, { input_0: [presentation] }), /stale/);
  });

  it("credential of another vct → ERROR", async () => {
    const foreign = await verifier.issueCredential({ schema: other });
    const request = await newRequest();
    const presentation = await verifier.present(foreign, frame, verifier.keyBindingFor(request));
    await expectErrored(request, () => verifier.submitVpToken(request, { input_0: [presentation] }), /vct/);
  });

  it("missing required claim (given_name not disclosed) → ERROR", async () => {
    const request = await newRequest();
    const presentation = await verifier.present(
      credential,
      { address: { street: true } },
      verifier.keyBindingFor(request),
    );
    await expectErrored(request, () => verifier.submitVpToken(request, { input_0: [presentation] }), /given_name/);
  });

  it("unknown credential query id in vp_token → ERROR", async () => {
    const request = await newRequest();
    const presentation = await goodPresentation(request);
    await expectErrored(
      request,
      () => verifier.submitVpToken(request, { input_0: [presentation], input_7: [presentation] }),
      /unknown credential query input_7/,
    );
  });

  it("no presentation for the requested credential query → ERROR", async () => {
    const request = await newRequest();
    const presentation = await goodPresentation(request);
    await expectErrored(
      request,
      () => verifier.submitVpToken(request, { other: [presentation] }),
      /unknown credential query other/,
    );
  });

  it("vp_token that is not a JSON object keyed by credential query id → ERROR", async () => {
    const request = await newRequest();
    const presentation = await goodPresentation(request);
    await expectErrored(
      request,
      () => verifier.postResponse({ vp_token: presentation, state: request.payload.state }),
      /vp_token/,
    );
  });

  it("revoked credential (revoked through the issuer API before presenting) → ERROR", async () => {
    const revoked = await verifier.issueCredential();
    expect((await verifier.api("POST", `/api/credential/v1/${revoked.credentialId}/revoke`)).status).toBe(204);
    expect(await verifier.issuer.credentialState(revoked.credentialId)).toBe("REVOKED");
    const request = await newRequest();
    const presentation = await goodPresentation(request, revoked);
    await expectErrored(request, () => verifier.submitVpToken(request, { input_0: [presentation] }), /revoked/);
  });

  it("suspended credential → ERROR; after reactivation the same credential is accepted", async () => {
    const suspended = await verifier.issueCredential();
    expect((await verifier.api("POST", `/api/credential/v1/${suspended.credentialId}/suspend`, {})).status).toBe(204);
    const request = await newRequest();
    const presentation = await goodPresentation(request, suspended);
    await expectErrored(request, () => verifier.submitVpToken(request, { input_0: [presentation] }), /suspended/);

    expect((await verifier.api("POST", `/api/credential/v1/${suspended.credentialId}/reactivate`)).status).toBe(204);
    const again = await newRequest();
    expect((await verifier.submitVpToken(again, { input_0: [await goodPresentation(again, suspended)] })).status).toBe(
      200,
    );
    expect((await verifier.proof(again.proofId)).state).toBe("ACCEPTED");
  });

  it("unencrypted response where direct_post.jwt was requested → 400, the request stays PENDING and usable", async () => {
    const request = await newRequest("direct_post.jwt");
    const presentation = await goodPresentation(request);
    const plain = await verifier.submitVpToken(request, { input_0: [presentation] });
    expect(plain.status).toBe(400);
    expect(plain.body.error_description).toMatch(/must be encrypted/);
    expect((await verifier.proof(request.proofId)).state).toBe("PENDING");
  });

  // --- refused without touching the proof ---

  it("keeps the ephemeral response-decryption key sealed at rest", async () => {
    const request = await newRequest("direct_post.jwt");
    const proof = await verifier.issuer.kit.storage.proofs.get(request.proofId);
    const interaction = await verifier.issuer.kit.storage.interactions.get(proof!.interactionId!);
    const stored = JSON.stringify(interaction!.data);
    const data = interaction!.data as { encryptionJwk: Record<string, unknown>; sealedEncryptionKey: string };
    expect(data.encryptionJwk).not.toHaveProperty("d");
    expect(data.sealedEncryptionKey).toMatch(/^v1\./);
    expect(stored).not.toMatch(/"d":/);
  });

  it("encrypted response the verifier cannot decrypt or place → 400, the request stays PENDING and usable", async () => {
    const request = await newRequest("direct_post.jwt");
    const decoy = await newRequest("direct_post.jwt");
    const presentation = await goodPresentation(request);
    const parameters = { vp_token: { input_0: [presentation] }, state: request.payload.state };
    // encrypted to the decoy's key, but claiming the request's kid
    const wrongKey = await verifier.encryptResponse(decoy, parameters);
    const [header, ...rest] = wrongKey.split(".");
    const relabelled = [
      Buffer.from(
        JSON.stringify({
          ...JSON.parse(Buffer.from(header!, "base64url").toString()),
          kid: request.payload.client_metadata.jwks!.keys[0]!.kid,
        }),
      ).toString("base64url"),
      ...rest,
    ].join(".");
    expectInvalidRequest(await verifier.postResponse({ response: relabelled }));
    // an unknown kid, and a response that is no JWE at all
    const unknownKid = await verifier.encryptResponse(
      {
        ...request,
        payload: {
          ...request.payload,
          client_metadata: {
            ...request.payload.client_metadata,
            jwks: { keys: [{ ...request.payload.client_metadata.jwks!.keys[0]!, kid: randomUUID() }] },
          },
        },
      },
      parameters,
    );
    expectInvalidRequest(await verifier.postResponse({ response: unknownKid }));
    expectInvalidRequest(await verifier.postResponse({ response: "not-a-jwe" }));
    // encrypted to the right key, but with an alg / enc the request did not offer (OpenID4VP 1.0 §8.3)
    const jwk = request.payload.client_metadata.jwks!.keys[0]!;
    for (const [alg, enc] of [
      ["ECDH-ES+A128KW", "A128GCM"],
      ["ECDH-ES", "A128CBC-HS256"],
    ] as const) {
      const unoffered = await new CompactEncrypt(new TextEncoder().encode(JSON.stringify(parameters)))
        .setProtectedHeader({ alg, enc, kid: jwk.kid! })
        .encrypt(await importJWK(jwk, alg));
      expectInvalidRequest(await verifier.postResponse({ response: unoffered }));
    }
    // no state, unknown state, wrong content type
    expectInvalidRequest(await verifier.postResponse({ vp_token: JSON.stringify({ input_0: [presentation] }) }));
    expectInvalidRequest(
      await verifier.postResponse({ vp_token: JSON.stringify({ input_0: [presentation] }), state: randomUUID() }),
    );
    const json = await fetch(verifier.responseUri, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(parameters),
    });
    expect(json.status).toBe(400);

    for (const untouched of [request, decoy]) {
      const proof = await expectNoClaims(untouched.proofId);
      expect(proof.state).toBe("PENDING");
      expect((await verifier.history(untouched.proofId)).map((h) => h.action)).toEqual(["SHARED", "CREATED"]);
    }
    // the right key still works
    expect(
      (await verifier.postResponse({ response: await verifier.encryptResponse(request, parameters) })).status,
    ).toBe(200);
    expect((await verifier.proof(request.proofId)).state).toBe("ACCEPTED");
  });

  it("body over app.maxOid4vpResponseBodyBytes → 413 before parsing (declared or streamed); the request stays PENDING", async () => {
    const request = await newRequest();
    const presentation = await goodPresentation(request);
    const oversized = new URLSearchParams({
      vp_token: JSON.stringify({ input_0: [presentation] }),
      state: request.payload.state,
      padding: "x".repeat(MAX_RESPONSE_BYTES),
    }).toString();
    const target = new URL(verifier.responseUri);
    // a fresh connection per oversized request: the server stops reading, so the connection is not reusable
    const post = (chunked: boolean) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest(
          {
            host: target.hostname,
            port: target.port,
            path: target.pathname,
            method: "POST",
            agent: false,
            headers: {
              "content-type": "application/x-www-form-urlencoded",
              ...(!chunked && { "content-length": Buffer.byteLength(oversized) }),
            },
          },
          (res) => {
            let body = "";
            res.on("data", (chunk) => {
              body += chunk;
            });
            res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
          },
        );
        req.on("error", reject);
        if (chunked) {
          req.write(oversized.slice(0, 1000));
          req.end(oversized.slice(1000));
        } else req.end(oversized);
      });
    for (const chunked of [false, true]) {
      const answer = await post(chunked);
      expect(answer.status, chunked ? "chunked" : "content-length").toBe(413);
      expect(JSON.parse(answer.body)).toMatchObject({ error: "invalid_request" });
    }
    const proof = await expectNoClaims(request.proofId);
    expect(proof.state).toBe("PENDING");
    expect((await verifier.history(request.proofId)).map((h) => h.action)).toEqual(["SHARED", "CREATED"]);

    // the same response within the limit is accepted: nothing of the oversized ones was consumed
    const fitting = await verifier.submitVpToken(request, { input_0: [presentation] });
    expect(fitting.status).toBe(200);
    expect((await verifier.proof(request.proofId)).state).toBe("ACCEPTED");
  });

  it("replayed response: the second POST of the same body → 400, the proof stays ACCEPTED with its claims", async () => {
    const request = await newRequest("direct_post.jwt");
    const jwe = await verifier.encryptResponse(request, {
      vp_token: { input_0: [await goodPresentation(request)] },
      state: request.payload.state,
    });
    expect((await verifier.postResponse({ response: jwe })).status).toBe(200);
    const accepted = await verifier.proof(request.proofId);
    expect(accepted.state).toBe("ACCEPTED");
    const before = await receivedCredentials();

    expectInvalidRequest(await verifier.postResponse({ response: jwe }));
    const after = await verifier.proof(request.proofId);
    expect(after.state).toBe("ACCEPTED");
    expect(after.proofInputs).toEqual(accepted.proofInputs);
    expect(after.completedDate).toBe(accepted.completedDate);
    expect(after).not.toHaveProperty("errorReason");
    expect((await verifier.history(request.proofId)).map((h) => h.action)).toEqual(["ACCEPTED", "SHARED", "CREATED"]);
    expect(await receivedCredentials()).toBe(before);
  });

  it("the same response sent 6 times concurrently is accepted exactly once", async () => {
    const request = await newRequest();
    const vpToken = { input_0: [await goodPresentation(request)] };
    const before = await receivedCredentials();
    const answers = await Promise.all(Array.from({ length: 6 }, () => verifier.submitVpToken(request, vpToken)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    for (const refused of answers.filter((a) => a.status !== 200)) expectInvalidRequest(refused);
    const proof = await verifier.proof(request.proofId);
    expect(proof.state).toBe("ACCEPTED");
    expect((await verifier.history(request.proofId)).map((h) => h.action)).toEqual(["ACCEPTED", "SHARED", "CREATED"]);
    expect(await receivedCredentials()).toBe(before + 1);
  });

  it("holder error=access_denied → REJECTED with the reason, no claims; the request is used up", async () => {
    const request = await newRequest();
    const response = await verifier.postResponse({
      error: "access_denied",
      error_description: "the user declined",
      state: request.payload.state,
    });
    expect(response.status).toBe(200);
    const proof = await expectNoClaims(request.proofId);
    expect(proof.state).toBe("REJECTED");
    expect(proof.errorReason).toBe("the user declined");
    expect((await verifier.history(request.proofId)).map((h) => h.action)).toEqual(["REJECTED", "SHARED", "CREATED"]);
    expectInvalidRequest(await verifier.submitVpToken(request, { input_0: [await goodPresentation(request)] }));
    expect((await verifier.proof(request.proofId)).state).toBe("REJECTED");
  });

  it("encrypted error=access_denied (direct_post.jwt) → REJECTED with the reason", async () => {
    const request = await newRequest("direct_post.jwt");
    const response = await verifier.postResponse({
      response: await verifier.encryptResponse(request, {
        error: "access_denied",
        error_description: "declined in the wallet",
        state: request.payload.state,
      }),
    });
    expect(response.status).toBe(200);
    const proof = await expectNoClaims(request.proofId);
    expect(proof.state).toBe("REJECTED");
    expect(proof.errorReason).toBe("declined in the wallet");
  });

  // --- expiry (last: moves the kit's clock) ---

  it("expired request (kit clock past interactionExpiresIn) → INTERACTION_EXPIRED, no claims; a re-share works", async () => {
    const request = await newRequest();
    const swept = await newRequest();
    offsetMs += (interactionExpiresIn + 1) * 1000;
    const before = await receivedCredentials();

    // a presentation made now (fresh KB-JWT) for the expired request
    const response = await verifier.submitVpToken(request, { input_0: [await goodPresentation(request)] });
    expectInvalidRequest(response, /expired/);
    const proof = await expectNoClaims(request.proofId);
    expect(proof.state).toBe("INTERACTION_EXPIRED");
    expect(proof.errorReason).toMatch(/expired/);
    expect((await verifier.history(request.proofId)).map((h) => h.action)).toEqual([
      "INTERACTION_EXPIRED",
      "SHARED",
      "CREATED",
    ]);
    expect(await receivedCredentials()).toBe(before);
    // the expired request object is no longer served
    expect((await fetch(request.requestUri)).status).toBe(404);

    // the expiration sweep (task INTERACTION_EXPIRATION_CHECK) does the same for a request nobody answered
    expect(await verifier.issuer.kit.openid4vp.expireRequests()).toBeGreaterThanOrEqual(1);
    expect((await verifier.proof(swept.proofId)).state).toBe("INTERACTION_EXPIRED");

    // INTERACTION_EXPIRED may be shared again: a new request with a new nonce is accepted
    const reshared = await verifier.share(request.proofId, { clientIdScheme: "decentralized_identifier" });
    expect(reshared.payload.nonce).not.toBe(request.payload.nonce);
    expect((await verifier.submitVpToken(reshared, { input_0: [await goodPresentation(reshared)] })).status).toBe(200);
    expect((await verifier.proof(request.proofId)).state).toBe("ACCEPTED");
  });
});
