/**
 * OpenID4VP draft 20 with DIF Presentation Exchange 2.0 (reference §3.7 v1 presentation definition, §3.8 v1
 * presentation-submit, §4.2 draft-20 endpoints), over real loopback HTTP: credkit's wallet ↔ credkit's verifier for
 * both client_id schemes (redirect_uri, did), and an independent holder (fetch, jose, @sd-jwt/sd-jwt-vc, a
 * hand-written presentation_submission) against the verifier, with the negative cases ending in ERROR with a reason.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { compactVerify, importJWK, type JWK } from "jose";
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
    verifier = await startVerifierFixture({ revocation: true });
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
  ): Promise<Draft20Request> {
    const created = await verifier.api("POST", "/api/proof-request/v1", {
      proofSchemaId,
      protocol,
      verifier: verifier.verifierIdentifierId,
    });
    expect(created.status, created.text).toBe(201);
    const proofId = created.json.id as string;
    const shared = await verifier.api("POST", `/api/proof-request/v1/${proofId}/share`, { params: { clientIdScheme } });
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
        [withScheme("x509_san_dns"), "unsupported client_id_scheme"],
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
});
