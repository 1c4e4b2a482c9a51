import { createHash, randomUUID } from "node:crypto";
import { SDJwtVcInstance } from "@sd-jwt/sd-jwt-vc";
import { exportJWK, generateKeyPair, importJWK, jwtVerify, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Credkit } from "../../src/credkit.js";
import { createTestKit } from "../../src/testing/create-test-kit.js";
import { createApiClient, HTTP_ADAPTERS, type MountedKit } from "../support/http-harness.js";

// A wallet written against the OpenID4VCI 1.0 wire format with jose (not credkit code), over real HTTP.
describe("OpenID4VCI 1.0 issuance over real HTTP (independent wallet steps)", () => {
  let kit: Credkit;
  let mounted: MountedKit;
  let api: ReturnType<typeof createApiClient>;
  let base: string;
  let orgId: string;
  let issuerId: string;
  let schemaId: string;
  let claimIds: Record<string, string>;

  beforeAll(async () => {
    // the issuer's base URL must be the URL wallets reach: mount first on a port, then configure it
    const probe = await createTestKit();
    const adapter = HTTP_ADAPTERS[0]!;
    const tmp = await adapter.mount(probe);
    base = tmp.baseUrl;
    await tmp.close();
    await probe.close();
    kit = await createTestKit({ config: { app: { coreBaseUrl: base } } });
    const port = Number(new URL(base).port);
    const { createServer } = await import("node:http");
    const { credkitNode } = await import("../../src/http/mount.js");
    const server = createServer(credkitNode(kit));
    await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", () => resolve()));
    mounted = {
      baseUrl: base,
      close: () =>
        new Promise((r) => {
          server.closeAllConnections();
          server.close(() => r());
        }),
    };
    api = createApiClient(base);

    orgId = (await api("POST", "/api/organisation/v1", { name: "Issuer org" })).json.id;
    const key = (
      await api("POST", "/api/key/v1", {
        organisationId: orgId,
        keyType: "EDDSA",
        keyParams: {},
        name: "issuer",
        storageType: "INTERNAL",
        storageParams: {},
      })
    ).json.id;
    issuerId = (
      await api("POST", "/api/identifier/v1", {
        organisationId: orgId,
        name: "issuer did",
        did: {
          method: "KEY",
          keys: {
            authentication: [key],
            assertionMethod: [key],
            keyAgreement: [],
            capabilityInvocation: [],
            capabilityDelegation: [],
          },
        },
      })
    ).json.id;
    const schema = await api("POST", "/api/credential-schema/v1", {
      organisationId: orgId,
      name: "Identity",
      format: "SD_JWT_VC",
      revocationMethod: "TOKENSTATUSLIST",
      allowSuspension: true,
      claims: [
        { key: "given_name", datatype: "STRING", required: true },
        { key: "age", datatype: "NUMBER", required: false },
        {
          key: "address",
          datatype: "OBJECT",
          required: false,
          claims: [
            { key: "street", datatype: "STRING", required: true },
            { key: "city", datatype: "STRING", required: false },
          ],
        },
        { key: "nationalities", datatype: "STRING", required: false, array: true },
      ],
    });
    expect(schema.status).toBe(201);
    schemaId = schema.json.id;
    const detail = (await api("GET", `/api/credential-schema/v1/${schemaId}`)).json;
    claimIds = {};
    const walk = (claims: { id: string; key: string; claims: unknown[] }[], prefix = "") => {
      for (const c of claims) {
        const path = prefix ? `${prefix}/${c.key}` : c.key;
        claimIds[path] = c.id;
        walk(c.claims as never, path);
      }
    };
    walk(detail.claims);
  });
  afterAll(async () => {
    await mounted?.close();
    await kit?.close();
  });

  async function createOffer() {
    const created = await api("POST", "/api/credential/v1", {
      credentialSchemaId: schemaId,
      issuer: issuerId,
      protocol: "OPENID4VCI_FINAL1",
      claimValues: [
        { claimId: claimIds.given_name, path: "given_name", value: "Erika" },
        { claimId: claimIds.age, path: "age", value: "42" },
        { claimId: claimIds["address/street"], path: "address/street", value: "Heidestraße 17" },
        { claimId: claimIds.nationalities, path: "nationalities/0", value: "DE" },
        { claimId: claimIds.nationalities, path: "nationalities/1", value: "FR" },
      ],
    });
    expect(created.status).toBe(201);
    const shared = await api("POST", `/api/credential/v1/${created.json.id}/share`);
    expect(shared.status).toBe(201);
    return { credentialId: created.json.id as string, url: shared.json.url as string };
  }

  async function runWallet(offerUrl: string) {
    const holder = await generateKeyPair("ES256", { extractable: true });
    const holderJwk = await exportJWK(holder.publicKey);
    const offerUri = new URL(offerUrl).searchParams.get("credential_offer_uri")!;
    const offer = await (await fetch(offerUri)).json();
    const issuerUrl = new URL(offer.credential_issuer);
    const metadata = await (
      await fetch(`${issuerUrl.origin}/.well-known/openid-credential-issuer${issuerUrl.pathname}`)
    ).json();
    const asMeta = await (
      await fetch(`${issuerUrl.origin}/.well-known/oauth-authorization-server${issuerUrl.pathname}`)
    ).json();
    const grant = offer.grants["urn:ietf:params:oauth:grant-type:pre-authorized_code"];
    const tokenResponse = await fetch(asMeta.token_endpoint, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "urn:ietf:params:oauth:grant-type:pre-authorized_code",
        "pre-authorized_code": grant["pre-authorized_code"],
      }),
    });
    const token = await tokenResponse.json();
    const { c_nonce } = await (await fetch(metadata.nonce_endpoint, { method: "POST" })).json();
    const proof = await new SignJWT({ nonce: c_nonce })
      .setProtectedHeader({ alg: "ES256", typ: "openid4vci-proof+jwt", jwk: holderJwk })
      .setAudience(offer.credential_issuer)
      .setIssuedAt()
      .sign(holder.privateKey);
    const credentialResponse = await fetch(metadata.credential_endpoint, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token.access_token}` },
      body: JSON.stringify({
        credential_configuration_id: offer.credential_configuration_ids[0],
        proofs: { jwt: [proof] },
      }),
    });
    return { offer, metadata, token, credentialResponse, body: await credentialResponse.json(), holder, holderJwk };
  }

  it("issues an SD-JWT VC that @sd-jwt/sd-jwt-vc verifies, with status list and holder binding", async () => {
    const { credentialId, url } = await createOffer();
    expect(url).toMatch(/^openid-credential-offer:\/\/\?credential_offer_uri=/);
    const run = await runWallet(url);
    expect(run.credentialResponse.status).toBe(200);
    expect(run.body.notification_id).toBeTypeOf("string");
    const sdJwt: string = run.body.credentials[0].credential;

    const issuerDid = (await api("GET", `/api/identifier/v1/${issuerId}`)).json.did.did as string;
    const document = (await api("GET", `/api/did-resolver/v1/${encodeURIComponent(issuerDid)}`)).json;
    const issuerKey = await importJWK(document.verificationMethod[0].publicKeyJwk, "EdDSA");
    const sdjwt = new SDJwtVcInstance({
      hasher: async (data: string | ArrayBuffer) =>
        new Uint8Array(
          createHash("sha256")
            .update(typeof data === "string" ? data : Buffer.from(data))
            .digest(),
        ),
      verifier: async (data: string, signature: string) => {
        const [h, p] = data.split(".");
        try {
          await jwtVerify(`${h}.${p}.${signature}`, issuerKey);
          return true;
        } catch {
          return false;
        }
      },
    });
    const verified = await sdjwt.verify(sdJwt);
    const payload = verified.payload as Record<string, unknown>;
    expect(payload).toMatchObject({
      iss: issuerDid,
      given_name: "Erika",
      age: 42,
      address: { street: "Heidestraße 17" },
      nationalities: ["DE", "FR"],
    });
    expect(payload.vct).toBe(run.offer.credential_configuration_ids[0]);
    expect((payload.cnf as { jwk: { x: string } }).jwk.x).toBe(run.holderJwk.x);
    const status = (payload.status as { status_list: { idx: number; uri: string } }).status_list;
    expect(status.uri).toMatch(new RegExp(`^${base}/ssi/revocation/v1/list/`));

    const detail = (await api("GET", `/api/credential/v1/${credentialId}`)).json;
    expect(detail.state).toBe("ACCEPTED");
    expect(detail.issuanceDate).toMatch(/Z$/);
    expect(detail.claims.find((c: { path: string }) => c.path === "age").value).toBe(42);

    // the status list token is signed by the issuer and shows revocation
    const listToken = async () =>
      jwtVerify(await (await fetch(status.uri)).text(), issuerKey, { typ: "statuslist+jwt" });
    expect((await listToken()).payload.sub).toBe(status.uri);
    expect((await api("POST", `/api/credential/v1/${credentialId}/suspend`, {})).status).toBe(204);
    expect((await api("GET", `/api/credential/v1/${credentialId}`)).json.state).toBe("SUSPENDED");
    expect((await api("POST", `/api/credential/v1/${credentialId}/reactivate`)).status).toBe(204);
    expect((await api("POST", `/api/credential/v1/${credentialId}/revoke`)).status).toBe(204);
    expect((await api("POST", `/api/credential/v1/${credentialId}/revoke`)).json.code).toBe("BR_0366");
    const { decodeStatusList, getStatus } = await import("../../src/providers/revocation/token-status-list/index.js");
    const list = decodeStatusList((await listToken()).payload.status_list);
    expect(getStatus(list, status.idx)).toBe(1);
  });

  it("refuses a replayed pre-authorized code and a second credential request", async () => {
    const { url } = await createOffer();
    const run = await runWallet(url);
    expect(run.credentialResponse.status).toBe(200);
    const grant = run.offer.grants["urn:ietf:params:oauth:grant-type:pre-authorized_code"];
    const replay = await fetch(`${base}/ssi/openid4vci/final-1.0/${schemaId}/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "urn:ietf:params:oauth:grant-type:pre-authorized_code",
        "pre-authorized_code": grant["pre-authorized_code"],
      }),
    });
    expect(replay.status).toBe(400);
    expect((await replay.json()).error).toBe("invalid_grant");
  });

  it("lists credentials with filters and search", async () => {
    const list = await api(
      "GET",
      `/api/credential/v1?page=0&pageSize=10&organisationId=${orgId}&searchText=Erik&searchType[]=CLAIM_VALUE&sort=schema.name`,
    );
    expect(list.status).toBe(200);
    expect(list.json.totalItems).toBeGreaterThan(0);
    expect(list.json.values[0].schema.name).toBe("Identity");
    const none = await api("GET", `/api/credential/v1?page=0&pageSize=10&organisationId=${orgId}&states[]=REJECTED`);
    expect(none.json.totalItems).toBe(0);
    void randomUUID;
  });
});
