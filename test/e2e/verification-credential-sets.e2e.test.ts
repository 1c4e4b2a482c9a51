import { DcqlPresentationResult, DcqlQuery } from "dcql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SchemaHandle } from "../support/issuer-fixture.js";
import {
  type IssuedCredential,
  type ProofInputSpec,
  startVerifierFixture,
  type VerifierFixture,
} from "../support/verifier-fixture.js";

// Proof schemas with alternatives between their inputs (credkit extension `credentialSets`), sent as DCQL
// `credential_sets` (OpenID4VP 1.0 §6.2) and enforced on the response (§8.1): "a PID or a membership card", optional
// sets, and inputs outside every set staying required. The holder is independent (fetch + @sd-jwt/sd-jwt-vc), the
// query is checked with the `dcql` library.

describe("OpenID4VP 1.0 verifier: alternatives between proof inputs (credential_sets)", () => {
  let verifier: VerifierFixture;
  let identity: SchemaHandle;
  let membership: SchemaHandle;
  let identityCredential: IssuedCredential;
  let membershipCredential: IssuedCredential;

  beforeAll(async () => {
    verifier = await startVerifierFixture();
    identity = verifier.issuer.schema;
    membership = await verifier.issuer.addSchema({ name: "Membership card" });
    identityCredential = await verifier.issueCredential();
    membershipCredential = await verifier.issueCredential({ schema: membership });
  });
  afterAll(async () => {
    await verifier?.close();
  });

  const identityInput = (): ProofInputSpec => ({ schema: identity, claims: [{ path: "given_name", required: true }] });
  const membershipInput = (): ProofInputSpec => ({
    schema: membership,
    claims: [{ path: "given_name", required: true }],
  });

  async function share(credentialSets: { options: number[][]; required?: boolean }[]) {
    const schemaId = await verifier.createProofSchema([identityInput(), membershipInput()], { credentialSets });
    const proofId = await verifier.createProofRequest(schemaId);
    return verifier.share(proofId);
  }

  it("stores the alternatives, shows them on the proof schema and sends them as credential_sets", async () => {
    const schemaId = await verifier.createProofSchema([identityInput(), membershipInput()], {
      credentialSets: [{ options: [[0], [1]] }],
    });
    const detail = await verifier.api("GET", `/api/proof-schema/v1/${schemaId}`);
    expect(detail.json.credentialSets).toEqual([{ options: [[identity.id], [membership.id]], required: true }]);
    const request = await verifier.share(await verifier.createProofRequest(schemaId));
    const query = request.payload.dcql_query as unknown as DcqlQuery.Input;
    expect(query.credential_sets).toEqual([{ options: [["input_0"], ["input_1"]], required: true }]);
    // the query is valid DCQL for an independent implementation
    const parsed = DcqlQuery.parse(query);
    DcqlQuery.validate(parsed);
  });

  it("accepts either alternative, and dcql agrees the submission satisfies the query", async () => {
    for (const [queryId, credential] of [
      ["input_0", () => identityCredential],
      ["input_1", () => membershipCredential],
    ] as const) {
      const request = await share([{ options: [[0], [1]] }]);
      const presentation = await verifier.present(credential(), { given_name: true }, verifier.keyBindingFor(request));
      const dcqlResult = DcqlPresentationResult.fromDcqlPresentation(
        {
          [queryId]: [
            {
              credential_format: "dc+sd-jwt",
              vct: credential().vct,
              claims: { given_name: "x" },
              cryptographic_holder_binding: true,
            },
          ],
        } as never,
        { dcqlQuery: DcqlQuery.parse(request.payload.dcql_query as unknown as DcqlQuery.Input) },
      );
      expect(dcqlResult.can_be_satisfied).toBe(true);
      const response = await verifier.submitVpToken(request, { [queryId]: [presentation] });
      expect(response.status).toBe(200);
      const proof = await verifier.proof(request.proofId);
      expect(proof.state).toBe("ACCEPTED");
      const answered = proof.proofInputs.filter((input: { credential?: unknown }) => input.credential !== undefined);
      expect(answered).toHaveLength(1);
    }
  });

  it("refuses a response that satisfies no option, recording which set failed", async () => {
    const request = await share([{ options: [[0], [1]] }]);
    const response = await verifier.submitVpToken(request, {});
    expect(response.status).toBe(400);
    const proof = await verifier.proof(request.proofId);
    expect(proof.state).toBe("ERROR");
    const [entry] = await verifier.history(request.proofId);
    expect(entry?.name).toMatch(/credential set 0 is not satisfied: none of input_0 \| input_1 was presented/);
  });

  it("an option of two inputs needs both; a half-answered option is refused", async () => {
    const request = await share([{ options: [[0, 1]] }]);
    const kb = verifier.keyBindingFor(request);
    const half = await verifier.submitVpToken(request, {
      input_0: [await verifier.present(identityCredential, { given_name: true }, kb)],
    });
    expect(half.status).toBe(400);
    expect((await verifier.proof(request.proofId)).state).toBe("ERROR");

    const again = await share([{ options: [[0, 1]] }]);
    const kb2 = verifier.keyBindingFor(again);
    const both = await verifier.submitVpToken(again, {
      input_0: [await verifier.present(identityCredential, { given_name: true }, kb2)],
      input_1: [await verifier.present(membershipCredential, { given_name: true }, kb2)],
    });
    expect(both.status).toBe(200);
    expect((await verifier.proof(again.proofId)).state).toBe("ACCEPTED");
  });

  it("an optional set may stay unanswered while inputs outside every set remain required", async () => {
    // membership is optional; identity is named by no set, so it is required on its own
    const request = await share([{ options: [[1]], required: false }]);
    expect(request.payload.dcql_query).toMatchObject({
      credential_sets: [
        { options: [["input_1"]], required: false },
        { options: [["input_0"]], required: true },
      ],
    });
    const ok = await verifier.submitVpToken(request, {
      input_0: [await verifier.present(identityCredential, { given_name: true }, verifier.keyBindingFor(request))],
    });
    expect(ok.status).toBe(200);
    expect((await verifier.proof(request.proofId)).state).toBe("ACCEPTED");

    const missing = await share([{ options: [[1]], required: false }]);
    const refused = await verifier.submitVpToken(missing, {
      input_1: [await verifier.present(membershipCredential, { given_name: true }, verifier.keyBindingFor(missing))],
    });
    expect(refused.status).toBe(400);
    expect((await verifier.proof(missing.proofId)).state).toBe("ERROR");
  });

  it("refuses credentialSets naming no proof input, or one input twice, storing nothing", async () => {
    const before = (
      await verifier.api("GET", `/api/proof-schema/v1?page=0&pageSize=100&organisationId=${verifier.organisationId}`)
    ).json.totalItems;
    const other = await verifier.issuer.addSchema({ name: "Unrelated" });
    for (const credentialSets of [
      [{ options: [[other.id]] }],
      [{ options: [[identity.id, identity.id]] }],
      [{ options: [] }],
      [{ options: [["not-a-uuid"]] }],
    ]) {
      const response = await verifier.api("POST", "/api/proof-schema/v1", {
        name: `bad sets ${JSON.stringify(credentialSets).length}`,
        organisationId: verifier.organisationId,
        proofInputSchemas: [identityInput(), membershipInput()].map((input) => ({
          credentialSchemaId: input.schema.id,
          claimSchemas: [{ id: input.schema.claimIds.given_name, required: true }],
        })),
        credentialSets,
      });
      expect({ status: response.status, code: response.json.code }).toEqual({ status: 400, code: "BR_0084" });
    }
    const after = (
      await verifier.api("GET", `/api/proof-schema/v1?page=0&pageSize=100&organisationId=${verifier.organisationId}`)
    ).json.totalItems;
    expect(after).toBe(before);
  });

  it("a shared proof schema carries its alternatives into the importing organisation", async () => {
    const schemaId = await verifier.createProofSchema([identityInput(), membershipInput()], {
      credentialSets: [{ options: [[0], [1]], required: true }],
    });
    const shared = await verifier.api("GET", `/ssi/proof-schema/v1/${schemaId}`);
    expect(shared.json.credentialSets).toEqual([{ options: [[identity.id], [membership.id]], required: true }]);
    const imported = await verifier.api("POST", "/api/proof-schema/v1/import", {
      organisationId: verifier.organisationId,
      schema: { ...shared.json, name: "Imported alternatives" },
    });
    expect(imported.status).toBe(201);
    const detail = await verifier.api("GET", `/api/proof-schema/v1/${imported.json.id}`);
    expect(detail.json.credentialSets).toEqual([{ options: [[identity.id], [membership.id]], required: true }]);
  });
});
