import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSdJwtVcFormatter } from "../../src/providers/format/sd-jwt-vc/sd-jwt-vc-formatter.js";
import { createKeyAlgorithms } from "../../src/providers/key-algorithm/index.js";
import { type IssuerFixture, startIssuerFixture } from "../support/issuer-fixture.js";

describe("credential schemas, credentials and issuer metadata over HTTP", () => {
  let fx: IssuerFixture;
  beforeAll(async () => {
    // the same kit also acts as wallet, talking to its own issuer over plain http on loopback
    fx = await startIssuerFixture({ config: { app: { http: { allowInsecureHttpTransport: true } } } });
  });
  afterAll(async () => {
    await fx?.close();
  });

  const schemaBody = (name: string, extra: object = {}) => ({
    organisationId: fx.organisationId,
    name,
    format: "SD_JWT_VC",
    claims: [
      { key: "name", datatype: "STRING", required: true },
      {
        key: "address",
        datatype: "OBJECT",
        required: false,
        claims: [{ key: "city", datatype: "STRING", required: true }],
      },
    ],
    ...extra,
  });

  it("creates, lists, shares, imports and deletes credential schemas", async () => {
    const { api } = fx;
    const created = await api(
      "POST",
      "/api/credential-schema/v1",
      schemaBody("Library card", { layoutProperties: { background: { color: "#123456" } } }),
    );
    expect(created.status).toBe(201);
    const detail = (await api("GET", `/api/credential-schema/v1/${created.json.id}`)).json;
    expect(detail).toMatchObject({
      name: "Library card",
      format: "SD_JWT_VC",
      allowSuspension: false,
      requiresWalletInstanceAttestation: false,
      layoutType: "CARD",
    });
    expect(detail.schemaId).toBe(`${fx.baseUrl}/ssi/vct/v1/${fx.organisationId}/${created.json.id}`);
    expect(detail.claims[1].claims[0]).toMatchObject({ key: "city", datatype: "STRING", required: true, array: false });

    const list = await api(
      "GET",
      `/api/credential-schema/v1?page=0&pageSize=50&organisationId=${fx.organisationId}&name=library&include[]=layoutProperties`,
    );
    expect(list.json.totalItems).toBe(1);
    expect(list.json.values[0].layoutProperties.background.color).toBe("#123456");
    expect(list.json.values[0]).not.toHaveProperty("claims");
    const withoutLayout = await api(
      "GET",
      `/api/credential-schema/v1?page=0&pageSize=50&organisationId=${fx.organisationId}&name=library`,
    );
    expect(withoutLayout.json.values[0]).not.toHaveProperty("layoutProperties");

    // SD-JWT VC type metadata at the vct URL
    const vct = await fetch(detail.schemaId);
    expect(vct.status).toBe(200);
    expect(await vct.json()).toMatchObject({ vct: detail.schemaId, name: "Library card" });

    const shared = await api("POST", `/api/credential-schema/v1/${created.json.id}/share`);
    expect(shared.status).toBe(201);
    const document = await (await fetch(shared.json.url)).json();
    const otherOrg = (await api("POST", "/api/organisation/v1", { name: `importer ${randomUUID()}` })).json.id;
    const imported = await api("POST", "/api/credential-schema/v1/import", {
      organisationId: otherOrg,
      schema: document,
    });
    expect(imported.status).toBe(201);
    const importedDetail = (await api("GET", `/api/credential-schema/v1/${imported.json.id}`)).json;
    expect(importedDetail).toMatchObject({
      name: "Library card",
      schemaId: detail.schemaId,
      importedSourceUrl: detail.importedSourceUrl,
      organisationId: otherOrg,
    });

    expect((await api("POST", "/api/credential-schema/v1", schemaBody("Library card"))).json.code).toBe("BR_0007");
    expect((await api("DELETE", `/api/credential-schema/v1/${created.json.id}`)).status).toBe(204);
    expect((await api("GET", `/api/credential-schema/v1/${created.json.id}`)).json.code).toBe("BR_0006");
    // the name is free again
    expect((await api("POST", "/api/credential-schema/v1", schemaBody("Library card"))).status).toBe(201);
  });

  it("refuses invalid schemas with the One Core codes", async () => {
    const { api } = fx;
    const bad = async (body: object) => (await api("POST", "/api/credential-schema/v1", body)).json.code;
    expect(await bad(schemaBody("x1", { format: "NOPE" }))).toBe("BR_0089");
    expect(await bad(schemaBody("x2", { revocationMethod: "CRLX" }))).toBe("BR_0089");
    expect(await bad(schemaBody("x3", { allowSuspension: true }))).toBe("BR_0162");
    expect(await bad({ ...schemaBody("x4"), claims: [{ key: "a/b", datatype: "STRING", required: true }] })).toBe(
      "BR_0108",
    );
    expect(await bad({ ...schemaBody("x5"), claims: [{ key: "a", datatype: "NOPE", required: true }] })).toBe(
      "BR_0061",
    );
    expect(await bad({ ...schemaBody("x6"), claims: [] })).toBe("BR_0084");
    expect(await bad({ ...schemaBody("x7"), claims: [{ key: "o", datatype: "OBJECT", required: true }] })).toBe(
      "BR_0008",
    );
    expect(await bad({ ...schemaBody("x8"), format: "MDOC" })).toBe("BR_0117");
    expect(await bad(schemaBody("x9", { transactionCode: { type: "NUMERIC", length: 3 } }))).toBe("BR_0084");
  });

  it("deletes credentials unless an issued, revocable one would vanish", async () => {
    const { api } = fx;
    const offer = await fx.createOffer();
    expect((await api("DELETE", `/api/credential/v1/${offer.credentialId}`)).status).toBe(204);
    expect((await api("GET", `/api/credential/v1/${offer.credentialId}`)).json.code).toBe("BR_0001");
  });

  it("issues with an ML-DSA-65 did:jwk issuer, verifiable by the SD-JWT VC formatter", async () => {
    const { api, kit } = fx;
    const key = (
      await api("POST", "/api/key/v1", {
        organisationId: fx.organisationId,
        keyType: "ML_DSA",
        keyParams: {},
        name: `pq ${randomUUID()}`,
        storageType: "INTERNAL",
        storageParams: {},
      })
    ).json.id;
    const identifier = (
      await api("POST", "/api/identifier/v1", {
        organisationId: fx.organisationId,
        name: `pq issuer ${randomUUID()}`,
        did: {
          method: "JWK",
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
    const offer = await fx.createOffer(undefined, { issuer: identifier });
    const holder = await kit.keys.create({
      organisationId: fx.organisationId,
      keyType: "EDDSA",
      keyParams: {},
      name: `holder ${randomUUID()}`,
      storageType: "INTERNAL",
      storageParams: {},
    });
    const wallet = kit.holder;
    const invitation = await wallet.handleInvitation({ url: offer.url, organisationId: fx.organisationId });
    const { id } = await wallet.acceptIssuance({ interactionId: invitation.interactionId, keyId: holder.id });
    const blob = (await kit.storage.credentials.get(id))!.credentialBlob!;
    expect(JSON.parse(Buffer.from(blob.split(".")[0]!, "base64url").toString()).alg).toBe("ML-DSA-65");
    const did = (await api("GET", `/api/identifier/v1/${identifier}`)).json.did.did;
    const document = await kit.dids.resolve(did);
    const parsed = await createSdJwtVcFormatter({ algorithms: createKeyAlgorithms() }).verifyCredential(blob, {
      resolveIssuerKey: async () => document.verificationMethod[0]!.publicKeyJwk as never,
      now: new Date(),
      leeway: 60,
    });
    expect(parsed.issuer).toBe(did);
  });
});
