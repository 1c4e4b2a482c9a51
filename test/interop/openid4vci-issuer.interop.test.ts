/**
 * Interop: credkit's wallet against an independent OpenID4VCI 1.0 issuer built with the OpenWallet Foundation
 * libraries — @openid4vc/openid4vci + @openid4vc/oauth2 (offer, metadata, token, nonce, key proof verification,
 * credential response) and @sd-jwt/sd-jwt-vc (the SD-JWT VC, bound to the proof key through cnf.jwk). The issuer runs on
 * a real loopback port (plain http, so the wallet kit sets app.http.allowInsecureHttpTransport); the wallet is driven
 * over credkit's own HTTP API. Only DID resolution of did:key holders borrows credkit's resolver.
 */
import { createHash, randomBytes, randomUUID } from "node:crypto";
import type { Server } from "node:http";
import { serve } from "@hono/node-server";
import {
  clientAuthenticationNone,
  type JwtSigner,
  Oauth2AuthorizationServer,
  Oauth2ServerErrorResponseError,
  preAuthorizedCodeGrantIdentifier,
} from "@openid4vc/oauth2";
import {
  type CredentialIssuerMetadata,
  type IssuerMetadataResult,
  Openid4vciIssuer,
  Openid4vciVersion,
  setGlobalConfig,
} from "@openid4vc/openid4vci";
import { digest, ES256, generateSalt } from "@sd-jwt/crypto-nodejs";
import { SDJwtVcInstance, type SdJwtVcPayload } from "@sd-jwt/sd-jwt-vc";
import type { DisclosureFrame } from "@sd-jwt/types";
import { Hono } from "hono";
import { compactVerify, exportJWK, generateKeyPair, importJWK, type JWK, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Credkit } from "../../src/credkit.js";
import { createTestKit } from "../../src/testing/create-test-kit.js";
import { type ApiResponse, createApiClient, HTTP_ADAPTERS, type MountedKit } from "../support/http-harness.js";

const VCT = "urn:eudi:pid:de:1";
const ISSUER_KID = "issuer-es256";
const CLAIMS = {
  given_name: "Erika",
  family_name: "Mustermann",
  birthdate: "1964-08-12",
  age_in_years: 61,
  age_over_18: true,
  address: { street_address: "Heidestraße 17", locality: "Köln", postal_code: "51147" },
  nationalities: ["DE", "FR"],
};
const DISCLOSURE_FRAME = {
  _sd: ["given_name", "family_name", "birthdate", "age_in_years", "age_over_18", "address", "nationalities"],
  address: { _sd: ["street_address", "locality", "postal_code"] },
  nationalities: { _sd: [0, 1] },
} as unknown as DisclosureFrame<SdJwtVcPayload>;

interface Session {
  code: string;
  txCode?: string;
  accessToken?: string;
  nonce?: string;
  notificationId: string;
}

interface IndependentIssuer {
  credentialIssuer: string;
  notifications: Record<string, unknown>[];
  proofHeaders: Record<string, unknown>[];
  /** an invitation URL (by reference unless `byValue`) */
  offer(options?: { txCode?: string; byValue?: boolean }): Promise<string>;
  close(): Promise<void>;
}

async function startIndependentIssuer(resolveDid: (did: string) => Promise<unknown>): Promise<IndependentIssuer> {
  // the libraries refuse http URLs unless told otherwise; the loopback issuer is plain http
  setGlobalConfig({ allowInsecureUrls: true });
  const sessions = new Map<string, Session>();
  const offers = new Map<string, unknown>();
  const notifications: Record<string, unknown>[] = [];
  const proofHeaders: Record<string, unknown>[] = [];

  const accessTokenKey = await generateKeyPair("ES256", { extractable: true });
  const accessTokenJwk = await exportJWK(accessTokenKey.publicKey);
  const issuerKeys = await ES256.generateKeyPair();
  const sdJwt = new SDJwtVcInstance({
    signer: await ES256.getSigner(issuerKeys.privateKey),
    signAlg: "ES256",
    verifier: await ES256.getVerifier(issuerKeys.publicKey),
    hasher: digest,
    hashAlg: "sha-256",
    saltGenerator: generateSalt,
  });

  async function publicJwkOf(signer: JwtSigner): Promise<JWK | undefined> {
    if (signer.method === "jwk") return signer.publicJwk as JWK;
    if (signer.method === "did") {
      const document = (await resolveDid(signer.didUrl.split("#")[0]!)) as {
        verificationMethod: { id: string; publicKeyJwk?: JWK }[];
      };
      return document.verificationMethod.find((method) => method.id === signer.didUrl)?.publicKeyJwk;
    }
    return undefined;
  }

  const callbacks = {
    hash: (data: Uint8Array, alg: string) => createHash(alg.replace("-", "")).update(data).digest(),
    generateRandom: (length: number) => randomBytes(length),
    clientAuthentication: clientAuthenticationNone({ clientId: "credkit-wallet" }),
    signJwt: async (
      _signer: JwtSigner,
      jwt: { header: Record<string, unknown>; payload: Record<string, unknown> },
    ) => ({
      jwt: await new SignJWT(jwt.payload)
        .setProtectedHeader({ ...jwt.header, alg: "ES256" })
        .sign(accessTokenKey.privateKey),
      signerJwk: accessTokenJwk as never,
    }),
    verifyJwt: async (signer: JwtSigner, jwt: { compact: string }) => {
      const jwk = await publicJwkOf(signer);
      if (!jwk) return { verified: false as const };
      try {
        await compactVerify(jwt.compact, await importJWK(jwk, signer.alg));
        return { verified: true as const, signerJwk: jwk as never };
      } catch {
        return { verified: false as const, signerJwk: jwk as never };
      }
    },
  };
  const issuer = new Openid4vciIssuer({ callbacks: callbacks as never });
  const authorizationServer = new Oauth2AuthorizationServer({ callbacks: callbacks as never });

  let credentialIssuer = "";
  let metadata!: IssuerMetadataResult;
  const app = new Hono();
  const tenantPath = "/oid4vci/tenant-1";

  app.get(`/.well-known/openid-credential-issuer${tenantPath}`, (c) => c.json(metadata.credentialIssuer));
  app.get(`/.well-known/oauth-authorization-server${tenantPath}`, (c) => c.json(metadata.authorizationServers[0]));
  app.get(`/.well-known/jwt-vc-issuer${tenantPath}`, (c) =>
    c.json({ issuer: credentialIssuer, jwks: { keys: [{ ...issuerKeys.publicKey, kid: ISSUER_KID, alg: "ES256" }] } }),
  );
  app.get("/offers/:id", (c) => {
    const offer = offers.get(c.req.param("id"));
    return offer ? c.json(offer) : c.body(null, 404);
  });

  const oauthError = (error: unknown) => {
    if (error instanceof Oauth2ServerErrorResponseError) {
      return new Response(JSON.stringify(error.errorResponse), {
        status: error.status,
        headers: { "content-type": "application/json" },
      });
    }
    throw error;
  };

  app.post(`${tenantPath}/token`, async (c) => {
    const request = { headers: c.req.raw.headers, method: "POST" as const, url: c.req.url };
    try {
      const parsed = authorizationServer.parseAccessTokenRequest({
        request,
        accessTokenRequest: Object.fromEntries(new URLSearchParams(await c.req.text())),
      });
      if (parsed.grant.grantType !== preAuthorizedCodeGrantIdentifier)
        return c.json({ error: "unsupported_grant_type" }, 400);
      const session = sessions.get(parsed.grant.preAuthorizedCode);
      if (!session || session.accessToken) return c.json({ error: "invalid_grant" }, 400);
      await authorizationServer.verifyPreAuthorizedCodeAccessTokenRequest({
        authorizationServerMetadata: metadata.authorizationServers[0]!,
        grant: parsed.grant,
        accessTokenRequest: parsed.accessTokenRequest,
        request,
        expectedPreAuthorizedCode: session.code,
        ...(session.txCode !== undefined && { expectedTxCode: session.txCode }),
      });
      const response = await authorizationServer.createAccessTokenResponse({
        authorizationServer: credentialIssuer,
        audience: credentialIssuer,
        subject: session.code,
        expiresInSeconds: 300,
        signer: { method: "jwk", alg: "ES256", publicJwk: accessTokenJwk as never },
      });
      session.accessToken = response.access_token;
      return c.json(response);
    } catch (error) {
      return oauthError(error);
    }
  });

  app.post(`${tenantPath}/nonce`, (c) => {
    const cNonce = randomUUID();
    for (const session of sessions.values()) session.nonce = cNonce;
    return c.json(issuer.createNonceResponse({ cNonce, cNonceExpiresIn: 300 }));
  });

  app.post(`${tenantPath}/credential`, async (c) => {
    const token = c.req.header("authorization")?.replace(/^Bearer /, "");
    const session = [...sessions.values()].find((s) => s.accessToken !== undefined && s.accessToken === token);
    if (!session) return c.json({ error: "invalid_token" }, 401);
    try {
      const credentialRequest = issuer.parseCredentialRequest({
        issuerMetadata: metadata,
        credentialRequest: await c.req.json(),
      });
      const jwt = credentialRequest.proofs?.jwt?.[0];
      if (!jwt) return c.json({ error: "invalid_proof" }, 400);
      const verified = await issuer.verifyCredentialRequestJwtProof({
        issuerMetadata: metadata,
        jwt,
        ...(session.nonce !== undefined && { expectedNonce: session.nonce }),
        now: new Date(),
      });
      proofHeaders.push(verified.header);
      const iat = Math.floor(Date.now() / 1000);
      const payload: SdJwtVcPayload = {
        iss: credentialIssuer,
        iat,
        exp: iat + 3600,
        vct: VCT,
        cnf: { jwk: verified.signer.publicJwk },
        ...CLAIMS,
      };
      const credential = await sdJwt.issue(payload, DISCLOSURE_FRAME, { header: { kid: ISSUER_KID } });
      return c.json(
        issuer.createCredentialResponse({
          credentialRequest,
          credentials: [{ credential }],
          notificationId: session.notificationId,
        }),
      );
    } catch (error) {
      return oauthError(error);
    }
  });

  app.post(`${tenantPath}/notification`, async (c) => {
    const token = c.req.header("authorization")?.replace(/^Bearer /, "");
    const body = (await c.req.json()) as Record<string, unknown>;
    const session = [...sessions.values()].find((s) => s.accessToken === token);
    if (!session || body.notification_id !== session.notificationId) {
      return c.json({ error: "invalid_notification_id" }, 400);
    }
    notifications.push(body);
    return c.body(null, 204);
  });

  let server!: Server;
  const port = await new Promise<number>((resolve) => {
    server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info) => resolve(info.port)) as Server;
  });
  const base = `http://127.0.0.1:${port}`;
  credentialIssuer = `${base}${tenantPath}`;

  const credentialIssuerMetadata: CredentialIssuerMetadata = issuer.createCredentialIssuerMetadata({
    credential_issuer: credentialIssuer,
    credential_endpoint: `${credentialIssuer}/credential`,
    nonce_endpoint: `${credentialIssuer}/nonce`,
    notification_endpoint: `${credentialIssuer}/notification`,
    credential_configurations_supported: {
      pid_sd_jwt: {
        format: "dc+sd-jwt",
        vct: VCT,
        cryptographic_binding_methods_supported: ["jwk", "did:key"],
        credential_signing_alg_values_supported: ["ES256"],
        proof_types_supported: { jwt: { proof_signing_alg_values_supported: ["ES256", "EdDSA"] } },
        credential_metadata: {
          display: [{ name: "Personalausweis", locale: "de-DE" }],
          claims: [
            { path: ["given_name"], mandatory: true },
            { path: ["family_name"], mandatory: true },
            { path: ["address", "street_address"] },
            { path: ["nationalities", null] },
          ],
        },
      },
    },
  } as CredentialIssuerMetadata);
  const asMetadata = authorizationServer.createAuthorizationServerMetadata({
    issuer: credentialIssuer,
    token_endpoint: `${credentialIssuer}/token`,
    grant_types_supported: [preAuthorizedCodeGrantIdentifier],
    "pre-authorized_grant_anonymous_access_supported": true,
  });
  metadata = {
    originalDraftVersion: Openid4vciVersion.V1,
    credentialIssuer: credentialIssuerMetadata,
    authorizationServers: [asMetadata],
    knownCredentialConfigurations: issuer.getKnownCredentialConfigurationsSupported(credentialIssuerMetadata),
  };

  return {
    credentialIssuer,
    notifications,
    proofHeaders,
    async offer(options = {}) {
      const code = randomUUID();
      sessions.set(code, {
        code,
        notificationId: randomUUID(),
        ...(options.txCode !== undefined && { txCode: options.txCode }),
      });
      const offerId = randomUUID();
      const { credentialOffer, credentialOfferObject } = await issuer.createCredentialOffer({
        issuerMetadata: metadata,
        credentialConfigurationIds: ["pid_sd_jwt"],
        grants: {
          [preAuthorizedCodeGrantIdentifier]: {
            "pre-authorized_code": code,
            ...(options.txCode !== undefined && {
              tx_code: { input_mode: "numeric", length: options.txCode.length, description: "PIN from the letter" },
            }),
          },
        },
        ...(options.byValue ? {} : { credentialOfferUri: `${base}/offers/${offerId}` }),
      });
      offers.set(offerId, credentialOfferObject);
      return credentialOffer;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function expectError(response: ApiResponse, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.json).toMatchObject({ code, message: expect.any(String) });
}

describe("interop: credkit wallet ← @openid4vc/openid4vci issuer", () => {
  let wallet: Credkit;
  let mounted: MountedKit;
  let api: ReturnType<typeof createApiClient>;
  let issuer: IndependentIssuer;
  let orgId: string;
  let es256KeyId: string;
  let didIdentifierId: string;

  beforeAll(async () => {
    wallet = await createTestKit({ config: { app: { http: { allowInsecureHttpTransport: true } } } });
    issuer = await startIndependentIssuer((did) => wallet.dids.resolve(did));
    mounted = await HTTP_ADAPTERS[0]!.mount(wallet);
    api = createApiClient(mounted.baseUrl);
    orgId = (await api("POST", "/api/organisation/v1", { name: "interop wallet" })).json.id;
    const key = async (name: string, keyType: string) =>
      (
        await api("POST", "/api/key/v1", {
          organisationId: orgId,
          keyType,
          keyParams: {},
          name,
          storageType: "INTERNAL",
          storageParams: {},
        })
      ).json.id as string;
    es256KeyId = await key("holder ES256", "ECDSA");
    const edKeyId = await key("holder EdDSA", "EDDSA");
    const identifier = await api("POST", "/api/identifier/v1", {
      name: "holder did:key",
      organisationId: orgId,
      did: {
        method: "KEY",
        keys: {
          authentication: [edKeyId],
          assertionMethod: [edKeyId],
          keyAgreement: [],
          capabilityInvocation: [],
          capabilityDelegation: [],
        },
      },
    });
    expect(identifier.status).toBe(201);
    didIdentifierId = identifier.json.id;
  });
  afterAll(async () => {
    await mounted?.close();
    await issuer?.close();
    await wallet?.close();
  });

  async function storedClaims(credentialId: string): Promise<Record<string, string>> {
    const credential = await wallet.storage.credentials.get(credentialId);
    return Object.fromEntries(credential!.claims.map((claim) => [claim.path, claim.value]));
  }

  const EXPECTED_CLAIMS = {
    given_name: "Erika",
    family_name: "Mustermann",
    birthdate: "1964-08-12",
    age_in_years: "61",
    age_over_18: "true",
    "address/street_address": "Heidestraße 17",
    "address/locality": "Köln",
    "address/postal_code": "51147",
    "nationalities/0": "DE",
    "nationalities/1": "FR",
  };

  it("obtains a credential from an offer by reference (no tx_code), bound to an ES256 key", async () => {
    const offer = await issuer.offer();
    expect(offer).toMatch(/^openid-credential-offer:\/\/\?credential_offer_uri=/);
    const handled = await api("POST", "/api/interaction/v1/handle-invitation", { url: offer, organisationId: orgId });
    expect(handled.status).toBe(201);
    expect(handled.json).toEqual({
      interactionId: expect.any(String),
      interactionType: "ISSUANCE",
      keyAlgorithms: ["ECDSA", "EDDSA"],
      protocol: "OPENID4VCI_FINAL1",
    });

    const accepted = await api("POST", "/api/interaction/v1/issuance-accept", {
      interactionId: handled.json.interactionId,
      keyId: es256KeyId,
    });
    expect(accepted.status).toBe(200);
    const credentialId = accepted.json.id as string;
    expect(await storedClaims(credentialId)).toEqual(EXPECTED_CLAIMS);

    const credential = await wallet.storage.credentials.get(credentialId);
    expect(credential).toMatchObject({
      role: "HOLDER",
      state: "ACCEPTED",
      holderKeyId: es256KeyId,
      protocol: "OPENID4VCI_FINAL1",
    });
    const schema = await wallet.storage.credentialSchemas.get(credential!.credentialSchemaId);
    expect(schema).toMatchObject({
      name: "Personalausweis",
      format: "SD_JWT_VC",
      schemaId: VCT,
      importedSourceUrl: issuer.credentialIssuer,
    });
    expect(schema!.claims.find((claim) => claim.key === "age_in_years")).toMatchObject({ datatype: "NUMBER" });
    expect(schema!.claims.find((claim) => claim.key === "nationalities")).toMatchObject({ array: true });

    expect(issuer.proofHeaders.at(-1)).toMatchObject({
      typ: "openid4vci-proof+jwt",
      alg: "ES256",
      jwk: { kty: "EC", crv: "P-256" },
    });
    expect(issuer.notifications.at(-1)).toMatchObject({ event: "credential_accepted" });

    // the held credential's detail through the API (reference §3.6), typed values from the derived schema
    const detail = await api("GET", `/api/credential/v1/${credentialId}`);
    expect(detail.status).toBe(200);
    expect(detail.json).toMatchObject({
      id: credentialId,
      role: "HOLDER",
      state: "ACCEPTED",
      schema: { schemaId: VCT },
    });
    expect(detail.json.claims).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: "given_name", value: "Erika" }),
        expect.objectContaining({ path: "age_in_years", value: 61 }),
        expect.objectContaining({ path: "age_over_18", value: true }),
      ]),
    );
  });

  it("obtains a credential from an offer by value with a tx_code; a wrong code is BR_0169 and changes nothing", async () => {
    const offer = await issuer.offer({ byValue: true, txCode: "493817" });
    expect(offer).toMatch(/credential_offer=/);
    const handled = await api("POST", "/api/interaction/v1/handle-invitation", { url: offer, organisationId: orgId });
    expect(handled.status).toBe(201);
    expect(handled.json.txCode).toEqual({ input_mode: "numeric", length: 6, description: "PIN from the letter" });
    const { interactionId } = handled.json;

    const before = await wallet.storage.credentials.count();
    expectError(
      await api("POST", "/api/interaction/v1/issuance-accept", { interactionId, keyId: es256KeyId, txCode: "000000" }),
      400,
      "BR_0169",
    );
    expect(await wallet.storage.credentials.count()).toBe(before);

    const accepted = await api("POST", "/api/interaction/v1/issuance-accept", {
      interactionId,
      keyId: es256KeyId,
      txCode: "493817",
    });
    expect(accepted.status).toBe(200);
    expect(await storedClaims(accepted.json.id)).toEqual(EXPECTED_CLAIMS);
  });

  it("binds to a did:key identifier (proof kid = DID URL) and reports the rejection with credential_deleted", async () => {
    const handled = await api("POST", "/api/interaction/v1/handle-invitation", {
      url: await issuer.offer(),
      organisationId: orgId,
    });
    const accepted = await api("POST", "/api/interaction/v1/issuance-accept", {
      interactionId: handled.json.interactionId,
      identifierId: didIdentifierId,
    });
    expect(accepted.status).toBe(200);
    expect(issuer.proofHeaders.at(-1)).toMatchObject({
      alg: "EdDSA",
      kid: expect.stringMatching(/^did:key:z6Mk.+#z6Mk/),
    });
    expect(await wallet.storage.credentials.get(accepted.json.id)).toMatchObject({
      holderIdentifierId: didIdentifierId,
    });

    const rejected = await api("POST", "/api/interaction/v1/issuance-reject", {
      interactionId: handled.json.interactionId,
    });
    expect(rejected.status).toBe(204);
    expect((await wallet.storage.credentials.get(accepted.json.id))!.state).toBe("REJECTED");
    const [acceptedEvent, deletedEvent] = issuer.notifications.slice(-2);
    expect(acceptedEvent).toMatchObject({ event: "credential_accepted" });
    expect(deletedEvent).toEqual({ notification_id: acceptedEvent!.notification_id, event: "credential_deleted" });
  });
});
