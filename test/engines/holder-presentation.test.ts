/**
 * Wallet presentations (OpenID4VP 1.0), credkit ↔ credkit over real loopback HTTP: an issuer kit (which is also the
 * verifier) issues SD-JWT VCs to a wallet kit; the verifier shares proof requests with the redirect_uri and
 * decentralized_identifier client_id prefixes, in direct_post and direct_post.jwt; the wallet reads the presentation
 * definition, presents (or rejects) through its management API, and the verifier's proof detail shows what arrived.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Credkit } from "../../src/credkit.js";
import { credkitNode } from "../../src/http/mount.js";
import type { Storage } from "../../src/ports/storage.js";
import { memoryStorage } from "../../src/storage/memory/index.js";
import { sqliteStorage } from "../../src/storage/sql/sqlite.js";
import { createTestKit } from "../../src/testing/create-test-kit.js";
import { createApiClient } from "../support/http-harness.js";
import { type IssuerFixture, type SchemaHandle, startIssuerFixture } from "../support/issuer-fixture.js";
import { createTempDir } from "../support/temp-dir.js";

const INSECURE = { app: { http: { allowInsecureHttpTransport: true } } };
const PROTOCOL = "OPENID4VP_FINAL1";

interface ClaimJson {
  path: string;
  value: unknown;
  userSelection?: boolean;
  required?: boolean;
}

async function listen(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

function close(server: Server | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (!server) return resolve();
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

/** `{path: value}` of a claim tree (leaves only), as the proof / credential detail shows it. */
function flatten(claims: ClaimJson[], out: Record<string, unknown> = {}): Record<string, unknown> {
  for (const claim of claims) {
    if (Array.isArray(claim.value)) flatten(claim.value as ClaimJson[], out);
    else out[claim.path] = claim.value;
  }
  return out;
}

function findClaim(claims: ClaimJson[], path: string): ClaimJson | undefined {
  for (const claim of claims) {
    if (claim.path === path) return claim;
    if (Array.isArray(claim.value)) {
      const found = findClaim(claim.value as ClaimJson[], path);
      if (found) return found;
    }
  }
  return undefined;
}

/** the wallet's storage: the engine must work the same on every adapter */
const WALLET_STORAGES: { name: string; open: () => Promise<{ storage: Storage; dispose: () => void }> }[] = [
  { name: "memory", open: async () => ({ storage: memoryStorage(), dispose: () => {} }) },
  {
    name: "sqlite",
    open: async () => {
      const dir = createTempDir();
      return { storage: await sqliteStorage(`${dir.path}/wallet.db`), dispose: dir.remove };
    },
  },
];

describe.each(WALLET_STORAGES)(
  "wallet presentations over OpenID4VP 1.0 (credkit wallet on $name storage ↔ credkit verifier)",
  (walletStorage) => {
    let issuer: IssuerFixture;
    let wallet: Credkit;
    let disposeStorage: (() => void) | undefined;
    let walletServer: Server;
    let walletApi: ReturnType<typeof createApiClient>;
    let orgId: string;
    let keyId: string;
    let identityCredentialId: string;
    /** a schema with revocation: its only wallet credential gets revoked */
    let revocable: SchemaHandle;
    let revocableWalletCredentialId: string;
    let revocableIssuerCredentialId: string;
    const servers: Server[] = [];

    async function receive(schema: SchemaHandle, claims?: Record<string, unknown>) {
      const offer = await schema.createOffer(claims);
      const { interactionId } = await wallet.holder.handleInvitation({ url: offer.url, organisationId: orgId });
      const { id } = await wallet.holder.acceptIssuance({ interactionId, keyId });
      return { walletCredentialId: id, issuerCredentialId: offer.credentialId };
    }

    async function createProofSchema(inputs: { schema: SchemaHandle; claims: [string, boolean][] }[]) {
      const response = await issuer.api("POST", "/api/proof-schema/v1", {
        name: `proof ${randomUUID()}`,
        organisationId: issuer.organisationId,
        proofInputSchemas: inputs.map(({ schema, claims }) => ({
          credentialSchemaId: schema.id,
          claimSchemas: claims.map(([path, required]) => ({ id: schema.claimIds[path], required })),
        })),
      });
      expect(response.status, response.text).toBe(201);
      return response.json.id as string;
    }

    /** creates and shares a proof request; answers the verifier's proof id and the openid4vp:// URL */
    async function requestProof(
      proofSchemaId: string,
      params: { clientIdScheme?: string; responseMode?: string } = {},
    ): Promise<{ proofId: string; url: string }> {
      const created = await issuer.api("POST", "/api/proof-request/v1", {
        proofSchemaId,
        protocol: PROTOCOL,
        verifier: issuer.didIdentifierId,
      });
      expect(created.status, created.text).toBe(201);
      const proofId = created.json.id as string;
      const shared = await issuer.api("POST", `/api/proof-request/v1/${proofId}/share`, { params });
      expect(shared.status, shared.text).toBe(201);
      return { proofId, url: shared.json.url as string };
    }

    async function handle(url: string) {
      const response = await walletApi("POST", "/api/interaction/v1/handle-invitation", { url, organisationId: orgId });
      return response;
    }

    async function verifierProof(proofId: string) {
      const response = await issuer.api("GET", `/api/proof-request/v1/${proofId}`);
      expect(response.status).toBe(200);
      return response.json;
    }

    beforeAll(async () => {
      issuer = await startIssuerFixture({ config: INSECURE });
      revocable = await issuer.addSchema({ name: "Revocable", revocation: true });
      const opened = await walletStorage.open();
      disposeStorage = opened.dispose;
      wallet = await createTestKit({ config: INSECURE, storage: opened.storage });
      const mounted = await listen(credkitNode(wallet));
      walletServer = mounted.server;
      walletApi = createApiClient(mounted.url);
      orgId = (await wallet.organisations.create({ name: `wallet ${randomUUID()}` })).id;
      keyId = (
        await wallet.keys.create({
          organisationId: orgId,
          keyType: "EDDSA",
          keyParams: {},
          name: "holder key",
          storageType: "INTERNAL",
          storageParams: {},
        })
      ).id;
      identityCredentialId = (await receive(issuer.schema)).walletCredentialId;
      const revoked = await receive(revocable);
      revocableWalletCredentialId = revoked.walletCredentialId;
      revocableIssuerCredentialId = revoked.issuerCredentialId;
    });

    afterAll(async () => {
      for (const server of servers) await close(server);
      await close(walletServer);
      await wallet?.close();
      await wallet?.storage.close();
      disposeStorage?.();
      await issuer?.close();
    });

    const modes = [
      { clientIdScheme: "redirect_uri", responseMode: "direct_post" },
      { clientIdScheme: "redirect_uri", responseMode: "direct_post.jwt" },
      { clientIdScheme: "decentralized_identifier", responseMode: "direct_post" },
      { clientIdScheme: "decentralized_identifier", responseMode: "direct_post.jwt" },
    ];

    for (const params of modes) {
      it(`presents exactly the requested claims: ${params.clientIdScheme}, ${params.responseMode}`, async () => {
        const proofSchemaId = await createProofSchema([
          {
            schema: issuer.schema,
            claims: [
              ["given_name", true],
              ["address/street", true],
            ],
          },
        ]);
        const { proofId: verifierProofId, url } = await requestProof(proofSchemaId, params);
        expect(url).toMatch(/^openid4vp:\/\/\?client_id=/);
        expect(decodeURIComponent(url)).toContain(`client_id=${params.clientIdScheme}:`);

        const handled = await handle(url);
        expect(handled.status, handled.text).toBe(201);
        expect(handled.json).toEqual({
          interactionId: expect.any(String),
          interactionType: "VERIFICATION",
          proofId: expect.any(String),
          protocol: PROTOCOL,
        });
        const { interactionId, proofId } = handled.json;

        const holderProof = await walletApi("GET", `/api/proof-request/v1/${proofId}`);
        expect(holderProof.status).toBe(200);
        expect(holderProof.json).toMatchObject({
          role: "HOLDER",
          state: "REQUESTED",
          protocol: PROTOCOL,
          transport: "HTTP",
        });
        expect(holderProof.json.requestedDate).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

        const definition = await walletApi("GET", `/api/proof-request/v2/${proofId}/presentation-definition`);
        expect(definition.status, definition.text).toBe(200);
        expect(definition.json.credentialSets).toEqual([{ required: true, options: [["input_0"]] }]);
        const query = definition.json.credentialQueries.input_0;
        expect(query.multiple).toBe(false);
        const applicable = query.applicableCredentials.map((c: { id: string }) => c.id);
        expect(applicable).toContain(identityCredentialId);
        const detail = query.applicableCredentials.find((c: { id: string }) => c.id === identityCredentialId);
        expect(detail).toMatchObject({ role: "HOLDER", state: "ACCEPTED", schema: { id: expect.any(String) } });
        expect(findClaim(detail.claims, "given_name")).toMatchObject({ required: true, userSelection: false });
        expect(findClaim(detail.claims, "address")).toMatchObject({ required: true });
        expect(findClaim(detail.claims, "address/street")).toMatchObject({ required: true, userSelection: false });
        expect(findClaim(detail.claims, "address/city")).toMatchObject({ required: false, userSelection: false });
        expect(findClaim(detail.claims, "age")).toMatchObject({ required: false, userSelection: false });

        const submitted = await walletApi("POST", "/api/interaction/v2/presentation-submit", {
          interactionId,
          submission: { input_0: { credentialId: identityCredentialId } },
        });
        expect(submitted.status, submitted.text).toBe(204);

        const verified = await verifierProof(verifierProofId);
        expect(verified.state, verified.errorReason).toBe("ACCEPTED");
        expect(flatten(verified.proofInputs[0].claims)).toEqual({
          given_name: "Erika",
          "address/street": "Heidestraße 17",
        });
        const holderAfter = await walletApi("GET", `/api/proof-request/v1/${proofId}`);
        expect(holderAfter.json.state).toBe("ACCEPTED");
        expect(holderAfter.json.completedDate).toBeTypeOf("string");

        // answered: a second submit and a reject are refused
        const again = await walletApi("POST", "/api/interaction/v2/presentation-submit", {
          interactionId,
          submission: { input_0: { credentialId: identityCredentialId } },
        });
        expect(again.status).toBe(400);
        expect(again.json.code).toBe("BR_0013");
      });
    }

    it("discloses optional claims only when the user selects them", async () => {
      const proofSchemaId = await createProofSchema([
        {
          schema: issuer.schema,
          claims: [
            ["given_name", true],
            ["age", false],
            ["nationalities", false],
          ],
        },
      ]);
      for (const selections of [[], ["age"], ["age", "nationalities"]]) {
        const { proofId: verifierProofId, url } = await requestProof(proofSchemaId, { clientIdScheme: "redirect_uri" });
        const { interactionId, proofId } = (await handle(url)).json;
        const definition = await walletApi("GET", `/api/proof-request/v2/${proofId}/presentation-definition`);
        const detail = definition.json.credentialQueries.input_0.applicableCredentials.find(
          (c: { id: string }) => c.id === identityCredentialId,
        );
        expect(findClaim(detail.claims, "given_name")).toMatchObject({ required: true, userSelection: false });
        expect(findClaim(detail.claims, "age")).toMatchObject({ required: false, userSelection: true });
        expect(findClaim(detail.claims, "nationalities")).toMatchObject({ required: false, userSelection: true });
        expect(findClaim(detail.claims, "nationalities/0")).toMatchObject({ required: false, userSelection: true });
        expect(findClaim(detail.claims, "address/street")).toMatchObject({ required: false, userSelection: false });

        const submitted = await walletApi("POST", "/api/interaction/v2/presentation-submit", {
          interactionId,
          submission: { input_0: { credentialId: identityCredentialId, userSelections: selections } },
        });
        expect(submitted.status, submitted.text).toBe(204);
        const received = flatten((await verifierProof(verifierProofId)).proofInputs[0].claims);
        const expected: Record<string, unknown> = { given_name: "Erika" };
        if (selections.includes("age")) expected.age = 42;
        if (selections.includes("nationalities"))
          Object.assign(expected, { "nationalities/0": "DE", "nationalities/1": "FR" });
        expect(received).toEqual(expected);
      }
    });

    it("refuses a userSelection the request does not ask for, and a missing required query (BR_0291)", async () => {
      const proofSchemaId = await createProofSchema([{ schema: issuer.schema, claims: [["given_name", true]] }]);
      const { url } = await requestProof(proofSchemaId, { clientIdScheme: "redirect_uri" });
      const { interactionId, proofId } = (await handle(url)).json;
      const outside = await walletApi("POST", "/api/interaction/v2/presentation-submit", {
        interactionId,
        submission: { input_0: { credentialId: identityCredentialId, userSelections: ["age"] } },
      });
      expect(outside.status).toBe(400);
      expect(outside.json.code).toBe("BR_0291");
      const unknownQuery = await walletApi("POST", "/api/interaction/v2/presentation-submit", {
        interactionId,
        submission: { other: { credentialId: identityCredentialId } },
      });
      expect(unknownQuery.json.code).toBe("BR_0291");
      const nothing = await walletApi("POST", "/api/interaction/v2/presentation-submit", {
        interactionId,
        submission: {},
      });
      expect(nothing.json.code).toBe("BR_0246");
      // a credential of another schema does not satisfy the query
      const wrong = await walletApi("POST", "/api/interaction/v2/presentation-submit", {
        interactionId,
        submission: { input_0: { credentialId: revocableWalletCredentialId } },
      });
      expect(wrong.json.code).toBe("BR_0291");
      // nothing was sent: the proof is still open
      expect((await walletApi("GET", `/api/proof-request/v1/${proofId}`)).json.state).toBe("REQUESTED");
    });

    it("requires every credential query: two inputs, one answered → BR_0291", async () => {
      const proofSchemaId = await createProofSchema([
        { schema: issuer.schema, claims: [["given_name", true]] },
        { schema: revocable, claims: [["given_name", true]] },
      ]);
      const { proofId: verifierProofId, url } = await requestProof(proofSchemaId, { clientIdScheme: "redirect_uri" });
      const { interactionId, proofId } = (await handle(url)).json;
      const definition = (await walletApi("GET", `/api/proof-request/v2/${proofId}/presentation-definition`)).json;
      expect(definition.credentialSets).toEqual([
        { required: true, options: [["input_0"]] },
        { required: true, options: [["input_1"]] },
      ]);
      const partial = await walletApi("POST", "/api/interaction/v2/presentation-submit", {
        interactionId,
        submission: { input_0: { credentialId: identityCredentialId } },
      });
      expect(partial.status).toBe(400);
      expect(partial.json.code).toBe("BR_0291");
      expect(partial.json.cause.message).toContain("input_1");
      const complete = await walletApi("POST", "/api/interaction/v2/presentation-submit", {
        interactionId,
        submission: {
          input_0: [{ credentialId: identityCredentialId }],
          input_1: { credentialId: revocableWalletCredentialId },
        },
      });
      expect(complete.status, complete.text).toBe(204);
      expect((await verifierProof(verifierProofId)).state).toBe("ACCEPTED");
    });

    it("uses the /v2 endpoints for OpenID4VP 1.0: v1 presentation-definition and submit → BR_0292", async () => {
      const proofSchemaId = await createProofSchema([{ schema: issuer.schema, claims: [["given_name", true]] }]);
      const { proofId: verifierProofId, url } = await requestProof(proofSchemaId, { clientIdScheme: "redirect_uri" });
      const { interactionId, proofId } = (await handle(url)).json;
      const v1 = await walletApi("GET", `/api/proof-request/v1/${proofId}/presentation-definition`);
      expect(v1.status).toBe(400);
      expect(v1.json.code).toBe("BR_0292");
      const submitV1 = await walletApi("POST", "/api/interaction/v1/presentation-submit", {
        interactionId,
        submitCredentials: { input_0: { credentialId: identityCredentialId, submitClaims: [] } },
      });
      expect(submitV1.status).toBe(400);
      expect(submitV1.json.code).toBe("BR_0292");
      // a verifier-side proof has no presentation definition
      const verifierSide = await issuer.api("GET", `/api/proof-request/v2/${verifierProofId}/presentation-definition`);
      expect(verifierSide.status).toBe(400);
      expect(verifierSide.json.code).toBe("BR_0198");
      const missing = await walletApi("GET", `/api/proof-request/v2/${randomUUID()}/presentation-definition`);
      expect(missing.status).toBe(404);
      expect(missing.json.code).toBe("BR_0012");
      const unknown = await walletApi("POST", "/api/interaction/v1/presentation-reject", {
        interactionId: randomUUID(),
      });
      expect(unknown.status).toBe(404);
      expect(unknown.json.code).toBe("BR_0257");
    });

    it("rejects: the verifier's proof ends REJECTED, the wallet's too", async () => {
      const proofSchemaId = await createProofSchema([{ schema: issuer.schema, claims: [["given_name", true]] }]);
      const { proofId: verifierProofId, url } = await requestProof(proofSchemaId, {
        clientIdScheme: "decentralized_identifier",
        responseMode: "direct_post",
      });
      const { interactionId, proofId } = (await handle(url)).json;
      const rejected = await walletApi("POST", "/api/interaction/v1/presentation-reject", { interactionId });
      expect(rejected.status, rejected.text).toBe(204);
      expect((await verifierProof(verifierProofId)).state).toBe("REJECTED");
      expect((await walletApi("GET", `/api/proof-request/v1/${proofId}`)).json.state).toBe("REJECTED");
      const history = await wallet.history.list({ organisationId: orgId, page: 0, pageSize: 50, entityIds: [proofId] });
      expect(history.values.map((event) => event.action).sort()).toEqual(["REJECTED", "REQUESTED"]);
    });

    it("ends the wallet proof in ERROR when the verifier refuses the response", async () => {
      const proofSchemaId = await createProofSchema([{ schema: issuer.schema, claims: [["given_name", true]] }]);
      const { proofId: verifierProofId, url } = await requestProof(proofSchemaId, { clientIdScheme: "redirect_uri" });
      const { interactionId, proofId } = (await handle(url)).json;
      // the verifier withdraws the request before the wallet answers
      expect((await issuer.api("DELETE", `/api/proof-request/v1/${verifierProofId}`)).status).toBe(204);
      const submitted = await walletApi("POST", "/api/interaction/v2/presentation-submit", {
        interactionId,
        submission: { input_0: { credentialId: identityCredentialId } },
      });
      expect(submitted.status).toBe(400);
      expect(submitted.json.code).toBe("BR_0395");
      const holderProof = (await walletApi("GET", `/api/proof-request/v1/${proofId}`)).json;
      expect(holderProof.state).toBe("ERROR");
      expect(holderProof.errorReason).toContain("HTTP 400");
    });

    it("refuses a request object whose signature does not verify (BR_0085)", async () => {
      const proofSchemaId = await createProofSchema([{ schema: issuer.schema, claims: [["given_name", true]] }]);
      const { url } = await requestProof(proofSchemaId, { clientIdScheme: "decentralized_identifier" });
      const requestUri = new URL(url).searchParams.get("request_uri")!;
      // a proxy that serves the verifier's request object with a changed nonce and the original signature
      const proxy = await listen(async (_req, res) => {
        const original = await (await fetch(requestUri)).text();
        const [header, payload, signature] = original.split(".") as [string, string, string];
        const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
        claims.nonce = "attacker-chosen-nonce";
        const tampered = `${header}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.${signature}`;
        res.writeHead(200, { "content-type": "application/oauth-authz-req+jwt" }).end(tampered);
      });
      servers.push(proxy.server);
      const tamperedUrl = new URL(url);
      tamperedUrl.searchParams.set("request_uri", `${proxy.url}/request`);
      const handled = await handle(tamperedUrl.toString());
      expect(handled.status).toBe(400);
      expect(handled.json.code).toBe("BR_0085");
      expect(handled.json.cause.message).toContain("signature does not verify");
      // the untampered request is fine
      expect((await handle(url)).status).toBe(201);
    });

    it("refuses requests it cannot authenticate or answer (BR_0085)", async () => {
      const proofSchemaId = await createProofSchema([{ schema: issuer.schema, claims: [["given_name", true]] }]);
      const { proofId, url } = await requestProof(proofSchemaId, { clientIdScheme: "redirect_uri" });
      // redirect_uri requests travel by value; the same request object is served at client-request
      const requestUri = `${new URL(new URL(url).searchParams.get("response_uri")!).origin}/ssi/openid4vp/final-1.0/${proofId}/client-request`;
      const clientId = new URL(url).searchParams.get("client_id")!;
      const cases: [string, string][] = [
        [
          `openid4vp://?client_id=${encodeURIComponent(`openid_federation:https://verifier.example`)}&request_uri=${encodeURIComponent(requestUri)}`,
          "unsupported client_id prefix",
        ],
        // a prefix the wallet supports, but whose requests must be signed (x509, see verification-client-id-prefixes)
        [
          `openid4vp://?client_id=${encodeURIComponent(`x509_san_dns:verifier.example`)}&request_uri=${encodeURIComponent(requestUri)}`,
          "must be signed",
        ],
        [
          `openid4vp://?client_id=verifier&request_uri=${encodeURIComponent(requestUri)}`,
          "unsupported client_id prefix",
        ],
        // the URL's client_id must be the request object's
        [
          `openid4vp://?client_id=${encodeURIComponent("redirect_uri:https://elsewhere.example/cb")}&request_uri=${encodeURIComponent(requestUri)}`,
          "client_id",
        ],
        [`openid4vp://?request_uri=${encodeURIComponent(requestUri)}`, "no client_id"],
        [
          `openid4vp://?client_id=${encodeURIComponent(clientId)}&request_uri=${encodeURIComponent(requestUri)}&request_uri_method=PUT`,
          "request_uri_method",
        ],
      ];
      for (const [bad, reason] of cases) {
        const handled = await handle(bad);
        expect(handled.status, bad).toBe(400);
        expect(handled.json.code, bad).toBe("BR_0085");
        expect(handled.json.cause.message, bad).toContain(reason);
      }
      // by value: Presentation Exchange is not supported, and redirect_uri requests must not be signed
      const responseUri = clientId.slice("redirect_uri:".length);
      const byValue = (extra: Record<string, string>) =>
        `haip-vp://?${new URLSearchParams({
          client_id: clientId,
          response_type: "vp_token",
          response_mode: "direct_post",
          response_uri: responseUri,
          nonce: "n-0S6_WzA2Mj",
          ...extra,
        })}`;
      const pex = await handle(
        byValue({ presentation_definition: JSON.stringify({ id: "pd", input_descriptors: [] }) }),
      );
      expect(pex.json.code).toBe("BR_0085");
      expect(pex.json.cause.message).toContain("Presentation Exchange");
      const noQuery = await handle(byValue({}));
      expect(noQuery.json.code).toBe("BR_0085");
      expect(noQuery.json.cause.message).toContain("dcql_query");
      const dcql = JSON.stringify({
        credentials: [
          {
            id: "q",
            format: "dc+sd-jwt",
            meta: { vct_values: [issuer.schema.vct] },
            claims: [{ path: ["given_name"] }],
          },
        ],
      });
      const wrongResponseUri = await handle(
        byValue({ dcql_query: dcql, response_uri: "https://elsewhere.example/cb" }),
      );
      expect(wrongResponseUri.json.code).toBe("BR_0085");
      expect(wrongResponseUri.json.cause.message).toContain("response_uri must equal");
      const badQuery = await handle(byValue({ dcql_query: JSON.stringify({ credentials: [] }) }));
      expect(badQuery.json.code).toBe("BR_0083");
      // decentralized_identifier requests must be signed; redirect_uri requests must not be
      const didByValue = await handle(
        byValue({ dcql_query: dcql, client_id: `decentralized_identifier:${issuer.did}` }),
      );
      expect(didByValue.json.code).toBe("BR_0085");
      expect(didByValue.json.cause.message).toContain("must be a signed request object");
      const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
      const signedJar = `${encode({ alg: "ES256", typ: "oauth-authz-req+jwt" })}.${encode({ client_id: clientId })}.${encode({ sig: 1 })}`;
      const signedRedirect = await handle(
        `openid4vp://?${new URLSearchParams({ client_id: clientId, request: signedJar })}`,
      );
      expect(signedRedirect.json.code).toBe("BR_0085");
      expect(signedRedirect.json.cause.message).toContain("must not be signed");
      // a well-formed unsigned request by value is accepted (any scheme)
      const plain = await handle(byValue({ dcql_query: dcql, state: "s-1" }));
      expect(plain.status, plain.text).toBe(201);
      expect(plain.json.interactionType).toBe("VERIFICATION");
    });

    it("presents only valid credentials: a revoked one is a VALIDITY failure and BR_0099 at submit", async () => {
      expect((await issuer.api("POST", `/api/credential/v1/${revocableIssuerCredentialId}/revoke`)).status).toBe(204);
      const [checked] = await wallet.holder.checkRevocation({ credentialIds: [revocableWalletCredentialId] });
      expect(checked?.status).toBe("REVOKED");

      const proofSchemaId = await createProofSchema([{ schema: revocable, claims: [["given_name", true]] }]);
      const { url } = await requestProof(proofSchemaId, { clientIdScheme: "redirect_uri" });
      const { interactionId, proofId } = (await handle(url)).json;
      const definition = (await walletApi("GET", `/api/proof-request/v2/${proofId}/presentation-definition`)).json;
      expect(definition.credentialQueries.input_0).toEqual({
        multiple: false,
        failureHint: { reason: "VALIDITY", credentialSchema: expect.objectContaining({ schemaId: revocable.vct }) },
      });
      const submitted = await walletApi("POST", "/api/interaction/v2/presentation-submit", {
        interactionId,
        submission: { input_0: { credentialId: revocableWalletCredentialId } },
      });
      expect(submitted.status).toBe(400);
      expect(submitted.json.code).toBe("BR_0099");

      // a vct the wallet never received
      const unknownSchema = await issuer.addSchema({ name: "Never issued" });
      const otherSchemaId = await createProofSchema([{ schema: unknownSchema, claims: [["given_name", true]] }]);
      const other = (await handle((await requestProof(otherSchemaId, { clientIdScheme: "redirect_uri" })).url)).json;
      const none = (await walletApi("GET", `/api/proof-request/v2/${other.proofId}/presentation-definition`)).json;
      expect(none.credentialQueries.input_0).toEqual({ multiple: false, failureHint: { reason: "NO_CREDENTIAL" } });
    });
  },
);
