// Scripted verification with the SDK only: one kit issues a credential to a wallet kit, then asks for two of its
// claims over OpenID4VP 1.0 (DCQL); the wallet discloses just those. Kits are linked in-process (credkit/testing).
// Run: npx tsx examples/scripted-verification.ts
import { createTestKit, linkKits } from "../src/testing/index.js";

export async function run(): Promise<{ state: string; claims: Record<string, unknown> }> {
  const origin = "https://service.example";
  const service = await createTestKit({ config: { app: { coreBaseUrl: origin } } });
  const wallet = await createTestKit({ fetch: linkKits({ [origin]: (request) => service.http.fetch(request) }) });
  try {
    // the service: issuer and verifier identity, a schema, an issued credential
    const org = (await service.organisations.create({ name: "Service" })).id;
    const key = (
      await service.keys.create({
        organisationId: org,
        keyType: "EDDSA",
        keyParams: {},
        name: "signing",
        storageType: "INTERNAL",
        storageParams: {},
      })
    ).id;
    const roles = {
      authentication: [key],
      assertionMethod: [key],
      keyAgreement: [],
      capabilityInvocation: [],
      capabilityDelegation: [],
    };
    const identity = (
      await service.identifiers.create({ organisationId: org, name: "service", did: { method: "KEY", keys: roles } })
    ).id;
    const schemaId = (
      await service.credentialSchemas.create({
        organisationId: org,
        name: "Employee badge",
        format: "SD_JWT_VC",
        claims: ["name", "employee_number", "department", "salary_band"].map((k) => ({
          key: k,
          datatype: "STRING",
          required: true,
        })),
      })
    ).id;
    const schema = await service.credentialSchemas.get(schemaId);
    const claimId = (k: string) => schema.claims.find((c) => c.key === k)!.id;
    const { id } = await service.credentials.create({
      credentialSchemaId: schemaId,
      issuer: identity,
      protocol: "OPENID4VCI_FINAL1",
      claimValues: [
        { claimId: claimId("name"), path: "name", value: "Grace Hopper" },
        { claimId: claimId("employee_number"), path: "employee_number", value: "E-1906" },
        { claimId: claimId("department"), path: "department", value: "Research" },
        { claimId: claimId("salary_band"), path: "salary_band", value: "confidential" },
      ],
    });
    const walletOrg = (await wallet.organisations.create({ name: "Wallet" })).id;
    const holderKey = (
      await wallet.keys.create({
        organisationId: walletOrg,
        keyType: "ECDSA",
        keyParams: {},
        name: "holder",
        storageType: "INTERNAL",
        storageParams: {},
      })
    ).id;
    const offer = await wallet.holder.handleInvitation({
      url: (await service.credentials.share(id)).url,
      organisationId: walletOrg,
    });
    await wallet.holder.acceptIssuance({ interactionId: offer.interactionId, keyId: holderKey });

    // verification: ask for name and department only
    const proofSchemaId = (
      await service.proofSchemas.create({
        organisationId: org,
        name: "Door access",
        proofInputSchemas: [
          {
            credentialSchemaId: schemaId,
            claimSchemas: [
              { id: claimId("name"), required: true },
              { id: claimId("department"), required: true },
            ],
          },
        ],
      })
    ).id;
    const proofId = (
      await service.proofRequests.create({ proofSchemaId, protocol: "OPENID4VP_FINAL1", verifier: identity })
    ).id;
    const { url } = await service.proofRequests.share(proofId, {
      params: { clientIdScheme: "decentralized_identifier" },
    });

    // the wallet: handle the request, see what can answer it, submit
    const request = await wallet.holder.handleInvitation({ url, organisationId: walletOrg });
    const definition = await wallet.holder.getPresentationDefinition(request.proofId!);
    const [queryId, query] = Object.entries(definition.credentialQueries)[0]!;
    const credentialId = (query as { applicableCredentials: { id: string }[] }).applicableCredentials[0]!.id;
    await wallet.holder.submitPresentation({
      interactionId: request.interactionId,
      submission: { [queryId]: { credentialId } },
    });

    const proof = await service.proofRequests.get(proofId);
    const claims = Object.fromEntries(proof.proofInputs.flatMap((input) => input.claims.map((c) => [c.path, c.value])));
    return { state: proof.state, claims };
  } finally {
    await wallet.close();
    await service.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await run(), null, 2));
}
