import { randomBytes, randomUUID } from "node:crypto";
import { exportJWK, generateKeyPair, type JWK, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryStorage } from "../../src/storage/memory/index.js";
import {
  type CreatedOffer,
  type IssuerFixture,
  PRE_AUTHORIZED_GRANT,
  type SchemaHandle,
  startIssuerFixture,
  withLatency,
} from "../support/issuer-fixture.js";

// Attacks on credkit's OpenID4VCI 1.0 issuer over real loopback HTTP, with plain fetch and jose. Every attack must be
// refused with the protocol's error code (OpenID4VCI 1.0 §6.3 token errors, §8.3.1.2 credential errors, RFC 6750 for
// the bearer token) and issue nothing: the credential's state, read through the management API, does not move and
// the response carries no `credentials`.

interface HttpResult {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: protocol responses are inspected freely
  body: any;
}

async function send(url: string, init: RequestInit = {}): Promise<HttpResult> {
  const response = await fetch(url, init);
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = text;
  }
  return { status: response.status, headers: response.headers, body };
}

/** refused with `error` and nothing issued in the response */
function expectRefused(result: HttpResult, status: number, error: string) {
  expect({ status: result.status, error: result.body?.error }).toEqual({ status, error });
  expect(result.body).not.toHaveProperty("credentials");
  expect(result.body).not.toHaveProperty("access_token");
}

describe("OpenID4VCI issuer security: attacks are refused and nothing is issued", () => {
  let issuer: IssuerFixture;
  let txSchema: SchemaHandle;
  let otherSchema: SchemaHandle;
  /** the kit's clock runs this far ahead of real time */
  let offsetMs = 0;
  const now = () => new Date(Date.now() + offsetMs);
  const nowSeconds = () => Math.floor(now().getTime() / 1000);
  let settings: {
    preAuthorizedCodeExpiresIn: number;
    txCodeMaxAttempts: number;
    nonceExpiresIn: number;
    leeway: number;
    tokenExpiresIn: number;
  };
  let holder: { privateKey: CryptoKey; publicJwk: JWK };
  let otherHolder: { privateKey: CryptoKey; publicJwk: JWK };

  beforeAll(async () => {
    // storage calls take a few milliseconds, so that concurrent requests really interleave
    issuer = await startIssuerFixture({
      revocation: true,
      allowSuspension: false,
      clock: { now },
      storage: withLatency(memoryStorage()),
    });
    txSchema = await issuer.addSchema({ name: "With tx code", transactionCode: { type: "NUMERIC", length: 6 } });
    otherSchema = await issuer.addSchema({ name: "Other" });
    const params = issuer.kit.config.issuanceProtocol.OPENID4VCI_FINAL1!.params.public as Record<string, number>;
    settings = {
      preAuthorizedCodeExpiresIn: params.preAuthorizedCodeExpiresIn!,
      txCodeMaxAttempts: params.txCodeMaxAttempts!,
      nonceExpiresIn: params.nonceExpiresIn!,
      leeway: params.leeway!,
      tokenExpiresIn: params.tokenExpiresIn!,
    };
    expect(settings.txCodeMaxAttempts).toBe(3);
    for (const target of ["holder", "otherHolder"] as const) {
      const pair = await generateKeyPair("ES256", { extractable: true });
      const value = { privateKey: pair.privateKey, publicJwk: await exportJWK(pair.publicKey) };
      if (target === "holder") holder = value;
      else otherHolder = value;
    }
  });
  afterAll(async () => {
    await issuer?.close();
  });

  // --- wallet steps ---

  async function preAuthorizedCode(offer: CreatedOffer): Promise<string> {
    const fetched = await send(offer.offerUri);
    expect(fetched.status).toBe(200);
    return fetched.body.grants[PRE_AUTHORIZED_GRANT]["pre-authorized_code"];
  }

  function tokenRequest(schema: SchemaHandle, params: Record<string, string>) {
    return send(schema.endpoints.token, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(params),
    });
  }

  const redeem = (schema: SchemaHandle, code: string, extra: Record<string, string> = {}) =>
    tokenRequest(schema, { grant_type: PRE_AUTHORIZED_GRANT, "pre-authorized_code": code, ...extra });

  /** offer → pre-authorized code → access token (credential OFFERED) */
  async function offeredCredential(schema: SchemaHandle = issuer.schema) {
    const offer = await schema.createOffer();
    const token = await redeem(
      schema,
      await preAuthorizedCode(offer),
      offer.transactionCode ? { tx_code: offer.transactionCode } : {},
    );
    expect(token.status).toBe(200);
    expect(await issuer.credentialState(offer.credentialId)).toBe("OFFERED");
    return { ...offer, accessToken: token.body.access_token as string };
  }

  async function freshNonce(): Promise<string> {
    const response = await send(issuer.endpoints.nonce, { method: "POST" });
    expect(response.status).toBe(200);
    return response.body.c_nonce;
  }

  interface ProofOptions {
    nonce?: string | null;
    aud?: string;
    iat?: number;
    typ?: string;
    /** key that signs; default the key in the jwk header */
    signWith?: CryptoKey;
    jwk?: JWK;
  }

  async function proof(schema: SchemaHandle, options: ProofOptions = {}): Promise<string> {
    const nonce = options.nonce === undefined ? await freshNonce() : options.nonce;
    return new SignJWT(nonce === null ? {} : { nonce })
      .setProtectedHeader({
        alg: "ES256",
        typ: options.typ ?? "openid4vci-proof+jwt",
        jwk: options.jwk ?? holder.publicJwk,
      })
      .setAudience(options.aud ?? schema.credentialIssuer)
      .setIssuedAt(options.iat ?? nowSeconds())
      .sign(options.signWith ?? holder.privateKey);
  }

  function credentialRequest(schema: SchemaHandle, accessToken: string | undefined, body: unknown) {
    return send(schema.endpoints.credential, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(accessToken !== undefined && { authorization: `Bearer ${accessToken}` }),
      },
      body: JSON.stringify(body),
    });
  }

  const requestWithProof = (schema: SchemaHandle, accessToken: string, jwt: string) =>
    credentialRequest(schema, accessToken, { credential_configuration_id: schema.vct, proofs: { jwt: [jwt] } });

  async function issue(schema: SchemaHandle, accessToken: string) {
    const response = await requestWithProof(schema, accessToken, await proof(schema));
    expect(response.status).toBe(200);
    expect(response.body.credentials).toHaveLength(1);
    return response;
  }

  // --- token endpoint ---

  describe("token endpoint", () => {
    it("refuses a replayed pre-authorized code (invalid_grant), before and after issuance", async () => {
      const offer = await issuer.createOffer();
      const code = await preAuthorizedCode(offer);
      const first = await redeem(issuer.schema, code);
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ token_type: "Bearer", expires_in: settings.tokenExpiresIn });
      expect(first.headers.get("cache-control")).toContain("no-store");

      expectRefused(await redeem(issuer.schema, code), 400, "invalid_grant");
      expect(await issuer.credentialState(offer.credentialId)).toBe("OFFERED");

      await issue(issuer.schema, first.body.access_token);
      expectRefused(await redeem(issuer.schema, code), 400, "invalid_grant");
      expect(await issuer.credentialState(offer.credentialId)).toBe("ACCEPTED");
    });

    it("redeems a code exactly once under 10 concurrent token requests", async () => {
      const offer = await issuer.createOffer();
      const code = await preAuthorizedCode(offer);
      const results = await Promise.all(Array.from({ length: 10 }, () => redeem(issuer.schema, code)));
      const ok = results.filter((r) => r.status === 200);
      expect(ok).toHaveLength(1);
      for (const refused of results.filter((r) => r.status !== 200)) expectRefused(refused, 400, "invalid_grant");
      expect(await issuer.credentialState(offer.credentialId)).toBe("OFFERED");
      await issue(issuer.schema, ok[0]!.body.access_token);
      expect(await issuer.credentialState(offer.credentialId)).toBe("ACCEPTED");
    });

    it("refuses an expired pre-authorized code (invalid_grant → INTERACTION_EXPIRED); a re-share works", async () => {
      const offer = await issuer.createOffer();
      const code = await preAuthorizedCode(offer);
      offsetMs += (settings.preAuthorizedCodeExpiresIn + 1) * 1000;

      expectRefused(await redeem(issuer.schema, code), 400, "invalid_grant");
      expect(await issuer.credentialState(offer.credentialId)).toBe("INTERACTION_EXPIRED");
      expect((await send(offer.offerUri)).status).toBe(404);

      const reshared = await issuer.api("POST", `/api/credential/v1/${offer.credentialId}/share`);
      expect(reshared.status).toBe(201);
      expect(await issuer.credentialState(offer.credentialId)).toBe("PENDING");
      const newOfferUri = new URL(reshared.json.url).searchParams.get("credential_offer_uri")!;
      const newCode = await preAuthorizedCode({ ...offer, offerUri: newOfferUri });
      expect(newCode).not.toBe(code);
      // the old code died with its interaction
      expectRefused(await redeem(issuer.schema, code), 400, "invalid_grant");
      const token = await redeem(issuer.schema, newCode);
      expect(token.status).toBe(200);
      await issue(issuer.schema, token.body.access_token);
      expect(await issuer.credentialState(offer.credentialId)).toBe("ACCEPTED");
    });

    it("refuses a wrong tx_code (invalid_grant) and a missing one (invalid_request, OpenID4VCI 1.0 §6.3)", async () => {
      const offer = await txSchema.createOffer();
      expect(offer.transactionCode).toMatch(/^\d{6}$/);
      const code = await preAuthorizedCode(offer);
      const wrong = offer.transactionCode === "000000" ? "111111" : "000000";

      expectRefused(await redeem(txSchema, code, { tx_code: wrong }), 400, "invalid_grant");
      expectRefused(await redeem(txSchema, code), 400, "invalid_request");
      expectRefused(await redeem(txSchema, code, { tx_code: "" }), 400, "invalid_request");
      expect(await issuer.credentialState(offer.credentialId)).toBe("PENDING");

      // one wrong attempt (a missing code is not a guess) leaves room for the right one
      const token = await redeem(txSchema, code, { tx_code: offer.transactionCode! });
      expect(token.status).toBe(200);
      await issue(txSchema, token.body.access_token);
      expect(await issuer.credentialState(offer.credentialId)).toBe("ACCEPTED");
    });

    it("refuses even the right tx_code after txCodeMaxAttempts wrong ones; a re-share issues a new code", async () => {
      const offer = await txSchema.createOffer();
      const code = await preAuthorizedCode(offer);
      const wrong = offer.transactionCode === "000000" ? "111111" : "000000";
      for (let i = 0; i < settings.txCodeMaxAttempts; i++) {
        expectRefused(await redeem(txSchema, code, { tx_code: wrong }), 400, "invalid_grant");
      }
      expectRefused(await redeem(txSchema, code, { tx_code: offer.transactionCode! }), 400, "invalid_grant");
      expect(await issuer.credentialState(offer.credentialId)).toBe("PENDING");

      const reshared = await issuer.api("POST", `/api/credential/v1/${offer.credentialId}/share`);
      expect(reshared.status).toBe(201);
      const newOfferUri = new URL(reshared.json.url).searchParams.get("credential_offer_uri")!;
      const token = await redeem(txSchema, await preAuthorizedCode({ ...offer, offerUri: newOfferUri }), {
        tx_code: reshared.json.transactionCode,
      });
      expect(token.status).toBe(200);
      expect(await issuer.credentialState(offer.credentialId)).toBe("OFFERED");
    });

    it("bounds tx_code guesses sent concurrently: 10 parallel wrong codes exhaust the attempts", async () => {
      const offer = await txSchema.createOffer();
      const code = await preAuthorizedCode(offer);
      const guesses = Array.from({ length: 10 }, (_, i) => String(i).padStart(6, "0")).filter(
        (g) => g !== offer.transactionCode,
      );
      const results = await Promise.all(guesses.map((guess) => redeem(txSchema, code, { tx_code: guess })));
      for (const result of results) expectRefused(result, 400, "invalid_grant");
      expectRefused(await redeem(txSchema, code, { tx_code: offer.transactionCode! }), 400, "invalid_grant");
      expect(await issuer.credentialState(offer.credentialId)).toBe("PENDING");
    });

    it("refuses a tx_code for an offer that has none (invalid_request)", async () => {
      const offer = await issuer.createOffer();
      const code = await preAuthorizedCode(offer);
      expectRefused(await redeem(issuer.schema, code, { tx_code: "123456" }), 400, "invalid_request");
      expect(await issuer.credentialState(offer.credentialId)).toBe("PENDING");
    });

    it("refuses malformed token requests", async () => {
      const offer = await issuer.createOffer();
      const code = await preAuthorizedCode(offer);
      const asJson = await send(issuer.endpoints.token, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ grant_type: PRE_AUTHORIZED_GRANT, "pre-authorized_code": code }),
      });
      expectRefused(asJson, 400, "invalid_request");
      expectRefused(await tokenRequest(issuer.schema, { "pre-authorized_code": code }), 400, "invalid_request");
      expectRefused(
        await tokenRequest(issuer.schema, { grant_type: "authorization_code", code }),
        400,
        "unsupported_grant_type",
      );
      expectRefused(
        await tokenRequest(issuer.schema, { grant_type: "client_credentials" }),
        400,
        "unsupported_grant_type",
      );
      expectRefused(await tokenRequest(issuer.schema, { grant_type: PRE_AUTHORIZED_GRANT }), 400, "invalid_request");
      expectRefused(await redeem(issuer.schema, randomUUID()), 400, "invalid_grant");
      expectRefused(await redeem(issuer.schema, "not-a-code"), 400, "invalid_grant");
      // the code belongs to another schema's token endpoint
      expectRefused(await redeem(otherSchema, code), 400, "invalid_grant");
      expect(await issuer.credentialState(offer.credentialId)).toBe("PENDING");
    });
  });

  // --- credential endpoint: key proofs ---

  describe("credential endpoint key proofs", () => {
    let usedNonce: string;

    beforeAll(async () => {
      const { accessToken } = await offeredCredential();
      usedNonce = await freshNonce();
      const response = await requestWithProof(
        issuer.schema,
        accessToken,
        await proof(issuer.schema, { nonce: usedNonce }),
      );
      expect(response.status).toBe(200);
    });

    const cases: { name: string; error: string; build: () => Promise<string> }[] = [
      {
        name: "a nonce the issuer never gave",
        error: "invalid_nonce",
        build: () => proof(issuer.schema, { nonce: randomBytes(24).toString("base64url") }),
      },
      { name: "a nonce already used", error: "invalid_nonce", build: () => proof(issuer.schema, { nonce: usedNonce }) },
      { name: "no nonce", error: "invalid_nonce", build: () => proof(issuer.schema, { nonce: null }) },
      {
        name: "a wrong aud",
        error: "invalid_proof",
        build: () => proof(issuer.schema, { aud: otherSchema.credentialIssuer }),
      },
      {
        name: "an iat in the future",
        error: "invalid_proof",
        build: () => proof(issuer.schema, { iat: nowSeconds() + settings.leeway + 300 }),
      },
      {
        name: "a stale iat",
        error: "invalid_proof",
        build: () => proof(issuer.schema, { iat: nowSeconds() - settings.nonceExpiresIn - settings.leeway - 60 }),
      },
      {
        name: "a signature by another key than its jwk header",
        error: "invalid_proof",
        build: () => proof(issuer.schema, { signWith: otherHolder.privateKey }),
      },
      { name: "typ JWT", error: "invalid_proof", build: () => proof(issuer.schema, { typ: "JWT" }) },
      {
        name: "alg none",
        error: "invalid_proof",
        build: async () => {
          const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
          const header = { alg: "none", typ: "openid4vci-proof+jwt", jwk: holder.publicJwk };
          return `${part(header)}.${part({ aud: issuer.credentialIssuer, iat: nowSeconds(), nonce: await freshNonce() })}.`;
        },
      },
    ];

    for (const { name, error, build } of cases) {
      it(`refuses a proof with ${name} (${error}); the token still works afterwards`, async () => {
        const { credentialId, accessToken } = await offeredCredential();
        expectRefused(await requestWithProof(issuer.schema, accessToken, await build()), 400, error);
        expect(await issuer.credentialState(credentialId)).toBe("OFFERED");
        await issue(issuer.schema, accessToken);
        expect(await issuer.credentialState(credentialId)).toBe("ACCEPTED");
      });
    }

    it("refuses a request without proof (invalid_proof)", async () => {
      const { credentialId, accessToken } = await offeredCredential();
      expectRefused(
        await credentialRequest(issuer.schema, accessToken, { credential_configuration_id: issuer.vct }),
        400,
        "invalid_proof",
      );
      expect(await issuer.credentialState(credentialId)).toBe("OFFERED");
    });

    it("refuses a nonce that expired (invalid_nonce)", async () => {
      const { credentialId, accessToken } = await offeredCredential();
      const nonce = await freshNonce();
      offsetMs += (settings.nonceExpiresIn + 1) * 1000;
      expectRefused(
        await requestWithProof(issuer.schema, accessToken, await proof(issuer.schema, { nonce })),
        400,
        "invalid_nonce",
      );
      expect(await issuer.credentialState(credentialId)).toBe("OFFERED");
    });
  });

  // --- credential endpoint: access token and request ---

  describe("credential endpoint access", () => {
    it("refuses a request without access token (401 invalid_token)", async () => {
      const { credentialId } = await offeredCredential();
      const result = await credentialRequest(issuer.schema, undefined, {
        credential_configuration_id: issuer.vct,
        proofs: { jwt: [await proof(issuer.schema)] },
      });
      expectRefused(result, 401, "invalid_token");
      expect(result.headers.get("www-authenticate")).toMatch(/^Bearer/);
      expect(await issuer.credentialState(credentialId)).toBe("OFFERED");
    });

    it("refuses a random access token (401 invalid_token)", async () => {
      const { credentialId } = await offeredCredential();
      const result = await requestWithProof(
        issuer.schema,
        randomBytes(32).toString("base64url"),
        await proof(issuer.schema),
      );
      expectRefused(result, 401, "invalid_token");
      expect(await issuer.credentialState(credentialId)).toBe("OFFERED");
    });

    it("refuses the access token of another schema's offer at this schema's credential endpoint (401)", async () => {
      const mine = await offeredCredential();
      const foreign = await offeredCredential(otherSchema);
      const result = await credentialRequest(issuer.schema, foreign.accessToken, {
        credential_configuration_id: issuer.vct,
        proofs: { jwt: [await proof(issuer.schema)] },
      });
      expectRefused(result, 401, "invalid_token");
      expect(await issuer.credentialState(mine.credentialId)).toBe("OFFERED");
      expect(await issuer.credentialState(foreign.credentialId)).toBe("OFFERED");
    });

    it("refuses an expired access token (401 invalid_token)", async () => {
      const { credentialId, accessToken } = await offeredCredential();
      offsetMs += (settings.tokenExpiresIn + 1) * 1000;
      expectRefused(
        await requestWithProof(issuer.schema, accessToken, await proof(issuer.schema)),
        401,
        "invalid_token",
      );
      expect(await issuer.credentialState(credentialId)).toBe("OFFERED");
    });

    it("refuses a wrong credential_configuration_id (unknown_credential_configuration)", async () => {
      const { credentialId, accessToken } = await offeredCredential();
      const result = await credentialRequest(issuer.schema, accessToken, {
        credential_configuration_id: otherSchema.vct,
        proofs: { jwt: [await proof(issuer.schema)] },
      });
      expectRefused(result, 400, "unknown_credential_configuration");
      expect(await issuer.credentialState(credentialId)).toBe("OFFERED");
    });

    it("refuses a second credential request after success (credential_request_denied) and the offer is gone", async () => {
      const { credentialId, accessToken, offerUri } = await offeredCredential();
      await issue(issuer.schema, accessToken);
      expectRefused(
        await requestWithProof(issuer.schema, accessToken, await proof(issuer.schema)),
        400,
        "credential_request_denied",
      );
      expect(await issuer.credentialState(credentialId)).toBe("ACCEPTED");
      expect((await send(offerUri)).status).toBe(404);
    });

    it("refuses a notification for another exchange (invalid_notification_id)", async () => {
      const first = await offeredCredential();
      const issued = await issue(issuer.schema, first.accessToken);
      const second = await offeredCredential();
      const secondIssued = await issue(issuer.schema, second.accessToken);
      const result = await send(issuer.endpoints.notification, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${first.accessToken}` },
        body: JSON.stringify({ notification_id: secondIssued.body.notification_id, event: "credential_deleted" }),
      });
      expectRefused(result, 400, "invalid_notification_id");
      expect(issued.body.notification_id).not.toBe(secondIssued.body.notification_id);
      expect(await issuer.credentialState(first.credentialId)).toBe("ACCEPTED");
      expect(await issuer.credentialState(second.credentialId)).toBe("ACCEPTED");
    });
  });

  // --- management API ---

  describe("management API input and state rules", () => {
    async function credentialCount(): Promise<number> {
      const list = await issuer.api(
        "GET",
        `/api/credential/v1?page=0&pageSize=1&organisationId=${issuer.organisationId}`,
      );
      expect(list.status).toBe(200);
      return list.json.totalItems as number;
    }

    const createBody = (overrides: Record<string, unknown> = {}) => ({
      credentialSchemaId: issuer.schema.id,
      issuer: issuer.didIdentifierId,
      protocol: "OPENID4VCI_FINAL1",
      claimValues: [{ claimId: issuer.claimIds.given_name, path: "given_name", value: "Erika" }],
      ...overrides,
    });

    it("refuses bad credential input with the reference's error codes and creates nothing", async () => {
      const before = await credentialCount();
      const expectError = async (body: unknown, status: number, code: string) => {
        const response = await issuer.api("POST", "/api/credential/v1", body);
        expect({ status: response.status, code: response.json?.code }).toEqual({ status, code });
      };
      await expectError(
        createBody({ claimValues: [{ claimId: randomUUID(), path: "given_name", value: "Erika" }] }),
        400,
        "BR_0010",
      );
      await expectError(
        createBody({
          claimValues: [
            { claimId: issuer.claimIds.given_name, path: "given_name", value: "Erika" },
            { claimId: issuer.claimIds.age, path: "age", value: "forty-two" },
          ],
        }),
        400,
        "BR_0061",
      );
      await expectError(
        createBody({ claimValues: [{ claimId: issuer.claimIds.age, path: "age", value: "42" }] }),
        400,
        "BR_0003",
      );
      await expectError(createBody({ protocol: "OPENID4VCI_DRAFT99" }), 400, "BR_0089");

      // an identifier of another organisation
      const org = (await issuer.api("POST", "/api/organisation/v1", { name: "Someone else" })).json.id;
      const key = (
        await issuer.api("POST", "/api/key/v1", {
          organisationId: org,
          keyType: "EDDSA",
          keyParams: {},
          name: "k",
          storageType: "INTERNAL",
          storageParams: {},
        })
      ).json.id;
      const foreign = await issuer.api("POST", "/api/identifier/v1", {
        organisationId: org,
        name: "foreign",
        key: { keyId: key },
      });
      expect(foreign.status).toBe(201);
      await expectError(createBody({ issuer: foreign.json.id }), 404, "BR_0207");

      expect(await credentialCount()).toBe(before);
    });

    it("refuses share in a wrong state (BR_0002), revoke of a CREATED credential (BR_0366), suspend without allowSuspension (BR_0162)", async () => {
      const created = await issuer.createCredential();
      const revoke = await issuer.api("POST", `/api/credential/v1/${created}/revoke`);
      expect({ status: revoke.status, code: revoke.json?.code }).toEqual({ status: 400, code: "BR_0366" });
      expect(await issuer.credentialState(created)).toBe("CREATED");

      const offered = await offeredCredential();
      const shareOffered = await issuer.api("POST", `/api/credential/v1/${offered.credentialId}/share`);
      expect({ status: shareOffered.status, code: shareOffered.json?.code }).toEqual({ status: 400, code: "BR_0002" });
      expect(await issuer.credentialState(offered.credentialId)).toBe("OFFERED");

      await issue(issuer.schema, offered.accessToken);
      const shareAccepted = await issuer.api("POST", `/api/credential/v1/${offered.credentialId}/share`);
      expect({ status: shareAccepted.status, code: shareAccepted.json?.code }).toEqual({
        status: 400,
        code: "BR_0002",
      });
      const suspend = await issuer.api("POST", `/api/credential/v1/${offered.credentialId}/suspend`, {});
      expect({ status: suspend.status, code: suspend.json?.code }).toEqual({ status: 400, code: "BR_0162" });
      expect(await issuer.credentialState(offered.credentialId)).toBe("ACCEPTED");
    });
  });
});
