import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify } from "node:crypto";
import { join } from "node:path";
import { exportJWK, SignJWT } from "jose";
import type { Credkit } from "../src/credkit.js";
import { createSdJwtVcFormatter } from "../src/providers/format/sd-jwt-vc/sd-jwt-vc-formatter.js";
import { createKeyAlgorithms } from "../src/providers/key-algorithm/index.js";
import { sqliteStorage } from "../src/storage/sql/sqlite.js";
import { createTestKit } from "../src/testing/create-test-kit.js";
import { createTempDir } from "../test/support/temp-dir.js";
import type { BenchRow } from "./bench-row.js";
import { measureOpsPerSec } from "./measure.js";

const BASE = "https://issuer.bench";
const PRE_AUTH = "urn:ietf:params:oauth:grant-type:pre-authorized_code";

interface IssuerSetup {
  kit: Credkit;
  schemaId: string;
  issuerId: string;
  claimIds: Record<string, string>;
  cleanup: () => Promise<void>;
}

async function setUpIssuer(): Promise<IssuerSetup> {
  const dir = createTempDir("credkit-bench-");
  const kit = await createTestKit({
    storage: await sqliteStorage(join(dir.path, "bench.db")),
    config: { app: { coreBaseUrl: BASE } },
  });
  const org = (await kit.organisations.create({ name: "bench" })).id;
  const key = (
    await kit.keys.create({
      organisationId: org,
      keyType: "EDDSA",
      keyParams: {},
      name: "issuer",
      storageType: "INTERNAL",
      storageParams: {},
    })
  ).id;
  const issuerId = (
    await kit.identifiers.create({
      organisationId: org,
      name: "issuer",
      did: {
        method: "KEY",
        keys: {
          authentication: [key],
          assertionMethod: [key],
          keyAgreement: [],
          capabilityInvocation: [],
          capabilityDelegation: [],
        },
      },
    })
  ).id;
  const schemaId = (
    await kit.credentialSchemas.create({
      organisationId: org,
      name: "Bench ID",
      format: "SD_JWT_VC",
      revocationMethod: "TOKENSTATUSLIST",
      claims: ["given_name", "family_name", "birthdate", "nationality", "city"].map((k) => ({
        key: k,
        datatype: "STRING",
        required: true,
      })),
    })
  ).id;
  const schema = await kit.credentialSchemas.get(schemaId);
  const claimIds = Object.fromEntries(schema.claims.map((c) => [c.key, c.id]));
  return {
    kit,
    schemaId,
    issuerId,
    claimIds,
    cleanup: async () => {
      await kit.close();
      dir.remove();
    },
  };
}

async function call(kit: Credkit, url: string, init: RequestInit = {}): Promise<Record<string, unknown>> {
  const response = await kit.http.fetch(new Request(url, init));
  if (!response.ok) throw new Error(`${init.method ?? "GET"} ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

/**
 * Issuance throughput on SQLite, in-process (kit.http.fetch, no sockets): a full pre-authorized flow (create + share,
 * offer, token, nonce, credential, holder verification) and the credential endpoint alone; each next to the raw
 * node:crypto floor of the same signatures (issuer EdDSA sign, holder ES256 proof sign, issuer ES256 proof verify,
 * holder EdDSA verify).
 */
export async function benchIssuance(seconds = 2): Promise<BenchRow[]> {
  const setup = await setUpIssuer();
  const { kit, schemaId, issuerId, claimIds } = setup;
  const holder = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const holderJwk = await exportJWK(holder.publicKey);
  const holderPrivate = createPrivateKey(holder.privateKey.export({ format: "pem", type: "pkcs8" }));
  const formatter = createSdJwtVcFormatter({ algorithms: createKeyAlgorithms() });
  const issuerDid = (await kit.identifiers.get(issuerId)).did!.did;
  const issuerJwk = (await kit.dids.resolve(issuerDid)).verificationMethod[0]!.publicKeyJwk!;

  const offerAndToken = async () => {
    const { id } = await kit.credentials.create({
      credentialSchemaId: schemaId,
      issuer: issuerId,
      protocol: "OPENID4VCI_FINAL1",
      claimValues: Object.entries(claimIds).map(([key, claimId]) => ({ claimId, path: key, value: `${key} value` })),
    });
    const { url } = await kit.credentials.share(id);
    const offer = await call(kit, new URL(url).searchParams.get("credential_offer_uri")!);
    const code = (offer.grants as Record<string, Record<string, string>>)[PRE_AUTH]!["pre-authorized_code"]!;
    const token = await call(kit, `${BASE}/ssi/openid4vci/final-1.0/${schemaId}/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: PRE_AUTH, "pre-authorized_code": code }),
    });
    return { offer, accessToken: token.access_token as string };
  };

  const requestCredential = async (offer: Record<string, unknown>, accessToken: string) => {
    const { c_nonce } = await call(kit, `${BASE}/ssi/openid4vci/final-1.0/OPENID4VCI_FINAL1/nonce`, { method: "POST" });
    const proof = await new SignJWT({ nonce: c_nonce })
      .setProtectedHeader({ alg: "ES256", typ: "openid4vci-proof+jwt", jwk: holderJwk })
      .setAudience(offer.credential_issuer as string)
      .setIssuedAt()
      .sign(holderPrivate);
    const response = await call(kit, `${BASE}/ssi/openid4vci/final-1.0/${schemaId}/credential`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${accessToken}` },
      body: JSON.stringify({
        credential_configuration_id: (offer.credential_configuration_ids as string[])[0],
        proofs: { jwt: [proof] },
      }),
    });
    return (response.credentials as { credential: string }[])[0]!.credential;
  };

  const fullFlow = async () => {
    const { offer, accessToken } = await offerAndToken();
    const credential = await requestCredential(offer, accessToken);
    await formatter.verifyCredential(credential, {
      resolveIssuerKey: async () => issuerJwk as never,
      now: new Date(),
      leeway: 60,
    });
  };

  const flows = await measureOpsPerSec(fullFlow, seconds);

  // credential endpoint alone: prepare tokens up front, then time only nonce + credential requests
  const prepared: { offer: Record<string, unknown>; accessToken: string }[] = [];
  for (let i = 0; i < Math.max(200, Math.ceil(flows * seconds * 1.5)); i++) prepared.push(await offerAndToken());
  let next = 0;
  const started = performance.now();
  let served = 0;
  while (next < prepared.length && performance.now() - started < seconds * 1000) {
    const { offer, accessToken } = prepared[next++]!;
    await requestCredential(offer, accessToken);
    served++;
  }
  const endpointPerSec = served / ((performance.now() - started) / 1000);

  // raw crypto floor: the four signature operations of one flow, straight on node:crypto
  const ed = generateKeyPairSync("ed25519");
  const message = Buffer.alloc(600, 7);
  const edSig = sign(null, message, ed.privateKey);
  const ecSig = sign("sha256", message, { key: holderPrivate, dsaEncoding: "ieee-p1363" });
  const ecPublic = createPublicKey(holderPrivate);
  const floorFlow = await measureOpsPerSec(() => {
    sign(null, message, ed.privateKey);
    sign("sha256", message, { key: holderPrivate, dsaEncoding: "ieee-p1363" });
    verify("sha256", message, { key: ecPublic, dsaEncoding: "ieee-p1363" }, ecSig);
    verify(null, message, ed.publicKey, edSig);
  }, seconds);
  // the credential endpoint needs an EdDSA sign and an ES256 verify
  const floorEndpoint = await measureOpsPerSec(() => {
    sign(null, message, ed.privateKey);
    verify("sha256", message, { key: ecPublic, dsaEncoding: "ieee-p1363" }, ecSig);
  }, seconds);
  await setup.cleanup();
  return [
    {
      name: "issuance flow (create→offer→token→nonce→credential→verify, SQLite)",
      opsPerSec: flows,
      baselineOpsPerSec: floorFlow,
      ratio: flows / floorFlow,
    },
    {
      name: "credential endpoint (nonce + credential request, SQLite)",
      opsPerSec: endpointPerSec,
      baselineOpsPerSec: floorEndpoint,
      ratio: endpointPerSec / floorEndpoint,
    },
  ];
}
