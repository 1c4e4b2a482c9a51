// A verifier with its own X.509 PKI: a self-signed CA identifier issues the verifier's certificate (with the DNS name
// of its public URL as subjectAlternativeName); proof requests go out under the `x509_san_dns` client-id prefix, signed
// with that certificate (x5c). The wallet lists the CA in `certificateValidation.trustAnchors`, authenticates the
// request (chain, SAN, response_uri host, signature) and presents. Kits are linked in-process (credkit/testing).
// Run: npx tsx examples/x509-verification.ts
import { createTestKit, linkKits } from "../src/testing/index.js";

export async function run(): Promise<{ clientId: string; state: string; claims: Record<string, unknown> }> {
  const origin = "https://verifier.example";
  const service = await createTestKit({ config: { app: { coreBaseUrl: origin } } });
  const newKey = async (organisationId: string, name: string, kit = service) =>
    (
      await kit.keys.create({
        organisationId,
        keyType: "ECDSA",
        keyParams: {},
        name,
        storageType: "INTERNAL",
        storageParams: {},
      })
    ).id;
  let wallet: Awaited<ReturnType<typeof createTestKit>> | undefined;
  try {
    const org = (await service.organisations.create({ name: "Verifier Ltd" })).id;

    // the PKI: a root CA identifier, and the verifier's certificate issued by it for verifier.example
    const ca = await service.identifiers.create({
      organisationId: org,
      name: "Verifier Ltd root CA",
      certificateAuthorities: [
        {
          keyId: await newKey(org, "CA key"),
          selfSigned: {
            content: { subject: { commonName: "Verifier Ltd root CA", countryName: "CH" } },
            signer: "X509_CERTIFICATE",
          },
        },
      ],
    });
    const caPem = (await service.identifiers.get(ca.id)).certificateAuthorities![0]!.chain;
    const verifier = await service.identifiers.create({
      organisationId: org,
      name: "Verifier Ltd access certificate",
      certificates: [
        {
          keyId: await newKey(org, "verifier key"),
          content: {
            profile: "GENERIC",
            subject: { commonName: "Verifier Ltd", countryName: "CH" },
            certificateAuthority: { identifierId: ca.id },
            signer: "X509_CERTIFICATE",
            subjectAlternativeName: { dns: [new URL(origin).hostname] },
          },
        },
      ],
    });

    // an issuer (a did:key identifier, resolved without network) and a credential the wallet will hold
    const issuingKey = await newKey(org, "issuing key");
    const issuer = await service.identifiers.create({
      organisationId: org,
      name: "issuer",
      did: {
        method: "KEY",
        keys: {
          authentication: [issuingKey],
          assertionMethod: [issuingKey],
          keyAgreement: [],
          capabilityInvocation: [],
          capabilityDelegation: [],
        },
      },
    });
    const schemaId = (
      await service.credentialSchemas.create({
        organisationId: org,
        name: "Age token",
        format: "SD_JWT_VC",
        claims: [
          { key: "name", datatype: "STRING", required: true },
          { key: "age_over_18", datatype: "BOOLEAN", required: true },
        ],
      })
    ).id;
    const schema = await service.credentialSchemas.get(schemaId);
    const claimId = (key: string) => schema.claims.find((c) => c.key === key)!.id;
    const credential = await service.credentials.create({
      credentialSchemaId: schemaId,
      issuer: issuer.id,
      protocol: "OPENID4VCI_FINAL1",
      claimValues: [
        { claimId: claimId("name"), path: "name", value: "Alan Turing" },
        { claimId: claimId("age_over_18"), path: "age_over_18", value: "true" },
      ],
    });

    // the wallet trusts the verifier's root CA for x509_* requests
    wallet = await createTestKit({
      config: { certificateValidation: { trustAnchors: [caPem] } },
      fetch: linkKits({ [origin]: (request) => service.http.fetch(request) }),
    });
    const walletOrg = (await wallet.organisations.create({ name: "Wallet" })).id;
    const offer = await wallet.holder.handleInvitation({
      url: (await service.credentials.share(credential.id)).url,
      organisationId: walletOrg,
    });
    await wallet.holder.acceptIssuance({
      interactionId: offer.interactionId,
      keyId: await newKey(walletOrg, "holder", wallet),
    });

    // the proof request, shared under x509_san_dns
    const proofSchemaId = (
      await service.proofSchemas.create({
        organisationId: org,
        name: "Age check",
        proofInputSchemas: [
          { credentialSchemaId: schemaId, claimSchemas: [{ id: claimId("age_over_18"), required: true }] },
        ],
      })
    ).id;
    const proofId = (
      await service.proofRequests.create({ proofSchemaId, protocol: "OPENID4VP_FINAL1", verifier: verifier.id })
    ).id;
    const { url } = await service.proofRequests.share(proofId, { params: { clientIdScheme: "x509_san_dns" } });

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
    return { clientId: new URL(url).searchParams.get("client_id")!, state: proof.state, claims };
  } finally {
    await wallet?.close();
    await service.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await run(), null, 2));
}
