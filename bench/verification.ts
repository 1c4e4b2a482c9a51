import { createPublicKey, generateKeyPairSync, sign, verify } from "node:crypto";
import { join } from "node:path";
import type { Credkit } from "../src/credkit.js";
import { createKeySigner } from "../src/engines/common/key-signer.js";
import { sqliteStorage } from "../src/storage/sql/sqlite.js";
import { createTestKit } from "../src/testing/create-test-kit.js";
import { linkKits } from "../src/testing/link-kits.js";
import { createTempDir } from "../test/support/temp-dir.js";
import type { BenchRow } from "./bench-row.js";
import { measureOpsPerSec } from "./measure.js";

const BASE = "https://verifier.bench";

/**
 * Verification throughput on SQLite, in-process: one kit is issuer, wallet and verifier. "response endpoint" times
 * only the verifier's handling of prepared presentations (issuer signature, disclosures, key binding, vct, claims,
 * storing the result); the full flow adds creating and sharing the request, fetching the request object and the
 * wallet's presentation with key binding. Raw floor: the same signature operations on node:crypto.
 */
export async function benchVerification(seconds = 2): Promise<BenchRow[]> {
  const dir = createTempDir("credkit-bench-");
  let kit!: Credkit;
  kit = await createTestKit({
    storage: await sqliteStorage(join(dir.path, "bench.db")),
    config: { app: { coreBaseUrl: BASE } },
    fetch: linkKits({ [BASE]: (request) => kit.http.fetch(request) }),
  });
  const org = (await kit.organisations.create({ name: "bench" })).id;
  const issuerKey = (
    await kit.keys.create({
      organisationId: org,
      keyType: "EDDSA",
      keyParams: {},
      name: "issuer",
      storageType: "INTERNAL",
      storageParams: {},
    })
  ).id;
  const roles = {
    authentication: [issuerKey],
    assertionMethod: [issuerKey],
    keyAgreement: [],
    capabilityInvocation: [],
    capabilityDelegation: [],
  };
  const issuer = (
    await kit.identifiers.create({ organisationId: org, name: "issuer", did: { method: "KEY", keys: roles } })
  ).id;
  const schemaId = (
    await kit.credentialSchemas.create({
      organisationId: org,
      name: "Bench ID",
      format: "SD_JWT_VC",
      claims: ["given_name", "family_name", "birthdate", "nationality", "city"].map((key) => ({
        key,
        datatype: "STRING",
        required: true,
      })),
    })
  ).id;
  const schema = await kit.credentialSchemas.get(schemaId);
  const holderKeyId = (
    await kit.keys.create({
      organisationId: org,
      keyType: "ECDSA",
      keyParams: {},
      name: "holder",
      storageType: "INTERNAL",
      storageParams: {},
    })
  ).id;
  const { id: credentialId } = await kit.credentials.create({
    credentialSchemaId: schemaId,
    issuer,
    protocol: "OPENID4VCI_FINAL1",
    claimValues: schema.claims.map((c) => ({ claimId: c.id, path: c.key, value: `${c.key} value` })),
  });
  const { url } = await kit.credentials.share(credentialId);
  const invitation = await kit.holder.handleInvitation({ url, organisationId: org });
  const held = await kit.holder.acceptIssuance({ interactionId: invitation.interactionId, keyId: holderKeyId });
  const blob = (await kit.storage.credentials.get(held.id))!.credentialBlob!;
  const holderSigner = createKeySigner(kit.providers, await kit.keys.load(holderKeyId));
  const formatter = kit.providers.formatters.get("SD_JWT_VC")!;
  const proofSchemaId = (
    await kit.proofSchemas.create({
      organisationId: org,
      name: "bench proof",
      proofInputSchemas: [
        {
          credentialSchemaId: schemaId,
          claimSchemas: schema.claims.slice(0, 2).map((c) => ({ id: c.id, required: true })),
        },
      ],
    })
  ).id;

  const prepare = async () => {
    const { id } = await kit.proofRequests.create({ proofSchemaId, protocol: "OPENID4VP_FINAL1" });
    await kit.proofRequests.share(id, {});
    const jwt = await kit.openid4vp.requestObject(id);
    const request = JSON.parse(Buffer.from(jwt.split(".")[1]!, "base64url").toString()) as Record<string, string>;
    const presentation = await formatter.createPresentation(blob, {
      disclose: [["given_name"], ["family_name"]],
      keyBinding: { audience: request.client_id!, nonce: request.nonce!, issuedAt: new Date(), signer: holderSigner },
    });
    return new URLSearchParams({ vp_token: JSON.stringify({ input_0: [presentation] }), state: request.state! });
  };
  const respond = async (form: URLSearchParams) => {
    await kit.openid4vp.response(form);
  };

  const flows = await measureOpsPerSec(async () => respond(await prepare()), seconds);
  const forms: URLSearchParams[] = [];
  for (let i = 0; i < Math.max(200, Math.ceil(flows * seconds * 2)); i++) forms.push(await prepare());
  let served = 0;
  const started = performance.now();
  while (served < forms.length && performance.now() - started < seconds * 1000) await respond(forms[served++]!);
  const responses = served / ((performance.now() - started) / 1000);

  const ed = generateKeyPairSync("ed25519");
  const ec = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const message = Buffer.alloc(600, 7);
  const edSig = sign(null, message, ed.privateKey);
  const ecSig = sign("sha256", message, { key: ec.privateKey, dsaEncoding: "ieee-p1363" });
  const ecPublic = createPublicKey(ec.privateKey);
  const floorResponse = await measureOpsPerSec(() => {
    verify(null, message, ed.publicKey, edSig);
    verify("sha256", message, { key: ecPublic, dsaEncoding: "ieee-p1363" }, ecSig);
  }, seconds);
  const floorFlow = await measureOpsPerSec(() => {
    sign("sha256", message, { key: ec.privateKey, dsaEncoding: "ieee-p1363" });
    verify(null, message, ed.publicKey, edSig);
    verify("sha256", message, { key: ecPublic, dsaEncoding: "ieee-p1363" }, ecSig);
  }, seconds);
  await kit.close();
  dir.remove();
  return [
    {
      name: "response endpoint: presentations verified (SQLite)",
      opsPerSec: responses,
      baselineOpsPerSec: floorResponse,
      ratio: responses / floorResponse,
    },
    {
      name: "verification flow (request→share→request object→present→verify)",
      opsPerSec: flows,
      baselineOpsPerSec: floorFlow,
      ratio: flows / floorFlow,
    },
  ];
}
