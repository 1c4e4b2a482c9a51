/**
 * Wallet engine: invitations, accept (key and DID holders, tx codes), reject with the credential_deleted notification,
 * and revocation checks against token status lists. The issuer is a small in-process OpenID4VCI issuer reached
 * through linkKits (no sockets); status lists are served on a loopback port.
 */
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Hono } from "hono";
import { compactVerify, decodeProtectedHeader, importJWK, type JWK } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Credkit } from "../../src/credkit.js";
import type { KeyAlgorithmType } from "../../src/domain/enums.js";
import type { StatusListReference } from "../../src/ports/credential-formatter.js";
import type { PublicJwk } from "../../src/ports/key-algorithm.js";
import { createSdJwtVcFormatter } from "../../src/providers/format/sd-jwt-vc/index.js";
import {
  createStatusList,
  createStatusListToken,
  setStatus,
  TOKEN_STATUS,
} from "../../src/providers/revocation/token-status-list/index.js";
import { createTestKit } from "../../src/testing/create-test-kit.js";
import { linkKits } from "../../src/testing/link-kits.js";
import { algorithms, createTestKey, expectCredkitError, type TestKey } from "../providers/jose/test-keys.js";

const ORIGIN = "https://issuer.example";
const ISSUER = `${ORIGIN}/oid4vci`;
const VCT = "https://issuer.example/vct/test-id";
const PRE_AUTH = "urn:ietf:params:oauth:grant-type:pre-authorized_code";

const CLAIMS = {
  given_name: "Erika",
  family_name: "Mustermann",
  age: 42,
  adult: true,
  address: { street_address: "Heidestraße 17", locality: "Köln" },
  nationalities: ["DE", "AT"],
};

interface Session {
  code: string;
  txCode?: string;
  accessToken?: string;
  nonce?: string;
  claims: Record<string, unknown>;
  status?: StatusListReference;
}

interface Notification {
  body: Record<string, unknown>;
  authorization: string | null;
}

/** A minimal OpenID4VCI 1.0 issuer (pre-authorized code, nonce, jwt proofs, notifications) over credkit's formatter. */
function createFakeIssuer(
  resolveDid: (did: string) => Promise<{ verificationMethod: { id: string; publicKeyJwk?: unknown }[] }>,
) {
  const key: TestKey = createTestKey("ECDSA", "issuer-key-1");
  const formatter = createSdJwtVcFormatter({ algorithms });
  const sessions = new Map<string, Session>();
  const offers = new Map<string, unknown>();
  const notifications: Notification[] = [];
  const proofHeaders: Record<string, unknown>[] = [];
  const app = new Hono();

  const configuration = {
    format: "dc+sd-jwt",
    vct: VCT,
    cryptographic_binding_methods_supported: ["jwk", "did:key"],
    credential_signing_alg_values_supported: ["ES256"],
    proof_types_supported: { jwt: { proof_signing_alg_values_supported: ["EdDSA", "ES256"] } },
    credential_metadata: {
      display: [
        { name: "Testausweis", locale: "de" },
        { name: "Test ID", locale: "en" },
      ],
      claims: [
        { path: ["given_name"], mandatory: true },
        { path: ["family_name"], mandatory: true },
        { path: ["address", "street_address"] },
        { path: ["nationalities", null] },
        { path: ["birthdate"] },
      ],
    },
  };

  app.get("/.well-known/openid-credential-issuer/oid4vci", (c) =>
    c.json({
      credential_issuer: ISSUER,
      credential_endpoint: `${ISSUER}/credential`,
      nonce_endpoint: `${ISSUER}/nonce`,
      notification_endpoint: `${ISSUER}/notification`,
      credential_configurations_supported: { test_id: configuration },
    }),
  );
  app.get("/.well-known/oauth-authorization-server/oid4vci", (c) =>
    c.json({ issuer: ISSUER, token_endpoint: `${ISSUER}/token`, grant_types_supported: [PRE_AUTH] }),
  );
  app.get("/.well-known/jwt-vc-issuer/oid4vci", (c) =>
    c.json({ issuer: ISSUER, jwks: { keys: [{ ...key.publicJwk, kid: "issuer-key-1" }] } }),
  );
  app.get("/offers/:id", (c) => {
    const offer = offers.get(c.req.param("id"));
    return offer ? c.json(offer) : c.body(null, 404);
  });
  app.post("/oid4vci/token", async (c) => {
    const form = new URLSearchParams(await c.req.text());
    const session = [...sessions.values()].find((s) => s.code === form.get("pre-authorized_code"));
    if (form.get("grant_type") !== PRE_AUTH || !session || session.accessToken)
      return c.json({ error: "invalid_grant" }, 400);
    if (session.txCode !== undefined && form.get("tx_code") !== session.txCode)
      return c.json({ error: "invalid_grant" }, 400);
    session.accessToken = randomUUID();
    return c.json({ access_token: session.accessToken, token_type: "Bearer", expires_in: 300 });
  });
  app.post("/oid4vci/nonce", (c) => {
    const nonce = randomUUID();
    for (const session of sessions.values()) session.nonce = nonce;
    return c.json({ c_nonce: nonce });
  });
  app.post("/oid4vci/credential", async (c) => {
    const token = c.req.header("authorization")?.replace(/^Bearer /, "");
    const session = [...sessions.values()].find((s) => s.accessToken !== undefined && s.accessToken === token);
    if (!session) return c.json({ error: "invalid_token" }, 401);
    const body = (await c.req.json()) as { credential_configuration_id?: string; proofs?: { jwt?: string[] } };
    if (body.credential_configuration_id !== "test_id")
      return c.json({ error: "unknown_credential_configuration" }, 400);
    const proof = body.proofs?.jwt?.[0];
    if (!proof) return c.json({ error: "invalid_proof" }, 400);
    const header = decodeProtectedHeader(proof) as Record<string, unknown>;
    proofHeaders.push(header);
    if (header.typ !== "openid4vci-proof+jwt") return c.json({ error: "invalid_proof", error_description: "typ" }, 400);
    let holderJwk: JWK;
    if (header.jwk) holderJwk = header.jwk as JWK;
    else {
      const kid = String(header.kid);
      const document = await resolveDid(kid.split("#")[0]!);
      holderJwk = document.verificationMethod.find((m) => m.id === kid)?.publicKeyJwk as JWK;
    }
    const { payload } = await compactVerify(proof, await importJWK(holderJwk, String(header.alg)));
    const claims = JSON.parse(new TextDecoder().decode(payload)) as Record<string, unknown>;
    if (claims.aud !== ISSUER) return c.json({ error: "invalid_proof", error_description: "aud" }, 400);
    if (claims.nonce !== session.nonce) return c.json({ error: "invalid_nonce" }, 400);
    const credential = await formatter.formatCredential({
      issuer: ISSUER,
      type: VCT,
      claims: session.claims,
      holderJwk: holderJwk as PublicJwk,
      issuedAt: new Date(),
      ...(session.status !== undefined && { status: session.status }),
      signer: key.signer,
    });
    return c.json({ credentials: [{ credential }], notification_id: `n-${session.code}` });
  });
  app.post("/oid4vci/notification", async (c) => {
    notifications.push({ body: await c.req.json(), authorization: c.req.header("authorization") ?? null });
    return c.body(null, 204);
  });

  return {
    key,
    notifications,
    proofHeaders,
    fetch: (request: Request) => app.fetch(request) as Promise<Response>,
    /** an invitation URL; by reference unless `byValue` */
    offer(
      options: {
        txCode?: string;
        byValue?: boolean;
        claims?: Record<string, unknown>;
        status?: StatusListReference;
      } = {},
    ) {
      const code = randomUUID();
      sessions.set(code, {
        code,
        claims: options.claims ?? CLAIMS,
        ...(options.txCode !== undefined && { txCode: options.txCode }),
        ...(options.status !== undefined && { status: options.status }),
      });
      const offer = {
        credential_issuer: ISSUER,
        credential_configuration_ids: ["test_id"],
        grants: {
          [PRE_AUTH]: {
            "pre-authorized_code": code,
            ...(options.txCode !== undefined && {
              tx_code: { input_mode: "numeric", length: options.txCode.length, description: "sent by mail" },
            }),
          },
        },
      };
      if (options.byValue)
        return `openid-credential-offer://?credential_offer=${encodeURIComponent(JSON.stringify(offer))}`;
      offers.set(code, offer);
      return `openid-credential-offer://?credential_offer_uri=${encodeURIComponent(`${ORIGIN}/offers/${code}`)}`;
    },
  };
}

/** Serves one status list token on loopback; `publish` replaces it. */
async function startStatusListServer() {
  let token = "";
  const server: Server = createServer((req, res) => {
    if (req.url !== "/status/1") {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-type": "application/statuslist+jwt" }).end(token);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const uri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/status/1`;
  return {
    uri,
    publish: (value: string) => {
      token = value;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("holder engine (wallet)", () => {
  let wallet: Credkit;
  let issuer: ReturnType<typeof createFakeIssuer>;
  let statusServer: Awaited<ReturnType<typeof startStatusListServer>>;
  let orgId: string;
  let keyId: string;
  let didIdentifierId: string;

  async function createKey(name: string, keyType: KeyAlgorithmType = "EDDSA"): Promise<string> {
    return (
      await wallet.keys.create({
        organisationId: orgId,
        keyType,
        keyParams: {},
        name,
        storageType: "INTERNAL",
        storageParams: {},
      })
    ).id;
  }

  beforeAll(async () => {
    statusServer = await startStatusListServer();
    let walletRef: Credkit | undefined;
    issuer = createFakeIssuer(async (did) => walletRef!.dids.resolve(did));
    wallet = await createTestKit({
      fetch: linkKits({ [ORIGIN]: issuer.fetch }),
      config: { app: { http: { allowInsecureHttpTransport: true } } },
    });
    walletRef = wallet;
    orgId = (await wallet.organisations.create({ name: `wallet ${randomUUID()}` })).id;
    keyId = await createKey("holder key");
    const didKey = await createKey("holder DID key");
    didIdentifierId = (
      await wallet.identifiers.create({
        name: "holder DID",
        organisationId: orgId,
        did: {
          method: "KEY",
          keys: {
            authentication: [didKey],
            assertionMethod: [didKey],
            keyAgreement: [],
            capabilityInvocation: [],
            capabilityDelegation: [],
          },
        },
      })
    ).id;
  });
  afterAll(async () => {
    await statusServer?.close();
    await wallet?.close();
  });

  describe("handle-invitation", () => {
    it("opens an ISSUANCE interaction for an offer by reference", async () => {
      const result = await wallet.holder.handleInvitation({ url: issuer.offer(), organisationId: orgId });
      expect(result).toEqual({
        interactionId: expect.any(String),
        interactionType: "ISSUANCE",
        keyAlgorithms: ["EDDSA", "ECDSA"],
        protocol: "OPENID4VCI_FINAL1",
      });
      const interaction = await wallet.storage.interactions.get(result.interactionId);
      expect(interaction).toMatchObject({
        organisationId: orgId,
        interactionType: "ISSUANCE",
        protocol: "OPENID4VCI_FINAL1",
      });
      expect(interaction!.expiresAt!.getTime()).toBeGreaterThan(Date.now() + 14 * 60 * 1000);
      expect(interaction!.data).toMatchObject({
        role: "HOLDER",
        credentialConfigurationId: "test_id",
        tokenEndpoint: `${ISSUER}/token`,
        offer: { credential_issuer: ISSUER },
        issuerMetadata: { credential_issuer: ISSUER },
        asMetadata: { token_endpoint: `${ISSUER}/token` },
      });
    });

    it("returns the tx_code description for an offer by value", async () => {
      const result = await wallet.holder.handleInvitation({
        url: issuer.offer({ byValue: true, txCode: "1234" }),
        organisationId: orgId,
      });
      expect(result.txCode).toEqual({ input_mode: "numeric", length: 4, description: "sent by mail" });
    });

    it("refuses malformed invitations with BR_0085 and a readable reason", async () => {
      const handle = (url: string) => wallet.holder.handleInvitation({ url, organisationId: orgId });
      await expectCredkitError(() => handle("not a url"), "BR_0085", "not a URL");
      await expectCredkitError(
        () => handle("openid-credential-offer://?credential_offer=%7Bgarbage"),
        "BR_0085",
        "not valid JSON",
      );
      await expectCredkitError(
        () =>
          handle(
            `openid-credential-offer://?credential_offer=${encodeURIComponent(JSON.stringify({ credential_issuer: 5 }))}`,
          ),
        "BR_0085",
        "credential_issuer",
      );
      await expectCredkitError(() => handle("openid-credential-offer://?foo=bar"), "BR_0085", "unsupported invitation");
      await expectCredkitError(
        () => handle("openid4vp://?client_id=x&request_uri=https%3A%2F%2Fverifier.example%2Fr"),
        "BR_0085",
        "OpenID4VP",
      );
      const authorizationCodeOnly = {
        credential_issuer: ISSUER,
        credential_configuration_ids: ["test_id"],
        grants: { authorization_code: { issuer_state: "x" } },
      };
      await expectCredkitError(
        () => handle(`haip-vci://?credential_offer=${encodeURIComponent(JSON.stringify(authorizationCodeOnly))}`),
        "BR_0085",
        "authorization code flow not supported",
      );
      const unknownConfiguration = {
        ...authorizationCodeOnly,
        credential_configuration_ids: ["nope"],
        grants: { [PRE_AUTH]: { "pre-authorized_code": "c" } },
      };
      await expectCredkitError(
        () => handle(`swiyu://?credential_offer=${encodeURIComponent(JSON.stringify(unknownConfiguration))}`),
        "BR_0085",
        '"nope" is not in the issuer metadata',
      );
      await expectCredkitError(
        () => wallet.holder.handleInvitation({ url: issuer.offer(), organisationId: orgId, extra: 1 } as never),
        "BR_0084",
      );
    });

    it("answers 400 codes, never 500, when the offer cannot be fetched", async () => {
      const unreachable = await expectCredkitError(
        () =>
          wallet.holder.handleInvitation({
            url: `openid-credential-offer://?credential_offer_uri=${encodeURIComponent("http://127.0.0.1:1/offer")}`,
            organisationId: orgId,
          }),
        "BR_0347",
        "credential offer: GET http://127.0.0.1:1/offer failed",
      );
      expect(unreachable.status).toBe(400);
      const missing = await expectCredkitError(
        () =>
          wallet.holder.handleInvitation({
            url: `openid-credential-offer://?credential_offer_uri=${encodeURIComponent(`${ORIGIN}/offers/unknown`)}`,
            organisationId: orgId,
          }),
        "BR_0395",
        "answered HTTP 404",
      );
      expect(missing.status).toBe(400);
    });

    it("refuses plain http issuers unless app.http.allowInsecureHttpTransport is set", async () => {
      const strict = await createTestKit({ fetch: linkKits({ [ORIGIN]: issuer.fetch }) });
      try {
        const org = (await strict.organisations.create({ name: "strict" })).id;
        await expectCredkitError(
          () =>
            strict.holder.handleInvitation({
              url: `openid-credential-offer://?credential_offer_uri=${encodeURIComponent("http://127.0.0.1:9/offer")}`,
              organisationId: org,
            }),
          "BR_0085",
          "plain http",
        );
      } finally {
        await strict.close();
      }
    });

    it("is served at POST /api/interaction/v1/handle-invitation (201) with BR_ error bodies", async () => {
      const post = (body: unknown) =>
        wallet.http.fetch(
          new Request("http://wallet.local/api/interaction/v1/handle-invitation", {
            method: "POST",
            headers: { "content-type": "application/json", accept: "application/json" },
            body: JSON.stringify(body),
          }),
        );
      const created = await post({ url: issuer.offer(), organisationId: orgId });
      expect(created.status).toBe(201);
      expect(await created.json()).toMatchObject({ interactionType: "ISSUANCE", protocol: "OPENID4VCI_FINAL1" });
      const refused = await post({ url: "openid-credential-offer://?credential_offer=oops", organisationId: orgId });
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({
        code: "BR_0085",
        cause: { message: expect.stringContaining("JSON") },
      });
    });
  });

  describe("issuance-accept", () => {
    it("obtains, verifies and stores the credential bound to a key (jwk proof)", async () => {
      const { interactionId } = await wallet.holder.handleInvitation({ url: issuer.offer(), organisationId: orgId });
      const { id } = await wallet.holder.acceptIssuance({ interactionId, keyId });
      const credential = await wallet.storage.credentials.get(id);
      expect(credential).toMatchObject({
        organisationId: orgId,
        role: "HOLDER",
        state: "ACCEPTED",
        protocol: "OPENID4VCI_FINAL1",
        holderKeyId: keyId,
        interactionId,
      });
      expect(credential!.credentialBlob).toMatch(/^ey[^~]+~/);
      expect(credential!.issuerIdentifierId).toBeUndefined();
      const byPath = Object.fromEntries(credential!.claims.map((claim) => [claim.path, claim.value]));
      expect(byPath).toEqual({
        given_name: "Erika",
        family_name: "Mustermann",
        age: "42",
        adult: "true",
        "address/street_address": "Heidestraße 17",
        "address/locality": "Köln",
        "nationalities/0": "DE",
        "nationalities/1": "AT",
      });

      const schema = await wallet.storage.credentialSchemas.get(credential!.credentialSchemaId);
      expect(schema).toMatchObject({
        organisationId: orgId,
        name: "Test ID",
        format: "SD_JWT_VC",
        schemaId: VCT,
        importedSourceUrl: ISSUER,
      });
      const node = (key: string) => schema!.claims.find((claim) => claim.key === key);
      expect(node("given_name")).toMatchObject({ datatype: "STRING", required: true, array: false });
      expect(node("age")).toMatchObject({ datatype: "NUMBER", array: false });
      expect(node("adult")).toMatchObject({ datatype: "BOOLEAN" });
      expect(node("nationalities")).toMatchObject({ datatype: "STRING", array: true });
      expect(node("birthdate")).toMatchObject({ datatype: "STRING", required: false });
      expect(node("address")).toMatchObject({ datatype: "OBJECT" });
      expect(node("address")!.claims.map((claim) => claim.key)).toEqual(["street_address", "locality"]);
      for (const claim of credential!.claims) {
        const [root, child] = claim.path.split("/");
        const expected =
          root === "address" ? node("address")!.claims.find((c) => c.key === child)!.id : node(root!)!.id;
        expect(claim.claimSchemaId).toBe(expected);
      }

      const history = await wallet.storage.history.findMany({ op: "eq", column: "entityId", value: id });
      expect(history.map((event) => event.action)).toEqual(["ACCEPTED"]);
      expect(issuer.proofHeaders.at(-1)).toMatchObject({
        typ: "openid4vci-proof+jwt",
        alg: "EdDSA",
        jwk: { kty: "OKP" },
      });
      expect(issuer.proofHeaders.at(-1)).not.toHaveProperty("kid");
      const accepted = issuer.notifications.at(-1)!;
      expect(accepted.body).toEqual({ notification_id: expect.stringMatching(/^n-/), event: "credential_accepted" });
      expect(accepted.authorization).toMatch(/^Bearer /);

      // a second credential of the same type reuses the schema
      const again = await wallet.holder.handleInvitation({ url: issuer.offer(), organisationId: orgId });
      const second = await wallet.holder.acceptIssuance({ interactionId: again.interactionId, keyId });
      expect((await wallet.storage.credentials.get(second.id))!.credentialSchemaId).toBe(schema!.id);
      await expectCredkitError(
        () => wallet.holder.acceptIssuance({ interactionId: again.interactionId, keyId }),
        "BR_0002",
        "already accepted",
      );
    });

    it("binds to a DID identifier: the proof names the key by DID URL", async () => {
      const { interactionId } = await wallet.holder.handleInvitation({ url: issuer.offer(), organisationId: orgId });
      const { id } = await wallet.holder.acceptIssuance({ interactionId, identifierId: didIdentifierId });
      expect(issuer.proofHeaders.at(-1)).toMatchObject({ kid: expect.stringMatching(/^did:key:z[^#]+#z/) });
      expect(issuer.proofHeaders.at(-1)).not.toHaveProperty("jwk");
      expect(await wallet.storage.credentials.get(id)).toMatchObject({
        holderIdentifierId: didIdentifierId,
        state: "ACCEPTED",
      });
    });

    it("maps a wrong transaction code to BR_0169 and stores nothing; the right one then succeeds", async () => {
      const { interactionId, txCode } = await wallet.holder.handleInvitation({
        url: issuer.offer({ txCode: "4711" }),
        organisationId: orgId,
      });
      expect(txCode).toMatchObject({ input_mode: "numeric", length: 4 });
      const before = await wallet.storage.credentials.count();
      await expectCredkitError(
        () => wallet.holder.acceptIssuance({ interactionId, keyId }),
        "BR_0170",
        "requires a transaction code",
      );
      await expectCredkitError(
        () => wallet.holder.acceptIssuance({ interactionId, keyId, txCode: "0000" }),
        "BR_0169",
        "invalid_grant",
      );
      expect(await wallet.storage.credentials.count()).toBe(before);
      const { id } = await wallet.holder.acceptIssuance({ interactionId, keyId, txCode: "4711" });
      expect((await wallet.storage.credentials.get(id))!.state).toBe("ACCEPTED");
    });

    it("refuses unknown interactions, missing holder keys and strangers' input", async () => {
      await expectCredkitError(() => wallet.holder.acceptIssuance({ interactionId: randomUUID(), keyId }), "BR_0257");
      const { interactionId } = await wallet.holder.handleInvitation({ url: issuer.offer(), organisationId: orgId });
      await expectCredkitError(
        () => wallet.holder.acceptIssuance({ interactionId }),
        "BR_0217",
        "identifierId, didId or keyId",
      );
      await expectCredkitError(
        () => wallet.holder.acceptIssuance({ interactionId, keyId, foo: 1 } as never),
        "BR_0084",
      );
      await expectCredkitError(
        () => wallet.holder.acceptIssuance({ interactionId, keyId }, { organisationId: randomUUID() }),
        "BR_0257",
      );
      const mlDsa = await createKey("ml-dsa key", "ML_DSA");
      await expectCredkitError(
        () => wallet.holder.acceptIssuance({ interactionId, keyId: mlDsa }),
        "BR_0043",
        "ML_DSA",
      );
    });
  });

  describe("issuance-reject", () => {
    it("before accept: forgets the offer", async () => {
      const { interactionId } = await wallet.holder.handleInvitation({ url: issuer.offer(), organisationId: orgId });
      await wallet.holder.rejectIssuance({ interactionId });
      expect(await wallet.storage.interactions.get(interactionId)).toBeUndefined();
      await expectCredkitError(() => wallet.holder.rejectIssuance({ interactionId }), "BR_0257");
    });

    it("after accept: REJECTED locally and credential_deleted sent to the issuer with the access token", async () => {
      const { interactionId } = await wallet.holder.handleInvitation({ url: issuer.offer(), organisationId: orgId });
      const { id } = await wallet.holder.acceptIssuance({ interactionId, keyId });
      const accepted = issuer.notifications.at(-1)!;
      // the access token kept for credential_deleted is sealed at rest
      const stored = JSON.stringify((await wallet.storage.interactions.get(interactionId))!.data);
      expect(stored).not.toContain(accepted.authorization!.replace(/^Bearer /, ""));
      await wallet.holder.rejectIssuance({ interactionId });
      expect((await wallet.storage.credentials.get(id))!.state).toBe("REJECTED");
      const history = await wallet.storage.history.findMany({ op: "eq", column: "entityId", value: id });
      expect(history.map((event) => event.action).sort()).toEqual(["ACCEPTED", "REJECTED"]);
      const deleted = issuer.notifications.at(-1)!;
      expect(deleted.body).toEqual({ notification_id: accepted.body.notification_id, event: "credential_deleted" });
      expect(deleted.authorization).toBe(accepted.authorization);
      await expectCredkitError(() => wallet.holder.rejectIssuance({ interactionId }), "BR_0366");
    });
  });

  describe("revocation-check", () => {
    const list = createStatusList(16, 2);
    const publish = async (signer = issuer.key.signer) =>
      statusServer.publish(
        await createStatusListToken({
          subject: statusServer.uri,
          issuer: ISSUER,
          list,
          issuedAt: new Date(),
          ttl: 60,
          signer,
        }),
      );
    let credentialId: string;
    let plainId: string;

    beforeAll(async () => {
      const withStatus = await wallet.holder.handleInvitation({
        url: issuer.offer({ status: { idx: 5, uri: statusServer.uri } }),
        organisationId: orgId,
      });
      credentialId = (await wallet.holder.acceptIssuance({ interactionId: withStatus.interactionId, keyId })).id;
      const without = await wallet.holder.handleInvitation({ url: issuer.offer(), organisationId: orgId });
      plainId = (await wallet.holder.acceptIssuance({ interactionId: without.interactionId, keyId })).id;
    });

    const check = async () => (await wallet.holder.checkRevocation({ credentialIds: [credentialId] }))[0];
    const actions = async () =>
      (await wallet.storage.history.findMany({ op: "eq", column: "entityId", value: credentialId }))
        .sort((a, b) => a.createdDate.getTime() - b.createdDate.getTime())
        .map((event) => event.action);

    it("follows the status list: valid, suspended, valid again, revoked", async () => {
      await publish();
      expect(await check()).toEqual({ credentialId, status: "ACCEPTED", success: true });

      setStatus(list, 5, TOKEN_STATUS.SUSPENDED);
      await publish();
      expect(await check()).toEqual({ credentialId, status: "SUSPENDED", success: true });
      expect((await wallet.storage.credentials.get(credentialId))!.state).toBe("SUSPENDED");

      setStatus(list, 5, TOKEN_STATUS.VALID);
      await publish();
      expect(await check()).toEqual({ credentialId, status: "ACCEPTED", success: true });

      // a list signed by another key under the issuer's kid: reported, state untouched
      await publish(createTestKey("ECDSA", "issuer-key-1").signer);
      const forged = await check();
      expect(forged).toMatchObject({ credentialId, status: "ACCEPTED", success: false });
      expect(forged!.reason).toMatch(/invalid signature/);

      setStatus(list, 5, TOKEN_STATUS.INVALID);
      await publish();
      const [revoked, plain] = await wallet.holder.checkRevocation({
        credentialIds: [credentialId, plainId],
        forceRefresh: true,
      });
      expect(revoked).toEqual({ credentialId, status: "REVOKED", success: true });
      expect(plain).toEqual({ credentialId: plainId, status: "ACCEPTED", success: true });
      const stored = await wallet.storage.credentials.get(credentialId);
      expect(stored!.state).toBe("REVOKED");
      expect(stored!.revocationDate).toBeInstanceOf(Date);
      expect(await actions()).toEqual(["ACCEPTED", "SUSPENDED", "REACTIVATED", "REVOKED"]);

      // REVOKED is terminal: not fetched again
      statusServer.publish("garbage");
      expect(await check()).toEqual({ credentialId, status: "REVOKED", success: true });
    });

    it("reports an unreachable list without failing the call, and refuses foreign ids", async () => {
      const { interactionId } = await wallet.holder.handleInvitation({
        url: issuer.offer({ status: { idx: 1, uri: "http://127.0.0.1:1/status/9" } }),
        organisationId: orgId,
      });
      const { id } = await wallet.holder.acceptIssuance({ interactionId, keyId });
      const [result] = await wallet.holder.checkRevocation({ credentialIds: [id] });
      expect(result).toMatchObject({
        credentialId: id,
        status: "ACCEPTED",
        success: false,
        reason: expect.stringContaining("status list"),
      });
      await expectCredkitError(() => wallet.holder.checkRevocation({ credentialIds: [randomUUID()] }), "BR_0001");
      await expectCredkitError(() => wallet.holder.checkRevocation({ credentialIds: [] }), "BR_0084");
    });
  });

  describe("against a credkit issuer kit linked in-process", () => {
    let issuerKit: Credkit;
    let linkedWallet: Credkit;
    let issuerOrg: string;
    let issuerIdentifierId: string;
    let walletOrg: string;
    let walletKeyId: string;

    beforeAll(async () => {
      issuerKit = await createTestKit({ config: { app: { coreBaseUrl: "https://credkit-issuer.example" } } });
      linkedWallet = await createTestKit({
        fetch: linkKits({ "https://credkit-issuer.example": issuerKit.http.fetch }),
      });
      issuerOrg = (await issuerKit.organisations.create({ name: "issuer org" })).id;
      const issuerKey = (
        await issuerKit.keys.create({
          organisationId: issuerOrg,
          keyType: "ECDSA",
          keyParams: {},
          name: "issuer",
          storageType: "INTERNAL",
          storageParams: {},
        })
      ).id;
      issuerIdentifierId = (
        await issuerKit.identifiers.create({
          name: "issuer DID",
          organisationId: issuerOrg,
          did: {
            method: "KEY",
            keys: {
              authentication: [issuerKey],
              assertionMethod: [issuerKey],
              keyAgreement: [],
              capabilityInvocation: [],
              capabilityDelegation: [],
            },
          },
        })
      ).id;
      walletOrg = (await linkedWallet.organisations.create({ name: "wallet org" })).id;
      walletKeyId = (
        await linkedWallet.keys.create({
          organisationId: walletOrg,
          keyType: "EDDSA",
          keyParams: {},
          name: "holder",
          storageType: "INTERNAL",
          storageParams: {},
        })
      ).id;
    });
    afterAll(async () => {
      await linkedWallet?.close();
      await issuerKit?.close();
    });

    async function offerCredential(options: { txCode?: boolean } = {}) {
      const schema = await issuerKit.credentialSchemas.create({
        name: `linked ${randomUUID()}`,
        format: "SD_JWT_VC",
        revocationMethod: "TOKENSTATUSLIST",
        organisationId: issuerOrg,
        claims: [
          { key: "given_name", datatype: "STRING", required: true },
          { key: "age", datatype: "NUMBER", required: false },
          {
            key: "address",
            datatype: "OBJECT",
            required: false,
            claims: [{ key: "street", datatype: "STRING", required: true }],
          },
        ],
        ...(options.txCode && { transactionCode: { type: "NUMERIC" as const, length: 6 } }),
      });
      const detail = await issuerKit.credentialSchemas.get(schema.id);
      const claimId = (key: string, parent?: string) => {
        const root = detail.claims.find((claim: { key: string }) => claim.key === (parent ?? key))!;
        return parent ? root.claims.find((claim: { key: string }) => claim.key === key)!.id : root.id;
      };
      const credential = await issuerKit.credentials.create({
        credentialSchemaId: schema.id,
        issuer: issuerIdentifierId,
        protocol: "OPENID4VCI_FINAL1",
        claimValues: [
          { claimId: claimId("given_name"), path: "given_name", value: "Ada" },
          { claimId: claimId("age"), path: "age", value: "36" },
          { claimId: claimId("street", "address"), path: "address/street", value: "Main St 1" },
        ],
      });
      return { credentialId: credential.id, ...(await issuerKit.credentials.share(credential.id)) };
    }

    it("obtains, rejects and checks the status of credkit-issued credentials", async () => {
      const offered = await offerCredential({ txCode: true });
      const handled = await linkedWallet.holder.handleInvitation({ url: offered.url, organisationId: walletOrg });
      expect(handled).toMatchObject({ interactionType: "ISSUANCE", txCode: { input_mode: "numeric", length: 6 } });
      const wrongCode = offered.transactionCode === "000000" ? "111111" : "000000";
      await expectCredkitError(
        () =>
          linkedWallet.holder.acceptIssuance({
            interactionId: handled.interactionId,
            keyId: walletKeyId,
            txCode: wrongCode,
          }),
        "BR_0169",
      );
      const { id } = await linkedWallet.holder.acceptIssuance({
        interactionId: handled.interactionId,
        keyId: walletKeyId,
        ...(offered.transactionCode !== undefined && { txCode: offered.transactionCode }),
      });
      const held = await linkedWallet.storage.credentials.get(id);
      expect(Object.fromEntries(held!.claims.map((claim) => [claim.path, claim.value]))).toEqual({
        given_name: "Ada",
        age: "36",
        "address/street": "Main St 1",
      });
      expect((await issuerKit.storage.credentials.get(offered.credentialId))!.state).toBe("ACCEPTED");

      expect(await linkedWallet.holder.checkRevocation({ credentialIds: [id] })).toEqual([
        { credentialId: id, status: "ACCEPTED", success: true },
      ]);
      await issuerKit.credentials.revoke(offered.credentialId);
      expect(await linkedWallet.holder.checkRevocation({ credentialIds: [id] })).toEqual([
        { credentialId: id, status: "REVOKED", success: true },
      ]);

      const second = await offerCredential();
      const handledSecond = await linkedWallet.holder.handleInvitation({ url: second.url, organisationId: walletOrg });
      const accepted = await linkedWallet.holder.acceptIssuance({
        interactionId: handledSecond.interactionId,
        keyId: walletKeyId,
      });
      await linkedWallet.holder.rejectIssuance({ interactionId: handledSecond.interactionId });
      expect((await linkedWallet.storage.credentials.get(accepted.id))!.state).toBe("REJECTED");
      expect((await issuerKit.storage.credentials.get(second.credentialId))!.state).toBe("REJECTED");
    });
  });

  describe("linkKits", () => {
    it("routes by origin to in-process handlers and falls back to the given fetch", async () => {
      const seen: string[] = [];
      const linked = linkKits(
        {
          "https://A.example:443": async (request) =>
            new Response(`a ${request.method} ${new URL(request.url).pathname}`),
        },
        async (input) => {
          seen.push(String(input));
          return new Response("fallback");
        },
      );
      expect(await (await linked("https://a.example/x", { method: "POST", body: "1" })).text()).toBe("a POST /x");
      expect(await (await linked(new Request("https://a.example/y"))).text()).toBe("a GET /y");
      expect(await (await linked("https://b.example/z")).text()).toBe("fallback");
      expect(seen).toEqual(["https://b.example/z"]);
    });
  });
});
