import { randomUUID } from "node:crypto";
import { DcqlQuery } from "dcql";
import { compactVerify, decodeProtectedHeader, importJWK, type JWK } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_CLAIMS, type SchemaHandle } from "../support/issuer-fixture.js";
import {
  type IssuedCredential,
  type ProofInputSpec,
  type SharedRequest,
  startVerifierFixture,
  type VerifierFixture,
  VP_PROTOCOL,
} from "../support/verifier-fixture.js";

// credkit as an OpenID4VP 1.0 verifier over real loopback HTTP: proof schemas and proof requests through the
// management API (reference §3.5, §3.7), the request object behind the share URL's request_uri (OpenID4VP 1.0 §5,
// §5.9 client identifier prefixes, §6 DCQL) and the holder's response (§8.2 direct_post, §8.3 direct_post.jwt). The
// holder is written here with fetch, jose and @sd-jwt/sd-jwt-vc; its keys never enter credkit.

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe("OpenID4VP verifier: proof schemas, proof requests, request objects and presentations", () => {
  let verifier: VerifierFixture;
  let identity: SchemaHandle;
  let membership: SchemaHandle;
  let credential: IssuedCredential;

  beforeAll(async () => {
    verifier = await startVerifierFixture({ revocation: true });
    identity = verifier.issuer.schema;
    membership = await verifier.issuer.addSchema({ name: "Membership" });
    credential = await verifier.issueCredential();
  });
  afterAll(async () => {
    await verifier?.close();
  });

  const api = (method: string, path: string, body?: unknown) => verifier.api(method, path, body);

  const identityInput = (): ProofInputSpec => ({
    schema: identity,
    claims: [
      { path: "given_name", required: true },
      { path: "address/street", required: false },
      { path: "nationalities", required: false },
    ],
  });

  function expectError(response: { status: number; json: { code?: string } }, status: number, code: string) {
    expect({ status: response.status, code: response.json?.code }).toEqual({ status, code });
  }

  // --- proof schemas (reference §3.5) ---

  describe("proof schema API", () => {
    it("creates, reads (claimSchemas shape), lists, shares and deletes a proof schema", async () => {
      const created = await api("POST", "/api/proof-schema/v1", {
        name: "Age and address check",
        organisationId: verifier.organisationId,
        expireDuration: 3600,
        proofInputSchemas: [
          {
            credentialSchemaId: identity.id,
            claimSchemas: [
              { id: identity.claimIds.given_name, required: true },
              { id: identity.claimIds.address, required: false },
            ],
          },
          { credentialSchemaId: membership.id, claimSchemas: [{ id: membership.claimIds.age, required: true }] },
        ],
      });
      expect(created.status).toBe(201);
      const id = created.json.id as string;

      const detail = await api("GET", `/api/proof-schema/v1/${id}`);
      expect(detail.status).toBe(200);
      expect(detail.json).toMatchObject({
        id,
        name: "Age and address check",
        expireDuration: 3600,
        organisationId: verifier.organisationId,
      });
      expect(detail.json.createdDate).toMatch(TIMESTAMP);
      expect(detail.json.lastModified).toMatch(TIMESTAMP);
      expect(detail.json).not.toHaveProperty("importedSourceUrl");
      expect(detail.json.proofInputSchemas).toHaveLength(2);
      const [first, second] = detail.json.proofInputSchemas;
      expect(first.credentialSchema).toMatchObject({
        id: identity.id,
        name: "Identity 1",
        format: "SD_JWT_VC",
        schemaId: identity.vct,
      });
      expect(first.credentialSchema).not.toHaveProperty("claims");
      expect(first.claimSchemas).toEqual([
        {
          id: identity.claimIds.given_name,
          requested: true,
          required: true,
          key: "given_name",
          dataType: "STRING",
          claims: [],
          array: false,
        },
        {
          id: identity.claimIds.address,
          requested: true,
          required: false,
          key: "address",
          dataType: "OBJECT",
          // an OBJECT claim brings its children, requested with their own required flags
          claims: [
            {
              id: identity.claimIds["address/street"],
              requested: true,
              required: true,
              key: "street",
              dataType: "STRING",
              claims: [],
              array: false,
            },
            {
              id: identity.claimIds["address/city"],
              requested: true,
              required: false,
              key: "city",
              dataType: "STRING",
              claims: [],
              array: false,
            },
          ],
          array: false,
        },
      ]);
      expect(second.credentialSchema.id).toBe(membership.id);
      expect(second.claimSchemas).toEqual([
        {
          id: membership.claimIds.age,
          requested: true,
          required: true,
          key: "age",
          dataType: "NUMBER",
          claims: [],
          array: false,
        },
      ]);

      const list = await api(
        "GET",
        `/api/proof-schema/v1?page=0&pageSize=100&organisationId=${verifier.organisationId}&name=Age%20and&sort=name`,
      );
      expect(list.status).toBe(200);
      expect(list.json).toMatchObject({ totalItems: 1, totalPages: 1 });
      expect(list.json.values[0]).toEqual({
        id,
        createdDate: detail.json.createdDate,
        lastModified: detail.json.lastModified,
        name: "Age and address check",
        expireDuration: 3600,
      });

      const shared = await api("POST", `/api/proof-schema/v1/${id}/share`);
      expect(shared.status).toBe(201);
      expect(shared.json).toEqual({ url: `${verifier.baseUrl}/ssi/proof-schema/v1/${id}` });
      const document = await fetch(shared.json.url);
      expect(document.status).toBe(200);
      expect(await document.json()).toEqual(detail.json);

      expect((await api("DELETE", `/api/proof-schema/v1/${id}`)).status).toBe(204);
      expectError(await api("GET", `/api/proof-schema/v1/${id}`), 404, "BR_0014");
      expect((await fetch(shared.json.url)).status).toBe(404);
      const after = await api(
        "GET",
        `/api/proof-schema/v1?page=0&pageSize=100&organisationId=${verifier.organisationId}`,
      );
      expect(after.json.values.map((v: { id: string }) => v.id)).not.toContain(id);
      expectError(await api("DELETE", `/api/proof-schema/v1/${id}`), 404, "BR_0014");
      // a deleted proof schema takes no new proof requests
      expectError(
        await api("POST", "/api/proof-request/v1", { proofSchemaId: id, protocol: VP_PROTOCOL }),
        404,
        "BR_0014",
      );
    });

    it("imports a shared proof schema into another organisation that has the same credential schema", async () => {
      const sourceId = await verifier.createProofSchema(
        [
          {
            schema: identity,
            claims: [
              { path: "given_name", required: true },
              { path: "age", required: false },
              { path: "address/street", required: false },
            ],
          },
        ],
        { name: "Importable", expireDuration: 60 },
      );
      const sharedUrl = (await api("POST", `/api/proof-schema/v1/${sourceId}/share`)).json.url as string;
      const sharedDocument = await (await fetch(sharedUrl)).json();

      const otherOrganisation = (await api("POST", "/api/organisation/v1", { name: `Other ${randomUUID()}` })).json
        .id as string;
      // without the credential schema the import has nothing to map onto
      expectError(
        await api("POST", "/api/proof-schema/v1/import", { organisationId: otherOrganisation, schema: sharedDocument }),
        404,
        "BR_0006",
      );

      const schemaUrl = (await api("POST", `/api/credential-schema/v1/${identity.id}/share`)).json.url as string;
      const sharedSchema = await (await fetch(schemaUrl)).json();
      const importedSchema = await api("POST", "/api/credential-schema/v1/import", {
        organisationId: otherOrganisation,
        schema: sharedSchema,
      });
      expect(importedSchema.status).toBe(201);
      const localSchema = (await api("GET", `/api/credential-schema/v1/${importedSchema.json.id}`)).json;
      expect(localSchema.schemaId).toBe(identity.vct);

      const imported = await api("POST", "/api/proof-schema/v1/import", {
        organisationId: otherOrganisation,
        schema: sharedDocument,
      });
      expect(imported.status).toBe(201);
      expect(imported.json.id).not.toBe(sourceId);
      const detail = (await api("GET", `/api/proof-schema/v1/${imported.json.id}`)).json;
      expect(detail).toMatchObject({
        name: "Importable",
        expireDuration: 60,
        organisationId: otherOrganisation,
        importedSourceUrl: sharedUrl,
      });
      expect(detail.proofInputSchemas).toHaveLength(1);
      const input = detail.proofInputSchemas[0];
      expect(input.credentialSchema.id).toBe(localSchema.id);
      const localIds = new Map<string, string>();
      const walk = (claims: { id: string; key: string; claims: never[] }[], prefix: string) => {
        for (const claim of claims) {
          localIds.set(prefix + claim.key, claim.id);
          walk(claim.claims, `${prefix}${claim.key}/`);
        }
      };
      walk(localSchema.claims, "");
      expect(
        input.claimSchemas.map((c: { id: string; key: string; required: boolean }) => [c.id, c.key, c.required]),
      ).toEqual([
        [localIds.get("given_name"), "given_name", true],
        [localIds.get("age"), "age", false],
        [localIds.get("address/street"), "street", false],
      ]);
      // the organisation's history tells where it came from
      const history = await api(
        "GET",
        `/api/history/v1?page=0&pageSize=10&organisationId=${otherOrganisation}&entityIds[]=${imported.json.id}`,
      );
      expect(history.json.values.map((h: { action: string }) => h.action)).toEqual(["IMPORTED"]);

      // a malformed shared document (null entries, options that are no lists) is a 400, never a 5xx, and creates nothing
      for (const broken of [
        { ...sharedDocument, credentialSets: [null] },
        { ...sharedDocument, credentialSets: [{ options: [null] }] },
        { ...sharedDocument, proofInputSchemas: [null] },
        { ...sharedDocument, proofInputSchemas: [{ ...sharedDocument.proofInputSchemas[0], claimSchemas: [null] }] },
      ]) {
        const refused = await api("POST", "/api/proof-schema/v1/import", {
          organisationId: otherOrganisation,
          schema: broken,
        });
        expect(refused.status, refused.text).toBe(400);
      }
      const after = await api("GET", `/api/proof-schema/v1?page=0&pageSize=50&organisationId=${otherOrganisation}`);
      expect(after.json.totalItems).toBe(1);
    });

    it("refuses bad input: unknown credential schema, claim of another schema, no required claim, duplicate claim", async () => {
      const create = (proofInputSchemas: unknown) =>
        api("POST", "/api/proof-schema/v1", {
          name: "Bad",
          organisationId: verifier.organisationId,
          proofInputSchemas,
        });
      const given = { id: identity.claimIds.given_name, required: true };

      expectError(await create([{ credentialSchemaId: randomUUID(), claimSchemas: [given] }]), 404, "BR_0006");
      expectError(
        await create([
          { credentialSchemaId: identity.id, claimSchemas: [given, { id: membership.claimIds.age, required: false }] },
        ]),
        400,
        "BR_0010",
      );
      expectError(
        await create([
          {
            credentialSchemaId: identity.id,
            claimSchemas: [
              { id: identity.claimIds.given_name, required: false },
              { id: identity.claimIds.age, required: false },
            ],
          },
        ]),
        400,
        "BR_0017",
      );
      expectError(
        await create([{ credentialSchemaId: identity.id, claimSchemas: [given, { ...given, required: false }] }]),
        400,
        "BR_0018",
      );
      // shape errors
      expectError(await create([]), 400, "BR_0084");
      expectError(await create([{ credentialSchemaId: identity.id, claimSchemas: [] }]), 400, "BR_0084");
      expectError(
        await create([{ credentialSchemaId: identity.id, claimSchemas: [{ ...given, extra: 1 }] }]),
        400,
        "BR_0084",
      );
      const list = await api(
        "GET",
        `/api/proof-schema/v1?page=0&pageSize=100&organisationId=${verifier.organisationId}&name=Bad&exact[]=name`,
      );
      expect(list.json.totalItems).toBe(0);
    });
  });

  // --- proof requests (reference §3.7, §8) ---

  describe("proof request API", () => {
    let proofSchemaId: string;
    let otherSchemaId: string;

    beforeAll(async () => {
      proofSchemaId = await verifier.createProofSchema([identityInput()], { name: "Request API" });
      otherSchemaId = await verifier.createProofSchema([
        { schema: membership, claims: [{ path: "age", required: true }] },
      ]);
    });

    it("creates (CREATED), reads and lists proof requests with states[] and proofSchemaIds[] filters", async () => {
      const created = await api("POST", "/api/proof-request/v1", {
        proofSchemaId,
        protocol: VP_PROTOCOL,
        verifier: verifier.verifierIdentifierId,
        redirectUri: "https://verifier.example/done",
        profile: "e2e",
      });
      expect(created.status).toBe(201);
      const id = created.json.id as string;
      const detail = (await api("GET", `/api/proof-request/v1/${id}`)).json;
      expect(detail).toMatchObject({
        id,
        state: "CREATED",
        role: "VERIFIER",
        protocol: VP_PROTOCOL,
        transport: "HTTP",
        organisationId: verifier.organisationId,
        redirectUri: "https://verifier.example/done",
        profile: "e2e",
        verifier: { id: verifier.verifierIdentifierId },
        schema: { id: proofSchemaId, name: "Request API" },
      });
      expect(detail.createdDate).toMatch(TIMESTAMP);
      for (const absent of ["requestedDate", "completedDate", "claimsRemovedAt", "errorReason"])
        expect(detail).not.toHaveProperty(absent);
      expect(detail.proofInputs).toEqual([
        { claims: [], credentialSchema: expect.objectContaining({ id: identity.id, schemaId: identity.vct }) },
      ]);

      const other = await verifier.createProofRequest(otherSchemaId);
      const pending = await verifier.createProofRequest(proofSchemaId);
      await verifier.share(pending);

      const list = async (query: string) =>
        (
          await api(
            "GET",
            `/api/proof-request/v1?page=0&pageSize=100&organisationId=${verifier.organisationId}${query}`,
          )
        ).json;
      const ids = (page: { values: { id: string }[] }) => page.values.map((v) => v.id);

      const bySchema = await list(`&proofSchemaIds[]=${proofSchemaId}`);
      expect(ids(bySchema)).toEqual(expect.arrayContaining([id, pending]));
      expect(ids(bySchema)).not.toContain(other);
      const item = bySchema.values.find((v: { id: string }) => v.id === id);
      expect(item).toMatchObject({ id, state: "CREATED", role: "VERIFIER", schema: { id: proofSchemaId } });
      for (const absent of ["proofInputs", "organisationId", "redirectUri", "claimsRemovedAt"])
        expect(item).not.toHaveProperty(absent);

      const created2 = await list(
        `&states[]=CREATED&proofSchemaIds[]=${proofSchemaId}&proofSchemaIds[]=${otherSchemaId}`,
      );
      expect(ids(created2)).toEqual(expect.arrayContaining([id, other]));
      expect(ids(created2)).not.toContain(pending);
      const pendingOnly = await list(`&states[]=PENDING&proofSchemaIds[]=${proofSchemaId}`);
      expect(ids(pendingOnly)).toEqual([pending]);
      expect(pendingOnly.values[0].requestedDate).toMatch(TIMESTAMP);
      expect((await list(`&states[]=ACCEPTED&proofSchemaIds[]=${otherSchemaId}`)).totalItems).toBe(0);
      expectError(await api("GET", `/api/proof-request/v1?page=0&pageSize=10&states[]=NOPE`), 400, "BR_0084");
    });

    it("shares (PENDING with requestedDate), re-shares with a fresh request, and hard-deletes CREATED and PENDING requests", async () => {
      const id = await verifier.createProofRequest(proofSchemaId);
      const first = await verifier.share(id);
      expect(first.url).toMatch(/^openid4vp:\/\/\?client_id=/);
      expect(first.expiresAt).toMatch(TIMESTAMP);
      const detail = (await api("GET", `/api/proof-request/v1/${id}`)).json;
      expect(detail.state).toBe("PENDING");
      expect(detail.requestedDate).toMatch(TIMESTAMP);

      // PENDING can be shared again: a new interaction (state, nonce); the old one is gone
      const second = await verifier.share(id);
      expect(second.payload.state).not.toBe(first.payload.state);
      expect(second.payload.nonce).not.toBe(first.payload.nonce);
      const stale = await verifier.submitVpToken(first, {
        input_0: [await verifier.present(credential, { given_name: true }, verifier.keyBindingFor(first))],
      });
      expect(stale.status).toBe(400);
      expect(stale.body.error).toBe("invalid_request");
      expect((await api("GET", `/api/proof-request/v1/${id}`)).json.state).toBe("PENDING");

      expect((await api("DELETE", `/api/proof-request/v1/${id}`)).status).toBe(204);
      expectError(await api("GET", `/api/proof-request/v1/${id}`), 404, "BR_0012");
      expect((await fetch(second.requestUri)).status).toBe(404);

      const created = await verifier.createProofRequest(proofSchemaId);
      expect((await api("DELETE", `/api/proof-request/v1/${created}`)).status).toBe(204);
      expectError(await api("GET", `/api/proof-request/v1/${created}`), 404, "BR_0012");
      expectError(await api("POST", `/api/proof-request/v1/${created}/share`), 404, "BR_0012");
    });

    it("refuses to share in a wrong state (BR_0013) and validates the create body", async () => {
      const request = await verifier.share(await verifier.createProofRequest(proofSchemaId));
      const ok = await verifier.submitVpToken(request, {
        input_0: [await verifier.present(credential, { given_name: true }, verifier.keyBindingFor(request))],
      });
      expect(ok.status).toBe(200);
      expectError(await api("POST", `/api/proof-request/v1/${request.proofId}/share`), 400, "BR_0013");
      expect((await api("GET", `/api/proof-request/v1/${request.proofId}`)).json.state).toBe("ACCEPTED");
      // claims can only be removed from ACCEPTED proofs
      const created = await verifier.createProofRequest(proofSchemaId);
      expectError(await api("DELETE", `/api/proof-request/v1/${created}/claims`), 400, "BR_0013");

      expectError(
        await api("POST", "/api/proof-request/v1", { proofSchemaId: randomUUID(), protocol: VP_PROTOCOL }),
        404,
        "BR_0014",
      );
      expectError(await api("POST", "/api/proof-request/v1", { proofSchemaId, protocol: "NOPE" }), 400, "BR_0089");
      expectError(
        await api("POST", "/api/proof-request/v1", { proofSchemaId, protocol: VP_PROTOCOL, verifier: randomUUID() }),
        404,
        "BR_0207",
      );
      expectError(
        await api("POST", "/api/proof-request/v1", { proofSchemaId, protocol: VP_PROTOCOL, bogus: 1 }),
        400,
        "BR_0084",
      );
      expectError(
        await api("POST", `/api/proof-request/v1/${created}/share`, { params: { clientIdScheme: "x509_san_dns" } }),
        400,
        "BR_0084", // needs a CERTIFICATE verifier identifier (verification-client-id-prefixes.e2e.test.ts)
      );
      const withoutVerifier = await verifier.createProofRequest(proofSchemaId, { verifier: null });
      expectError(
        await api("POST", `/api/proof-request/v1/${withoutVerifier}/share`, {
          params: { clientIdScheme: "decentralized_identifier" },
        }),
        400,
        "BR_0084",
      );
      expect((await api("GET", `/api/proof-request/v1/${withoutVerifier}`)).json.state).toBe("CREATED");
    });
  });

  // --- the request object (OpenID4VP 1.0 §5) ---

  describe("request object behind request_uri", () => {
    function checkCommon(request: SharedRequest, responseMode: string) {
      const { payload } = request;
      const shared = new URL(request.url);
      if (request.clientId.startsWith("redirect_uri:")) {
        // unsigned requests travel by value (§5.9.3): the URL carries the request object's parameters
        expect(shared.searchParams.get("client_id")).toBe(request.clientId);
        expect(shared.searchParams.get("request_uri")).toBeNull();
        expect(shared.searchParams.get("nonce")).toBe(request.payload.nonce);
        expect(JSON.parse(shared.searchParams.get("dcql_query")!)).toEqual(request.payload.dcql_query);
      } else {
        expect(request.url).toBe(
          `openid4vp://?client_id=${encodeURIComponent(request.clientId)}&request_uri=${encodeURIComponent(request.requestUri)}`,
        );
      }
      expect(request.requestUri).toBe(`${verifier.baseUrl}/ssi/openid4vp/final-1.0/${request.proofId}/client-request`);
      expect(request.header.typ).toBe("oauth-authz-req+jwt");
      expect(payload).toMatchObject({
        response_type: "vp_token",
        client_id: request.clientId,
        response_mode: responseMode,
        response_uri: verifier.responseUri,
      });
      expect(payload.nonce).toMatch(/^[A-Za-z0-9_-]{22,}$/);
      expect(payload.state).toMatch(/^[0-9a-f-]{36}$/);
      expect(payload.exp).toBe(Math.floor(Date.parse(request.expiresAt!) / 1000));
      expect(payload.client_metadata.vp_formats_supported["dc+sd-jwt"]).toEqual({
        "sd-jwt_alg_values": expect.arrayContaining(["ES256", "EdDSA"]),
        "kb-jwt_alg_values": expect.arrayContaining(["ES256", "EdDSA"]),
      });
      // DCQL (OpenID4VP 1.0 §6), as an independent implementation reads it
      const query = DcqlQuery.parse(payload.dcql_query as DcqlQuery.Input);
      DcqlQuery.validate(query);
      expect(query.credentials).toEqual([
        expect.objectContaining({
          id: "input_0",
          format: "dc+sd-jwt",
          meta: { vct_values: [identity.vct] },
          claims: [
            expect.objectContaining({ id: "claim_0", path: ["given_name"] }),
            expect.objectContaining({ id: "claim_1", path: ["address", "street"] }),
            expect.objectContaining({ id: "claim_2", path: ["nationalities", null] }),
          ],
          // all claims preferred, the required ones suffice
          claim_sets: [["claim_0", "claim_1", "claim_2"], ["claim_0"]],
          require_cryptographic_holder_binding: true,
        }),
      ]);
    }

    it("redirect_uri prefix: an unsigned request object (alg none), served as application/oauth-authz-req+jwt", async () => {
      const request = await verifier.request([identityInput()], { clientIdScheme: "redirect_uri" });
      expect(request.clientId).toBe(`redirect_uri:${verifier.responseUri}`);
      expect(request.header).toEqual({ alg: "none", typ: "oauth-authz-req+jwt" });
      expect(request.requestObject.endsWith(".")).toBe(true);
      checkCommon(request, "direct_post");
      expect(request.payload.client_metadata).not.toHaveProperty("jwks");
      const response = await fetch(request.requestUri);
      expect(response.headers.get("content-type")).toBe("application/oauth-authz-req+jwt");
      expect(response.headers.get("cache-control")).toBe("no-store");
    });

    it("decentralized_identifier prefix: signed by the verifier's DID key, verifiable with the resolved DID document", async () => {
      const request = await verifier.request([identityInput()], { clientIdScheme: "decentralized_identifier" });
      expect(request.clientId).toBe(`decentralized_identifier:${verifier.verifierDid}`);
      expect(request.header.alg).toBe("ES256");
      const kid = request.header.kid as string;
      expect(kid.startsWith(`${verifier.verifierDid}#`)).toBe(true);
      checkCommon(request, "direct_post");

      const resolved = await api("GET", `/api/did-resolver/v1/${encodeURIComponent(verifier.verifierDid)}`);
      expect(resolved.status).toBe(200);
      expect(resolved.json.id).toBe(verifier.verifierDid);
      expect(resolved.json.assertionMethod).toContain(kid);
      const method = resolved.json.verificationMethod.find((m: { id: string }) => m.id === kid);
      const publicKey = await importJWK(method.publicKeyJwk as JWK, "ES256");
      const verified = await compactVerify(request.requestObject, publicKey);
      expect(JSON.parse(new TextDecoder().decode(verified.payload))).toEqual(request.payload);
      // one flipped payload byte and the signature no longer holds
      const [h, p, s] = request.requestObject.split(".");
      const tampered = Buffer.from(p!, "base64url");
      tampered[10] = tampered[10]! ^ 1;
      await expect(compactVerify(`${h}.${tampered.toString("base64url")}.${s}`, publicKey)).rejects.toThrow();

      // "did" is an alias of the prefix
      const alias = await verifier.share(
        await verifier.createProofRequest(await verifier.createProofSchema([identityInput()])),
        {
          clientIdScheme: "did",
        },
      );
      expect(alias.clientId).toBe(request.clientId);
    });

    it("direct_post.jwt: client_metadata carries one ECDH-ES P-256 `use: enc` public key (no private part)", async () => {
      const request = await verifier.request([identityInput()], {
        clientIdScheme: "decentralized_identifier",
        responseMode: "direct_post.jwt",
      });
      checkCommon(request, "direct_post.jwt");
      const { jwks, encrypted_response_enc_values_supported } = request.payload.client_metadata;
      expect(jwks?.keys).toHaveLength(1);
      const key = jwks!.keys[0]!;
      expect(key).toMatchObject({ kty: "EC", crv: "P-256", use: "enc", alg: "ECDH-ES" });
      expect(key.kid).toBeTypeOf("string");
      expect(key).not.toHaveProperty("d");
      expect(encrypted_response_enc_values_supported).toEqual(expect.arrayContaining(["A128GCM", "A256GCM"]));
      // a fresh key per request
      const another = await verifier.request([identityInput()], { responseMode: "direct_post.jwt" });
      expect(another.payload.client_metadata.jwks!.keys[0]!.x).not.toBe(key.x);
    });

    it("serves no request object for unknown or unshared proof requests", async () => {
      const base = `${verifier.baseUrl}/ssi/openid4vp/final-1.0`;
      expect((await fetch(`${base}/${randomUUID()}/client-request`)).status).toBe(404);
      expect((await fetch(`${base}/not-a-uuid/client-request`)).status).toBe(404);
      const created = await verifier.createProofRequest(await verifier.createProofSchema([identityInput()]));
      expect((await fetch(`${base}/${created}/client-request`)).status).toBe(404);
    });
  });

  // --- presentations (OpenID4VP 1.0 §8) ---

  describe("holder responses", () => {
    const fullFrame = { given_name: true, address: { street: true }, nationalities: { 0: true, 1: true } };
    const expectedClaims = [
      { path: "given_name", value: "Erika" },
      { path: "address", value: [{ path: "address/street", value: "Heidestraße 17" }] },
      {
        path: "nationalities",
        value: [
          { path: "nationalities/0", value: "DE" },
          { path: "nationalities/1", value: "FR" },
        ],
      },
    ];
    const simplify = (claims: { path: string; value: unknown }[]): unknown =>
      claims.map((c) => ({ path: c.path, value: Array.isArray(c.value) ? simplify(c.value) : c.value }));

    async function expectAccepted(request: SharedRequest) {
      const proof = await verifier.proof(request.proofId);
      expect(proof.state).toBe("ACCEPTED");
      expect(proof.completedDate).toMatch(TIMESTAMP);
      expect(proof).not.toHaveProperty("errorReason");
      expect(proof.proofInputs).toHaveLength(1);
      expect(simplify(proof.proofInputs[0].claims)).toEqual(expectedClaims);
      // exactly what was requested: age and address/city were not disclosed, so they are not stored
      expect(proof.proofInputs[0].credential).toMatchObject({
        role: "VERIFIER",
        state: "ACCEPTED",
        schema: { id: identity.id },
      });
      expect(simplify(proof.proofInputs[0].credential.claims)).toEqual(expectedClaims);
      const history = await verifier.history(request.proofId);
      expect(history.map((h) => h.action)).toEqual(["ACCEPTED", "SHARED", "CREATED"]);
      return proof;
    }

    it("direct_post: vp_token keyed by the credential query id → 200, ACCEPTED with the disclosed claims; claims can be removed", async () => {
      const request = await verifier.request([identityInput()], {
        clientIdScheme: "redirect_uri",
        responseMode: "direct_post",
      });
      const presentation = await verifier.present(credential, fullFrame, verifier.keyBindingFor(request));
      // the KB-JWT is bound to this request
      const kb = presentation.split("~").at(-1)!;
      expect(decodeProtectedHeader(kb)).toMatchObject({ typ: "kb+jwt", alg: "ES256" });
      expect(JSON.parse(Buffer.from(kb.split(".")[1]!, "base64url").toString())).toMatchObject({
        aud: request.clientId,
        nonce: request.payload.nonce,
      });

      const response = await verifier.submitVpToken(request, { input_0: [presentation] });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({});
      expect(response.headers.get("cache-control")).toContain("no-store");
      await expectAccepted(request);

      expect((await api("DELETE", `/api/proof-request/v1/${request.proofId}/claims`)).status).toBe(204);
      const purged = await verifier.proof(request.proofId);
      expect(purged.state).toBe("ACCEPTED");
      expect(purged.claimsRemovedAt).toMatch(TIMESTAMP);
      expect(purged.proofInputs[0].claims).toEqual([]);
      expect(purged.proofInputs[0].credential?.claims ?? []).toEqual([]);
      expect((await verifier.history(request.proofId))[0]!.action).toBe("CLAIMS_REMOVED");
    });

    it("direct_post.jwt: `response` = JWE (ECDH-ES, kid = the request key's kid) → 200 with the proof's redirect_uri, ACCEPTED", async () => {
      const proofId = await verifier.createProofRequest(await verifier.createProofSchema([identityInput()]), {
        redirectUri: "https://verifier.example/after",
      });
      const request = await verifier.share(proofId, {
        clientIdScheme: "decentralized_identifier",
        responseMode: "direct_post.jwt",
      });
      const presentation = await verifier.present(credential, fullFrame, verifier.keyBindingFor(request));
      const jwe = await verifier.encryptResponse(
        request,
        { vp_token: { input_0: [presentation] }, state: request.payload.state },
        "A256GCM",
      );
      expect(decodeProtectedHeader(jwe)).toMatchObject({
        alg: "ECDH-ES",
        enc: "A256GCM",
        kid: request.payload.client_metadata.jwks!.keys[0]!.kid,
      });
      // only `response`: the verifier finds the request by the JWE's kid
      const response = await verifier.postResponse({ response: jwe });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ redirect_uri: "https://verifier.example/after" });
      await expectAccepted(request);
    });

    it("two credential queries answered in one vp_token, each with its own credential", async () => {
      const member = await verifier.issueCredential({ schema: membership, claims: { given_name: "Clubber", age: 7 } });
      const request = await verifier.request(
        [
          { schema: identity, claims: [{ path: "given_name", required: true }] },
          { schema: membership, claims: [{ path: "age", required: true }] },
        ],
        { responseMode: "direct_post.jwt" },
      );
      expect(request.payload.dcql_query.credentials.map((c) => [c.id, c.meta.vct_values[0]])).toEqual([
        ["input_0", identity.vct],
        ["input_1", membership.vct],
      ]);
      const kb = verifier.keyBindingFor(request);
      const jwe = await verifier.encryptResponse(request, {
        vp_token: {
          input_0: [await verifier.present(credential, { given_name: true }, kb)],
          input_1: [await verifier.present(member, { age: true }, kb)],
        },
        state: request.payload.state,
      });
      expect((await verifier.postResponse({ response: jwe })).status).toBe(200);
      const proof = await verifier.proof(request.proofId);
      expect(proof.state).toBe("ACCEPTED");
      expect(proof.proofInputs.map((i: { claims: { path: string; value: unknown }[] }) => simplify(i.claims))).toEqual([
        [{ path: "given_name", value: "Erika" }],
        [{ path: "age", value: 7 }],
      ]);
    });

    it("a credential without the optional claims is accepted with the required ones only", async () => {
      const minimal = await verifier.issueCredential({ claims: { given_name: DEFAULT_CLAIMS.given_name as string } });
      const request = await verifier.request([identityInput()]);
      const response = await verifier.submitVpToken(request, {
        input_0: [await verifier.present(minimal, { given_name: true }, verifier.keyBindingFor(request))],
      });
      expect(response.status).toBe(200);
      const proof = await verifier.proof(request.proofId);
      expect(proof.state).toBe("ACCEPTED");
      expect(simplify(proof.proofInputs[0].claims)).toEqual([{ path: "given_name", value: "Erika" }]);
    });
  });
});
