// Scripted issuance with the SDK only (no HTTP client code): an issuer kit offers an SD-JWT VC, and a wallet kit,
// linked to it in-process with credkit/testing's linkKits, accepts it.
// Run: npx tsx examples/scripted-issuance.ts
import { createTestKit, linkKits } from "../src/testing/index.js";

export async function run(): Promise<{ credentialId: string; claims: unknown }> {
  const issuer = await createTestKit({ config: { app: { coreBaseUrl: "https://issuer.example" } } });
  const wallet = await createTestKit({ fetch: linkKits({ "https://issuer.example": (r) => issuer.http.fetch(r) }) });
  try {
    // issuer: organisation, signing key, did:key identifier, schema, credential, offer
    const org = (await issuer.organisations.create({ name: "Issuer" })).id;
    const key = (
      await issuer.keys.create({
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
    const issuerId = (
      await issuer.identifiers.create({ organisationId: org, name: "issuer", did: { method: "KEY", keys: roles } })
    ).id;
    const schemaId = (
      await issuer.credentialSchemas.create({
        organisationId: org,
        name: "Membership",
        format: "SD_JWT_VC",
        revocationMethod: "TOKENSTATUSLIST",
        claims: [
          { key: "member_name", datatype: "STRING", required: true },
          { key: "level", datatype: "NUMBER", required: false },
        ],
      })
    ).id;
    const schema = await issuer.credentialSchemas.get(schemaId);
    const claimId = (key: string) => schema.claims.find((c) => c.key === key)!.id;
    const { id } = await issuer.credentials.create({
      credentialSchemaId: schemaId,
      issuer: issuerId,
      protocol: "OPENID4VCI_FINAL1",
      claimValues: [
        { claimId: claimId("member_name"), path: "member_name", value: "Ada Lovelace" },
        { claimId: claimId("level"), path: "level", value: "3" },
      ],
    });
    const { url } = await issuer.credentials.share(id);

    // wallet: its own organisation and holder key, then handle the offer and accept it
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
    const invitation = await wallet.holder.handleInvitation({ url, organisationId: walletOrg });
    const accepted = await wallet.holder.acceptIssuance({ interactionId: invitation.interactionId, keyId: holderKey });
    const held = await wallet.credentials.get(accepted.id);
    return { credentialId: accepted.id, claims: held.claims };
  } finally {
    await wallet.close();
    await issuer.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await run();
  console.log(JSON.stringify(result, null, 2));
}
