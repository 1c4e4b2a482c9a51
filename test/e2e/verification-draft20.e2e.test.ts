/**
 * OpenID4VP draft 20 with DIF Presentation Exchange 2.0 (reference §3.7 v1 presentation definition, §3.8 v1
 * presentation-submit, §4.2 draft-20 endpoints), over real loopback HTTP: credkit's wallet ↔ credkit's verifier for
 * both client_id schemes (redirect_uri, did), and an independent holder (fetch, jose, @sd-jwt/sd-jwt-vc, a
 * hand-written presentation_submission) against the verifier, with the negative cases ending in ERROR with a reason.
 * Also submission_requirements (PEX 2.0), response mode direct_post.jwt (draft 20 §6.3) and presentation_definition_uri
 * (draft 20 §5.1), each in both directions.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { CompactEncrypt, compactVerify, exportJWK, generateKeyPair, importJWK, type JWK } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Credkit } from "../../src/credkit.js";
import { credkitNode } from "../../src/http/mount.js";
import { memoryStorage } from "../../src/storage/memory/index.js";
import { createTestKit } from "../../src/testing/create-test-kit.js";
import { createApiClient } from "../support/http-harness.js";
import type { SchemaHandle } from "../support/issuer-fixture.js";
import {
  decodeJws,
  disclosuresOf,
  type IssuedCredential,
  startVerifierFixture,
  type VerifierFixture,
} from "../support/verifier-fixture.js";

const DRAFT20 = "OPENID4VP_DRAFT20";
/** a second draft-20 instance of the verifier: direct_post.jwt and the definition by reference, from configuration */
const DRAFT20_JWT_BY_REFERENCE = "DRAFT20_JWT_BY_REFERENCE";
const INSECURE = { app: { http: { allowInsecureHttpTransport: true } } };

interface ClaimJson {
  path: string;
  value: unknown;
}

function flatten(claims: ClaimJson[], out: Record<string, unknown> = {}): Record<string, unknown> {
  for (const claim of claims) {
    if (Array.isArray(claim.value)) flatten(claim.value as ClaimJson[], out);
    else out[claim.path] = claim.value;
  }
  return out;
}

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

interface Draft20Request {
  proofId: string;
  url: string;
  clientId: string;
  clientIdScheme: string;
  requestUri: string;
  header: Record<string, unknown>;
  // biome-ignore lint/suspicious/noExplicitAny: protocol payloads are inspected freely
  payload: any;
  requestObject: string;
}

describe("OpenID4VP draft 20 (Presentation Exchange): credkit wallet, independent holder, credkit verifier", () => {
  let verifier: VerifierFixture;
  let identity: SchemaHandle;
  let membership: SchemaHandle;
  let wallet: Credkit;
  let walletServer: Server;
  let walletApi: ReturnType<typeof createApiClient>;
  let orgId: string;
  let walletIdentityId: string;
  let credential: IssuedCredential;
  let membershipCredential: IssuedCredential;

  beforeAll(async () => {
    verifier = await startVerifierFixture({
      revocation: true,
      config: {
        verificationProtocol: {
          [DRAFT20_JWT_BY_REFERENCE]: {
            type: DRAFT20,
            display: "draft 20, encrypted responses, definition by reference",
            params: {
              public: {
                urlScheme: "openid4vp-draft20",
                verifier: { responseMode: "direct_post.jwt", presentationDefinitionByReference: true },
              },
            },
          },
        },
      },
    });
    identity = verifier.issuer.schema;
    membership = await verifier.issuer.addSchema({ name: "Membership" });
    credential = await verifier.issueCredential();
    membershipCredential = await verifier.issueCredential({ schema: membership });

    wallet = await createTestKit({ config: INSECURE, storage: memoryStorage() });
    const mounted = await listen(credkitNode(wallet));
    walletServer = mounted.server;
    walletApi = createApiClient(mounted.url);
    orgId = (await wallet.organisations.create({ name: `wallet ${randomUUID()}` })).id;
    const keyId = (
      await wallet.keys.create({
        organisationId: orgId,
        keyType: "EDDSA",
        keyParams: {},
        name: "holder key",
        storageType: "INTERNAL",
        storageParams: {},
      })
    ).id;
    const offer = await identity.createOffer();
    const { interactionId } = await wallet.holder.handleInvitation({ url: offer.url, organisationId: orgId });
    walletIdentityId = (await wallet.holder.acceptIssuance({ interactionId, keyId })).id;
  });

  afterAll(async () => {
    if (walletServer) {
      walletServer.closeAllConnections();
      await new Promise<void>((resolve) => walletServer.close(() => resolve()));
    }
    await wallet?.close();
    await wallet?.storage.close();
    await verifier?.close();
  });

  async function proofSchema(inputs: { schema: SchemaHandle; claims: [string, boolean][] }[]): Promise<string> {
    const response = await verifier.api("POST", "/api/proof-schema/v1", {
      name: `draft20 ${randomUUID()}`,
      organisationId: verifier.organisationId,
      proofInputSchemas: inputs.map(({ schema, claims }) => ({
        credentialSchemaId: schema.id,
        claimSchemas: claims.map(([path, required]) => ({ id: schema.claimIds[path], required })),
      })),
    });
    expect(response.status, response.text).toBe(201);
    return response.json.id as string;
  }

  async function share(
    proofSchemaId: string,
    clientIdScheme: "redirect_uri" | "did",
    protocol = DRAFT20,
    responseMode?: "direct_post" | "direct_post.jwt",
  ): Promise<Draft20Request> {
    const created = await verifier.api("POST", "/api/proof-request/v1", {
      proofSchemaId,
      protocol,
      verifier: verifier.verifierIdentifierId,
    });
    expect(created.status, created.text).toBe(201);
    const proofId = created.json.id as string;
    const shared = await verifier.api("POST", `/api/proof-request/v1/${proofId}/share`, {
      params: { clientIdScheme, ...(responseMode !== undefined && { responseMode }) },
    });
    expect(shared.status, shared.text).toBe(201);
    const url = new URL(shared.json.url as string);
    const requestUri = url.searchParams.get("request_uri") ?? "";
    const response = await fetch(requestUri);
    expect(response.status).toBe(200);
    const requestObject = await response.text();
    const { header, payload } = decodeJws(requestObject);
    return {
      proofId,
      url: shared.json.url as string,
      clientId: url.searchParams.get("client_id") ?? "",
      clientIdScheme: url.searchParams.get("client_id_scheme") ?? "",
      requestUri,
      header,
      payload,
      requestObject,
    };
  }

  const responseUri = () => `${verifier.baseUrl}/ssi/openid4vp/draft-20/response`;

  async function postResponse(form: Record<string, string>) {
    const response = await fetch(responseUri(), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(form),
    });
    const text = await response.text();
    return { status: response.status, text, body: text ? JSON.parse(text) : undefined };
  }

  function submission(request: Draft20Request, entries: { id: string; path: string; format?: string }[]) {
    return JSON.stringify({
      id: randomUUID(),
      definition_id: request.payload.presentation_definition.id,
      descriptor_map: entries.map((e) => ({ id: e.id, format: e.format ?? "vc+sd-jwt", path: e.path })),
    });
  }

  async function expectError(request: Draft20Request, form: Record<string, string>, reason: RegExp) {
    const response = await postResponse({ state: request.payload.state, ...form });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe("invalid_request");
    const proof = await verifier.proof(request.proofId);
    expect(proof.state).toBe("ERROR");
    expect(proof.errorReason).toMatch(reason);
    expect(proof.proofInputs.every((input: { claims: unknown[] }) => input.claims.length === 0)).toBe(true);
    const history = await verifier.history(request.proofId);
    expect(history[0]).toMatchObject({ action: "ERRORED" });
  }

  const kb = (request: Draft20Request) => ({ aud: request.payload.client_id, nonce: request.payload.nonce });

  describe("verifier: share URL, request object, metadata and presentation definition", () => {
    it("redirect_uri: openid4vp-draft20:// URL with client_id_scheme; unsigned request object; PEX definition", async () => {
      const request = await share(
        await proofSchema([
          {
            schema: identity,
            claims: [
              ["given_name", true],
              ["address/street", false],
            ],
          },
        ]),
        "redirect_uri",
      );
      expect(request.url).toMatch(/^openid4vp-draft20:\/\/\?client_id=/);
      expect(request.clientIdScheme).toBe("redirect_uri");
      expect(request.clientId).toBe(responseUri());
      expect(request.requestUri).toBe(`${verifier.baseUrl}/ssi/openid4vp/draft-20/${request.proofId}/client-request`);
      expect(request.header).toEqual({ alg: "none", typ: "oauth-authz-req+jwt" });
      expect(request.requestObject.endsWith(".")).toBe(true);
      expect(request.payload).toMatchObject({
        client_id: responseUri(),
        client_id_scheme: "redirect_uri",
        response_type: "vp_token",
        response_mode: "direct_post",
        response_uri: responseUri(),
        nonce: expect.any(String),
        state: expect.any(String),
        client_metadata: { vp_formats: { "vc+sd-jwt": expect.any(Object) } },
      });
      const definition = request.payload.presentation_definition;
      expect(definition.id).toBe(request.payload.state);
      expect(definition.input_descriptors).toHaveLength(1);
      const [descriptor] = definition.input_descriptors;
      expect(descriptor.id).toBe("input_0");
      expect(Object.keys(descriptor.format)).toContain("vc+sd-jwt");
      expect(descriptor.constraints.limit_disclosure).toBe("required");
      expect(descriptor.constraints.fields).toEqual([
        { path: ["$.vct"], filter: { type: "string", const: identity.vct } },
        expect.objectContaining({ path: ["$.given_name"], optional: false }),
        expect.objectContaining({ path: ["$.address.street"], optional: true }),
      ]);

      const base = `${verifier.baseUrl}/ssi/openid4vp/draft-20/${request.proofId}`;
      const metadata = await fetch(`${base}/client-metadata`);
      expect(metadata.status).toBe(200);
      expect((await metadata.json()).vp_formats).toHaveProperty("vc+sd-jwt");
      const pd = await fetch(`${base}/presentation-definition`);
      expect(pd.status).toBe(200);
      expect(await pd.json()).toEqual(definition);
      expect((await fetch(`${verifier.baseUrl}/ssi/openid4vp/draft-20/${randomUUID()}/client-request`)).status).toBe(
        404,
      );
    });

    it("did: client_id is the verifier DID, the request object is signed by its key", async () => {
      const request = await share(await proofSchema([{ schema: identity, claims: [["given_name", true]] }]), "did");
      expect(request.clientIdScheme).toBe("did");
      expect(request.clientId).toBe(verifier.verifierDid);
      expect(request.payload.client_id).toBe(verifier.verifierDid);
      expect(String(request.header.kid)).toMatch(new RegExp(`^${verifier.verifierDid}#`));
      expect(request.header.alg).toBe("ES256");
      const resolved = await verifier.api("GET", `/api/did-resolver/v1/${encodeURIComponent(verifier.verifierDid)}`);
      expect(resolved.status).toBe(200);
      const method = resolved.json.verificationMethod.find((m: { id: string }) => m.id === request.header.kid);
      const key = await importJWK(method.publicKeyJwk as JWK, "ES256");
      const verified = await compactVerify(request.requestObject, key);
      expect(JSON.parse(new TextDecoder().decode(verified.payload))).toEqual(request.payload);
    });
  });

  describe("credkit wallet ↔ credkit verifier", () => {
    for (const scheme of ["redirect_uri", "did"] as const) {
      it(`${scheme}: v1 presentation definition, submit with the chosen claims → ACCEPTED with exactly those claims`, async () => {
        const request = await share(
          await proofSchema([
            {
              schema: identity,
              claims: [
                ["given_name", true],
                ["address/street", false],
                ["age", false],
              ],
            },
          ]),
          scheme,
        );
        const handled = await walletApi("POST", "/api/interaction/v1/handle-invitation", {
          url: request.url,
          organisationId: orgId,
        });
        expect(handled.status, handled.text).toBe(201);
        expect(handled.json).toEqual({
          interactionId: expect.any(String),
          interactionType: "VERIFICATION",
          proofId: expect.any(String),
          protocol: DRAFT20,
        });
        const { interactionId, proofId } = handled.json;
        const holderProof = await walletApi("GET", `/api/proof-request/v1/${proofId}`);
        expect(holderProof.json).toMatchObject({ role: "HOLDER", state: "REQUESTED", protocol: DRAFT20 });

        const definition = await walletApi("GET", `/api/proof-request/v1/${proofId}/presentation-definition`);
        expect(definition.status, definition.text).toBe(200);
        expect(definition.json.requestGroups).toHaveLength(1);
        const group = definition.json.requestGroups[0];
        expect(group.rule).toEqual({ type: "all" });
        expect(group.requestedCredentials).toHaveLength(1);
        const requested = group.requestedCredentials[0];
        expect(requested.id).toBe("input_0");
        expect(requested.applicableCredentials).toContain(walletIdentityId);
        expect(requested.multiple).toBe(false);
        expect(
          requested.fields.map((f: { name: string; required: boolean; keyMap: Record<string, string> }) => [
            f.name,
            f.required,
            f.keyMap[walletIdentityId],
          ]),
        ).toEqual([
          ["given_name", true, "given_name"],
          ["address/street", false, "address/street"],
          ["age", false, "age"],
        ]);
        const detail = definition.json.credentials.find((c: { id: string }) => c.id === walletIdentityId);
        expect(detail).toMatchObject({ role: "HOLDER", state: "ACCEPTED", schema: { id: expect.any(String) } });

        const fieldId = (name: string) =>
          requested.fields.find((f: { name: string; id: string }) => f.name === name).id as string;
        const submitted = await walletApi("POST", "/api/interaction/v1/presentation-submit", {
          interactionId,
          submitCredentials: {
            input_0: {
              credentialId: walletIdentityId,
              submitClaims: [fieldId("given_name"), fieldId("address/street")],
            },
          },
        });
        expect(submitted.status, submitted.text).toBe(204);

        const verified = await verifier.proof(request.proofId);
        expect(verified.state, verified.errorReason).toBe("ACCEPTED");
        expect(flatten(verified.proofInputs[0].claims)).toEqual({
          given_name: "Erika",
          "address/street": "Heidestraße 17",
        });
        const holderAfter = await walletApi("GET", `/api/proof-request/v1/${proofId}`);
        expect(holderAfter.json.state).toBe("ACCEPTED");

        const again = await walletApi("POST", "/api/interaction/v1/presentation-submit", {
          interactionId,
          submitCredentials: { input_0: { credentialId: walletIdentityId, submitClaims: [] } },
        });
        expect(again.status).toBe(400);
        expect(again.json.code).toBe("BR_0013");
      });
    }

    it("refuses a submission that does not answer the definition (BR_0291)", async () => {
      const request = await share(await proofSchema([{ schema: identity, claims: [["given_name", true]] }]), "did");
      const { interactionId } = (
        await walletApi("POST", "/api/interaction/v1/handle-invitation", { url: request.url, organisationId: orgId })
      ).json;
      const unknown = await walletApi("POST", "/api/interaction/v1/presentation-submit", {
        interactionId,
        submitCredentials: { input_9: { credentialId: walletIdentityId, submitClaims: [] } },
      });
      expect(unknown.status).toBe(400);
      expect(unknown.json.code).toBe("BR_0291");
      const badField = await walletApi("POST", "/api/interaction/v1/presentation-submit", {
        interactionId,
        submitCredentials: { input_0: { credentialId: walletIdentityId, submitClaims: ["nope"] } },
      });
      expect(badField.status).toBe(400);
      expect(badField.json.code).toBe("BR_0291");
      expect((await verifier.proof(request.proofId)).state).toBe("PENDING");
    });

    it("refuses draft-20 requests it cannot authenticate (BR_0085)", async () => {
      const request = await share(
        await proofSchema([{ schema: identity, claims: [["given_name", true]] }]),
        "redirect_uri",
      );
      const withScheme = (scheme: string) => {
        const url = new URL(request.url);
        url.searchParams.set("client_id_scheme", scheme);
        return url.toString();
      };
      const cases: [string, string][] = [
        [withScheme("did"), "a did request must be signed"],
        [withScheme("x509_san_dns"), "a x509_san_dns request must be signed"],
        [withScheme("verifier_attestation"), "unsupported client_id_scheme"],
        [
          request.url.replace(/client_id=[^&]+/, `client_id=${encodeURIComponent("https://elsewhere.example/cb")}`),
          "client_id",
        ],
      ];
      for (const [url, reason] of cases) {
        const handled = await walletApi("POST", "/api/interaction/v1/handle-invitation", {
          url,
          organisationId: orgId,
        });
        expect(handled.status, url).toBe(400);
        expect(handled.json.code, url).toBe("BR_0085");
        expect(handled.json.cause.message, url).toContain(reason);
      }
    });

    it("presentation-reject sends access_denied: both proofs end REJECTED", async () => {
      const request = await share(await proofSchema([{ schema: identity, claims: [["given_name", true]] }]), "did");
      const { interactionId, proofId } = (
        await walletApi("POST", "/api/interaction/v1/handle-invitation", { url: request.url, organisationId: orgId })
      ).json;
      const rejected = await walletApi("POST", "/api/interaction/v1/presentation-reject", { interactionId });
      expect(rejected.status, rejected.text).toBe(204);
      expect((await verifier.proof(request.proofId)).state).toBe("REJECTED");
      expect((await walletApi("GET", `/api/proof-request/v1/${proofId}`)).json.state).toBe("REJECTED");
    });

    it("BR_0292 across versions: v2 endpoints for a draft-20 proof, v1 endpoints for an OpenID4VP 1.0 proof", async () => {
      const schemaId = await proofSchema([{ schema: identity, claims: [["given_name", true]] }]);
      const draft = await share(schemaId, "redirect_uri");
      const handled = (
        await walletApi("POST", "/api/interaction/v1/handle-invitation", { url: draft.url, organisationId: orgId })
      ).json;
      const v2 = await walletApi("GET", `/api/proof-request/v2/${handled.proofId}/presentation-definition`);
      expect({ status: v2.status, code: v2.json.code }).toEqual({ status: 400, code: "BR_0292" });
      const v2Submit = await walletApi("POST", "/api/interaction/v2/presentation-submit", {
        interactionId: handled.interactionId,
        submission: { input_0: { credentialId: walletIdentityId } },
      });
      expect({ status: v2Submit.status, code: v2Submit.json.code }).toEqual({ status: 400, code: "BR_0292" });

      const final = await verifier.api("POST", "/api/proof-request/v1", {
        proofSchemaId: schemaId,
        protocol: "OPENID4VP_FINAL1",
        verifier: verifier.verifierIdentifierId,
      });
      const finalUrl = (
        await verifier.api("POST", `/api/proof-request/v1/${final.json.id}/share`, {
          params: { clientIdScheme: "redirect_uri" },
        })
      ).json.url as string;
      const finalHandled = (
        await walletApi("POST", "/api/interaction/v1/handle-invitation", { url: finalUrl, organisationId: orgId })
      ).json;
      expect(finalHandled.protocol).toBe("OPENID4VP_FINAL1");
      const v1 = await walletApi("GET", `/api/proof-request/v1/${finalHandled.proofId}/presentation-definition`);
      expect({ status: v1.status, code: v1.json.code }).toEqual({ status: 400, code: "BR_0292" });
      const v1Submit = await walletApi("POST", "/api/interaction/v1/presentation-submit", {
        interactionId: finalHandled.interactionId,
        submitCredentials: { input_0: { credentialId: walletIdentityId, submitClaims: [] } },
      });
      expect({ status: v1Submit.status, code: v1Submit.json.code }).toEqual({ status: 400, code: "BR_0292" });
    });
  });

  describe("independent holder → credkit verifier", () => {
    for (const scheme of ["redirect_uri", "did"] as const) {
      it(`${scheme}: a single vp_token with descriptor path $ → 200, ACCEPTED with the disclosed claims`, async () => {
        const request = await share(
          await proofSchema([
            {
              schema: identity,
              claims: [
                ["given_name", true],
                ["age", false],
              ],
            },
          ]),
          scheme,
        );
        const presentation = await verifier.present(credential, { given_name: true }, kb(request));
        expect(disclosuresOf(presentation)).toHaveLength(1);
        const response = await postResponse({
          vp_token: presentation,
          presentation_submission: submission(request, [{ id: "input_0", path: "$" }]),
          state: request.payload.state,
        });
        expect(response.status, response.text).toBe(200);
        const proof = await verifier.proof(request.proofId);
        expect(proof.state, proof.errorReason).toBe("ACCEPTED");
        expect(flatten(proof.proofInputs[0].claims)).toEqual({ given_name: "Erika" });
      });
    }

    it("two input descriptors answered by a vp_token array ($[0], $[1], dc+sd-jwt format accepted too)", async () => {
      const request = await share(
        await proofSchema([
          { schema: identity, claims: [["given_name", true]] },
          { schema: membership, claims: [["age", true]] },
        ]),
        "redirect_uri",
      );
      const first = await verifier.present(membershipCredential, { age: true }, kb(request));
      const second = await verifier.present(credential, { given_name: true }, kb(request));
      const response = await postResponse({
        vp_token: JSON.stringify([first, second]),
        presentation_submission: submission(request, [
          { id: "input_1", path: "$[0]", format: "dc+sd-jwt" },
          { id: "input_0", path: "$[1]" },
        ]),
        state: request.payload.state,
      });
      expect(response.status, response.text).toBe(200);
      const proof = await verifier.proof(request.proofId);
      expect(proof.state, proof.errorReason).toBe("ACCEPTED");
      expect(flatten(proof.proofInputs[0].claims)).toEqual({ given_name: "Erika" });
      expect(flatten(proof.proofInputs[1].claims)).toEqual({ age: 42 });
    });

    it("an error response (access_denied) ends the proof REJECTED", async () => {
      const request = await share(await proofSchema([{ schema: identity, claims: [["given_name", true]] }]), "did");
      const response = await postResponse({ error: "access_denied", state: request.payload.state });
      expect(response.status).toBe(200);
      expect((await verifier.proof(request.proofId)).state).toBe("REJECTED");
    });

    it("wrong nonce in the key binding JWT → ERROR", async () => {
      const request = await share(await proofSchema([{ schema: identity, claims: [["given_name", true]] }]), "did");
      const presentation = await verifier.present(
        credential,
        { given_name: true },
        { aud: request.payload.client_id, nonce: "not-the-nonce" },
      );
      await expectError(
        request,
        { vp_token: presentation, presentation_submission: submission(request, [{ id: "input_0", path: "$" }]) },
        /nonce/i,
      );
    });

    it("a descriptor_map entry naming an unknown input descriptor → ERROR", async () => {
      const request = await share(
        await proofSchema([{ schema: identity, claims: [["given_name", true]] }]),
        "redirect_uri",
      );
      const presentation = await verifier.present(credential, { given_name: true }, kb(request));
      await expectError(
        request,
        { vp_token: presentation, presentation_submission: submission(request, [{ id: "input_7", path: "$" }]) },
        /unknown input descriptor input_7/,
      );
    });

    it("a required field not disclosed → ERROR", async () => {
      const request = await share(
        await proofSchema([
          {
            schema: identity,
            claims: [
              ["given_name", true],
              ["age", true],
            ],
          },
        ]),
        "redirect_uri",
      );
      const presentation = await verifier.present(credential, { given_name: true }, kb(request));
      await expectError(
        request,
        { vp_token: presentation, presentation_submission: submission(request, [{ id: "input_0", path: "$" }]) },
        /input_0: requested claim age not disclosed/,
      );
    });

    it("a revoked credential → ERROR", async () => {
      const revoked = await verifier.issueCredential();
      const revoke = await verifier.api("POST", `/api/credential/v1/${revoked.credentialId}/revoke`);
      expect(revoke.status, revoke.text).toBe(204);
      const request = await share(await proofSchema([{ schema: identity, claims: [["given_name", true]] }]), "did");
      const presentation = await verifier.present(revoked, { given_name: true }, kb(request));
      await expectError(
        request,
        { vp_token: presentation, presentation_submission: submission(request, [{ id: "input_0", path: "$" }]) },
        /input_0: credential is revoked/,
      );
    });
  });

  /** the wallet's answer to a draft-20 URL: interaction and proof of the request it received */
  async function handle(url: string): Promise<{ interactionId: string; proofId: string }> {
    const handled = await walletApi("POST", "/api/interaction/v1/handle-invitation", { url, organisationId: orgId });
    expect(handled.status, handled.text).toBe(201);
    return handled.json;
  }

  async function walletDefinition(proofId: string) {
    const definition = await walletApi("GET", `/api/proof-request/v1/${proofId}/presentation-definition`);
    expect(definition.status, definition.text).toBe(200);
    return definition.json;
  }

  /**
   * Gives the verifier's stored request `submission_requirements` and descriptor `group`s, then fetches the request
   * object again. Proof schemas cannot express alternatives between inputs yet (the DCQL query has no credential_sets,
   * so neither has the definition), so the requirements are set on the request the verifier keeps; everything after
   * this runs over HTTP and through the verifier's own checks.
   */
  async function withSubmissionRequirements(
    request: Draft20Request,
    groups: Record<string, string[]>,
    requirements: unknown[],
  ): Promise<Draft20Request> {
    const { storage } = verifier.issuer.kit;
    const interaction = await storage.interactions.get(request.payload.state);
    // biome-ignore lint/suspicious/noExplicitAny: the stored request is patched freely
    const data = interaction!.data as any;
    const definition = {
      ...data.presentationDefinition,
      submission_requirements: requirements,
      input_descriptors: data.presentationDefinition.input_descriptors.map((d: { id: string }) =>
        groups[d.id] ? { ...d, group: groups[d.id] } : d,
      ),
    };
    expect(
      await storage.interactions.update(interaction!.id, { data: { ...data, presentationDefinition: definition } }),
    ).toBe(true);
    const requestObject = await (await fetch(request.requestUri)).text();
    const { header, payload } = decodeJws(requestObject);
    expect(payload.presentation_definition).toEqual(definition);
    return { ...request, header, payload, requestObject };
  }

  const identityAndMembership = () =>
    proofSchema([
      { schema: identity, claims: [["given_name", true]] },
      { schema: membership, claims: [["age", true]] },
    ]);

  describe("submission_requirements (PEX 2.0)", () => {
    it("credkit wallet: one request group per requirement; answering one of two alternatives → ACCEPTED", async () => {
      const request = await withSubmissionRequirements(
        await share(await identityAndMembership(), "did"),
        { input_0: ["A"], input_1: ["A"] },
        [{ name: "identity or membership", purpose: "one is enough", rule: "pick", count: 1, from: "A" }],
      );
      const { interactionId, proofId } = await handle(request.url);
      const definition = await walletDefinition(proofId);
      expect(definition.requestGroups).toHaveLength(1);
      const [group] = definition.requestGroups;
      expect(group).toMatchObject({
        id: "A",
        name: "identity or membership",
        purpose: "one is enough",
        rule: { type: "pick", count: 1 },
      });
      expect(group.requestedCredentials.map((r: { id: string }) => r.id)).toEqual(["input_0", "input_1"]);
      expect(group.requestedCredentials[0].applicableCredentials).toContain(walletIdentityId);
      expect(group.requestedCredentials[1].applicableCredentials).toEqual([]);

      const submitted = await walletApi("POST", "/api/interaction/v1/presentation-submit", {
        interactionId,
        submitCredentials: { input_0: { credentialId: walletIdentityId, submitClaims: [] } },
      });
      expect(submitted.status, submitted.text).toBe(204);
      const proof = await verifier.proof(request.proofId);
      expect(proof.state, proof.errorReason).toBe("ACCEPTED");
      expect(flatten(proof.proofInputs[0].claims)).toEqual({ given_name: "Erika" });
      expect(proof.proofInputs[1].claims).toEqual([]);
    });

    it("credkit wallet: nested requirements become one group each; a submission that misses one → BR_0291, nothing sent", async () => {
      const request = await withSubmissionRequirements(
        await share(await identityAndMembership(), "redirect_uri"),
        { input_0: ["ID"], input_1: ["MEMBER"] },
        [
          { rule: "all", from: "ID" },
          {
            name: "membership",
            rule: "pick",
            min: 1,
            from_nested: [{ rule: "all", from: "MEMBER" }],
          },
        ],
      );
      const { interactionId, proofId } = await handle(request.url);
      const definition = await walletDefinition(proofId);
      expect(
        definition.requestGroups.map((g: { id: string; rule: unknown; requestedCredentials: { id: string }[] }) => [
          g.id,
          g.rule,
          g.requestedCredentials.map((r) => r.id),
        ]),
      ).toEqual([
        ["ID", { type: "all" }, ["input_0"]],
        ["membership", { type: "pick", min: 1 }, ["input_1"]],
      ]);
      const refused = await walletApi("POST", "/api/interaction/v1/presentation-submit", {
        interactionId,
        submitCredentials: { input_0: { credentialId: walletIdentityId, submitClaims: [] } },
      });
      expect(refused.status).toBe(400);
      expect(refused.json.code).toBe("BR_0291");
      expect(refused.json.cause.message).toContain(
        'submission requirement "membership": needs at least 1, met 0 of 1 nested requirements: all from group MEMBER: answered 0 of 1 (input_1)',
      );
      expect((await verifier.proof(request.proofId)).state).toBe("PENDING");
      expect((await walletApi("GET", `/api/proof-request/v1/${proofId}`)).json.state).toBe("REQUESTED");
    });

    it("credkit wallet refuses a request whose submission_requirements are malformed (BR_0085)", async () => {
      const request = await withSubmissionRequirements(
        await share(await identityAndMembership(), "did"),
        { input_0: ["A"] },
        [{ rule: "pick", count: 1, from: "B" }],
      );
      const handled = await walletApi("POST", "/api/interaction/v1/handle-invitation", {
        url: request.url,
        organisationId: orgId,
      });
      expect(handled.status).toBe(400);
      expect(handled.json.code).toBe("BR_0085");
      expect(handled.json.cause.message).toContain("submission_requirements[0]: no input descriptor is in group B");
    });

    it("independent holder: answering the alternative the requirement allows → ACCEPTED", async () => {
      const request = await withSubmissionRequirements(
        await share(await identityAndMembership(), "redirect_uri"),
        { input_0: ["A"], input_1: ["A"] },
        [{ rule: "pick", count: 1, from: "A" }],
      );
      const presentation = await verifier.present(membershipCredential, { age: true }, kb(request));
      const response = await postResponse({
        vp_token: presentation,
        presentation_submission: submission(request, [{ id: "input_1", path: "$" }]),
        state: request.payload.state,
      });
      expect(response.status, response.text).toBe(200);
      const proof = await verifier.proof(request.proofId);
      expect(proof.state, proof.errorReason).toBe("ACCEPTED");
      expect(proof.proofInputs[0].claims).toEqual([]);
      expect(flatten(proof.proofInputs[1].claims)).toEqual({ age: 42 });
    });

    it("independent holder: too many alternatives (pick count 1) → ERROR with the unmet requirement", async () => {
      const request = await withSubmissionRequirements(
        await share(await identityAndMembership(), "did"),
        { input_0: ["A"], input_1: ["A"] },
        [{ rule: "pick", count: 1, from: "A" }],
      );
      const first = await verifier.present(credential, { given_name: true }, kb(request));
      const second = await verifier.present(membershipCredential, { age: true }, kb(request));
      await expectError(
        request,
        {
          vp_token: JSON.stringify([first, second]),
          presentation_submission: submission(request, [
            { id: "input_0", path: "$[0]" },
            { id: "input_1", path: "$[1]" },
          ]),
        },
        /^presentation_submission: submission requirement pick \(count 1\) from group A: needs exactly 1, answered 2 of 2 \(input_0, input_1\)$/,
      );
    });

    it("independent holder: a nested all requirement half answered → ERROR naming the missing group", async () => {
      const request = await withSubmissionRequirements(
        await share(await identityAndMembership(), "redirect_uri"),
        { input_0: ["X"], input_1: ["Y"] },
        [
          {
            name: "identity and membership",
            rule: "all",
            from_nested: [
              { rule: "all", from: "X" },
              { rule: "all", from: "Y" },
            ],
          },
        ],
      );
      const presentation = await verifier.present(credential, { given_name: true }, kb(request));
      await expectError(
        request,
        { vp_token: presentation, presentation_submission: submission(request, [{ id: "input_0", path: "$" }]) },
        /"identity and membership": met 1 of 2 nested requirements: all from group Y: answered 0 of 1 \(input_1\)/,
      );
    });
  });

  describe("direct_post.jwt (draft 20 §6.3)", () => {
    function expectEncryptionMetadata(request: Draft20Request) {
      expect(request.payload.response_mode).toBe("direct_post.jwt");
      const metadata = request.payload.client_metadata;
      expect(metadata).toMatchObject({
        authorization_encrypted_response_alg: "ECDH-ES",
        authorization_encrypted_response_enc: "A128GCM",
        vp_formats: { "vc+sd-jwt": expect.any(Object) },
      });
      expect(metadata.jwks.keys).toEqual([
        {
          kty: "EC",
          crv: "P-256",
          x: expect.any(String),
          y: expect.any(String),
          kid: request.payload.state,
          use: "enc",
          alg: "ECDH-ES",
        },
      ]);
    }

    /** the response parameters as a JWE to the request's key (as an independent wallet builds it) */
    async function encrypted(request: Draft20Request, parameters: Record<string, unknown>, jwk?: JWK) {
      const key = jwk ?? (request.payload.client_metadata.jwks.keys[0] as JWK);
      return new CompactEncrypt(new TextEncoder().encode(JSON.stringify(parameters)))
        .setProtectedHeader({ alg: "ECDH-ES", enc: "A128GCM", kid: request.payload.state })
        .encrypt(await importJWK({ ...key, kid: undefined }, "ECDH-ES"));
    }

    for (const scheme of ["redirect_uri", "did"] as const) {
      it(`${scheme}: the credkit wallet encrypts its response to the request's key → ACCEPTED`, async () => {
        const request = await share(
          await proofSchema([
            {
              schema: identity,
              claims: [
                ["given_name", true],
                ["age", false],
              ],
            },
          ]),
          scheme,
          DRAFT20,
          "direct_post.jwt",
        );
        expectEncryptionMetadata(request);
        const metadata = await fetch(
          `${verifier.baseUrl}/ssi/openid4vp/draft-20/${request.proofId}/client-metadata`,
        ).then((r) => r.json());
        expect(metadata).toEqual(request.payload.client_metadata);

        const { interactionId } = await handle(request.url);
        const submitted = await walletApi("POST", "/api/interaction/v1/presentation-submit", {
          interactionId,
          submitCredentials: { input_0: { credentialId: walletIdentityId, submitClaims: [] } },
        });
        expect(submitted.status, submitted.text).toBe(204);
        const proof = await verifier.proof(request.proofId);
        // the verifier refuses plain responses to a direct_post.jwt request: ACCEPTED means it was encrypted
        expect(proof.state, proof.errorReason).toBe("ACCEPTED");
        expect(flatten(proof.proofInputs[0].claims)).toEqual({ given_name: "Erika" });
      });
    }

    it("presentation-reject sends access_denied encrypted: both proofs end REJECTED", async () => {
      const request = await share(
        await proofSchema([{ schema: identity, claims: [["given_name", true]] }]),
        "did",
        DRAFT20,
        "direct_post.jwt",
      );
      const { interactionId, proofId } = await handle(request.url);
      const rejected = await walletApi("POST", "/api/interaction/v1/presentation-reject", { interactionId });
      expect(rejected.status, rejected.text).toBe(204);
      expect((await verifier.proof(request.proofId)).state).toBe("REJECTED");
      expect((await walletApi("GET", `/api/proof-request/v1/${proofId}`)).json.state).toBe("REJECTED");
    });

    it("independent holder: a JWE holding a vp_token array and the presentation_submission object → ACCEPTED", async () => {
      const request = await share(
        await proofSchema([
          { schema: identity, claims: [["given_name", true]] },
          { schema: membership, claims: [["age", true]] },
        ]),
        "redirect_uri",
        DRAFT20,
        "direct_post.jwt",
      );
      const first = await verifier.present(credential, { given_name: true }, kb(request));
      const second = await verifier.present(membershipCredential, { age: true }, kb(request));
      const response = await postResponse({
        response: await encrypted(request, {
          vp_token: [first, second],
          presentation_submission: JSON.parse(
            submission(request, [
              { id: "input_0", path: "$[0]" },
              { id: "input_1", path: "$[1]" },
            ]),
          ),
          state: request.payload.state,
        }),
      });
      expect(response.status, response.text).toBe(200);
      const proof = await verifier.proof(request.proofId);
      expect(proof.state, proof.errorReason).toBe("ACCEPTED");
      expect(flatten(proof.proofInputs[1].claims)).toEqual({ age: 42 });
    });

    it("an unreadable or misdirected JWE, or a plain response → 400 invalid_request and nothing changes", async () => {
      const request = await share(
        await proofSchema([{ schema: identity, claims: [["given_name", true]] }]),
        "did",
        DRAFT20,
        "direct_post.jwt",
      );
      const presentation = await verifier.present(credential, { given_name: true }, kb(request));
      const parameters = {
        vp_token: presentation,
        presentation_submission: JSON.parse(submission(request, [{ id: "input_0", path: "$" }])),
        state: request.payload.state,
      };
      const stranger = { ...(await exportJWK((await generateKeyPair("ECDH-ES", { crv: "P-256" })).publicKey)) };
      const valid = await encrypted(request, parameters);
      // ECDH-ES (direct key agreement) has no encrypted key: spoil the authentication tag instead
      const [protectedHeader, , iv, ciphertext, tag] = valid.split(".");
      const spoiledTag = `${tag!.startsWith("A") ? "B" : "A"}${tag!.slice(1)}`;
      const cases: [Record<string, string>, RegExp][] = [
        [{ response: "not-a-jwe" }, /not a JWE/],
        [{ response: await encrypted(request, parameters, stranger) }, /could not be decrypted/],
        [{ response: `${protectedHeader}..${iv}.${ciphertext}.${spoiledTag}` }, /could not be decrypted/],
        [{ response: await encrypted(request, { ...parameters, state: randomUUID() }) }, /state does not match/],
        [
          {
            vp_token: presentation,
            presentation_submission: JSON.stringify(parameters.presentation_submission),
            state: request.payload.state,
          },
          /must be encrypted/,
        ],
      ];
      for (const [form, reason] of cases) {
        const response = await postResponse(form);
        expect(response.status, JSON.stringify(form).slice(0, 80)).toBe(400);
        expect(response.body.error).toBe("invalid_request");
        expect(response.body.error_description).toMatch(reason);
      }
      const untouched = await verifier.proof(request.proofId);
      expect(untouched.state).toBe("PENDING");
      expect(untouched.errorReason).toBeUndefined();
      expect((await verifier.history(request.proofId)).map((h) => h.action)).not.toContain("ERRORED");
      const answered = await postResponse({ response: valid });
      expect(answered.status, answered.text).toBe(200);
      expect((await verifier.proof(request.proofId)).state).toBe("ACCEPTED");
    });
  });

  describe("presentation_definition_uri (draft 20 §5.1)", () => {
    it("protocol config: the definition by reference and direct_post.jwt; the credkit wallet fetches it → ACCEPTED", async () => {
      const request = await share(
        await proofSchema([
          {
            schema: identity,
            claims: [
              ["given_name", true],
              ["address/street", false],
            ],
          },
        ]),
        "did",
        DRAFT20_JWT_BY_REFERENCE,
      );
      const definitionUri = `${verifier.baseUrl}/ssi/openid4vp/draft-20/${request.proofId}/presentation-definition`;
      expect(request.payload.presentation_definition_uri).toBe(definitionUri);
      expect(request.payload.presentation_definition).toBeUndefined();
      expect(request.payload.response_mode).toBe("direct_post.jwt");
      const served = await fetch(definitionUri);
      expect(served.status).toBe(200);
      const definition = await served.json();
      expect(definition.id).toBe(request.payload.state);
      expect(definition.input_descriptors.map((d: { id: string }) => d.id)).toEqual(["input_0"]);

      const { interactionId, proofId } = await handle(request.url);
      const listed = await walletDefinition(proofId);
      const requested = listed.requestGroups[0].requestedCredentials[0];
      expect(requested.applicableCredentials).toContain(walletIdentityId);
      const street = requested.fields.find((f: { name: string }) => f.name === "address/street").id;
      const submitted = await walletApi("POST", "/api/interaction/v1/presentation-submit", {
        interactionId,
        submitCredentials: { input_0: { credentialId: walletIdentityId, submitClaims: [street] } },
      });
      expect(submitted.status, submitted.text).toBe(204);
      const proof = await verifier.proof(request.proofId);
      expect(proof.state, proof.errorReason).toBe("ACCEPTED");
      expect(flatten(proof.proofInputs[0].claims)).toEqual({
        given_name: "Erika",
        "address/street": "Heidestraße 17",
      });
      // answered: the definition is not served any more
      expect((await fetch(definitionUri)).status).toBe(404);
    });

    it("credkit wallet: an unreachable definition (404 → BR_0395) or both by value and by reference (BR_0085)", async () => {
      const responseUri = `${verifier.baseUrl}/ssi/openid4vp/draft-20/response`;
      const byValue = (extra: Record<string, string>) =>
        `openid4vp-draft20://?${new URLSearchParams({
          client_id: responseUri,
          client_id_scheme: "redirect_uri",
          response_type: "vp_token",
          response_mode: "direct_post",
          response_uri: responseUri,
          nonce: randomUUID(),
          state: randomUUID(),
          ...extra,
        })}`;
      const missing = `${verifier.baseUrl}/ssi/openid4vp/draft-20/${randomUUID()}/presentation-definition`;
      const unreachable = await walletApi("POST", "/api/interaction/v1/handle-invitation", {
        url: byValue({ presentation_definition_uri: missing }),
        organisationId: orgId,
      });
      expect(unreachable.status).toBe(400);
      expect(unreachable.json.code).toBe("BR_0395");
      expect(unreachable.json.cause.message).toContain(`presentation definition: GET ${missing} answered HTTP 404`);
      const both = await walletApi("POST", "/api/interaction/v1/handle-invitation", {
        url: byValue({
          presentation_definition_uri: missing,
          presentation_definition: JSON.stringify({ id: "x", input_descriptors: [{ id: "a", constraints: {} }] }),
        }),
        organisationId: orgId,
      });
      expect(both.status).toBe(400);
      expect(both.json.code).toBe("BR_0085");
      expect(both.json.cause.message).toContain("both presentation_definition and presentation_definition_uri");
    });
  });
});
