import type { Credkit } from "../../src/credkit.js";

// Issuance through the SDK of two kits (no HTTP client code): the issuer offers, the wallet accepts. Used where a
// credential must really reach ACCEPTED (webhook and task suites, the crash child process).

export interface SdkIssuer {
  organisationId: string;
  issuerId: string;
  schemaId: string;
  claimId: string;
  /** POST /api/credential/v1 equivalent, with an optional webhook destination */
  createCredential(webhookDestinationUrl?: string): Promise<string>;
}

export async function setUpSdkIssuer(kit: Credkit, name = "Webhook ID"): Promise<SdkIssuer> {
  const organisationId = (await kit.organisations.create({ name: `${name} issuer` })).id;
  const key = (
    await kit.keys.create({
      organisationId,
      keyType: "EDDSA",
      keyParams: {},
      name: "signing",
      storageType: "INTERNAL",
      storageParams: {},
    })
  ).id;
  const keys = {
    authentication: [key],
    assertionMethod: [key],
    keyAgreement: [],
    capabilityInvocation: [],
    capabilityDelegation: [],
  };
  const issuerId = (await kit.identifiers.create({ organisationId, name: "issuer", did: { method: "KEY", keys } })).id;
  const schemaId = (
    await kit.credentialSchemas.create({
      organisationId,
      name,
      format: "SD_JWT_VC",
      revocationMethod: "TOKENSTATUSLIST",
      allowSuspension: true,
      claims: [{ key: "member_name", datatype: "STRING", required: true }],
    })
  ).id;
  const claimId = (await kit.credentialSchemas.get(schemaId)).claims[0]!.id;
  return {
    organisationId,
    issuerId,
    schemaId,
    claimId,
    async createCredential(webhookDestinationUrl) {
      return (
        await kit.credentials.create({
          credentialSchemaId: schemaId,
          issuer: issuerId,
          protocol: "OPENID4VCI_FINAL1",
          claimValues: [{ claimId, path: "member_name", value: "Ada Lovelace" }],
          ...(webhookDestinationUrl !== undefined && { webhookDestinationUrl }),
        })
      ).id;
    },
  };
}

export interface SdkWallet {
  organisationId: string;
  keyId: string;
  /** handles and accepts the offer of an issuer credential; answers the held credential id and the interaction */
  accept(offerUrl: string): Promise<{ id: string; interactionId: string }>;
}

export async function setUpSdkWallet(wallet: Credkit): Promise<SdkWallet> {
  const organisationId = (await wallet.organisations.create({ name: "Wallet" })).id;
  const keyId = (
    await wallet.keys.create({
      organisationId,
      keyType: "ECDSA",
      keyParams: {},
      name: "holder",
      storageType: "INTERNAL",
      storageParams: {},
    })
  ).id;
  return {
    organisationId,
    keyId,
    async accept(offerUrl) {
      const { interactionId } = await wallet.holder.handleInvitation({ url: offerUrl, organisationId });
      const { id } = await wallet.holder.acceptIssuance({ interactionId, keyId });
      return { id, interactionId };
    },
  };
}
