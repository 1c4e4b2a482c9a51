import {
  createPrivateKey,
  createPublicKey,
  sign as cryptoSign,
  verify as cryptoVerify,
  type JsonWebKey,
} from "node:crypto";
import type { KeyAlgorithmType } from "../src/domain/enums.js";
import type { PublicJwk } from "../src/ports/key-algorithm.js";
import type { Signer } from "../src/ports/signer.js";
import { createSdJwtVcFormatter } from "../src/providers/format/sd-jwt-vc/index.js";
import { createKeyAlgorithms } from "../src/providers/key-algorithm/index.js";
import type { BenchRow } from "./bench-row.js";

export type { BenchRow } from "./bench-row.js";

/** Measuring time per row, split into rounds that alternate credkit and raw so drift hits both alike. */
const MEASURE_MS = 1000;
const ROUNDS = 4;
const WARMUP_MS = 200;

type AsyncOperation = () => Promise<unknown>;
type Operation = () => unknown;

async function runAsync(op: AsyncOperation, ms: number): Promise<{ ops: number; elapsed: number }> {
  const start = performance.now();
  const end = start + ms;
  let ops = 0;
  let now = start;
  while (now < end) {
    for (let i = 0; i < 8; i++) await op();
    ops += 8;
    now = performance.now();
  }
  return { ops, elapsed: now - start };
}

function runSync(op: Operation, ms: number): { ops: number; elapsed: number } {
  const start = performance.now();
  const end = start + ms;
  let ops = 0;
  let now = start;
  while (now < end) {
    for (let i = 0; i < 8; i++) op();
    ops += 8;
    now = performance.now();
  }
  return { ops, elapsed: now - start };
}

async function compare(name: string, port: AsyncOperation, raw: Operation): Promise<BenchRow> {
  await runAsync(port, WARMUP_MS);
  runSync(raw, WARMUP_MS);
  const totals = { port: { ops: 0, elapsed: 0 }, raw: { ops: 0, elapsed: 0 } };
  for (let round = 0; round < ROUNDS; round++) {
    const rawResult = runSync(raw, MEASURE_MS / ROUNDS);
    const portResult = await runAsync(port, MEASURE_MS / ROUNDS);
    totals.raw.ops += rawResult.ops;
    totals.raw.elapsed += rawResult.elapsed;
    totals.port.ops += portResult.ops;
    totals.port.elapsed += portResult.elapsed;
  }
  const opsPerSec = (totals.port.ops * 1000) / totals.port.elapsed;
  const baselineOpsPerSec = (totals.raw.ops * 1000) / totals.raw.elapsed;
  return { name, opsPerSec, baselineOpsPerSec, ratio: opsPerSec / baselineOpsPerSec };
}

/** A signer over a key kept in memory, the way a KeyStorage-backed signer works minus the storage. */
function memorySigner(type: KeyAlgorithmType, kid?: string) {
  const algorithm = createKeyAlgorithms([type]).get(type)!;
  const pair = algorithm.generateKeyPair();
  const prepared = algorithm.preparePrivateKey(pair.privateKey);
  const signer: Signer = {
    alg: algorithm.jwsAlgorithm,
    ...(kid === undefined ? {} : { kid }),
    sign: async (data) => algorithm.sign(prepared, data),
  };
  const publicJwk = algorithm.publicKeyToJwk(pair.publicKey);
  const privateJwk = { ...publicJwk, d: Buffer.from(pair.privateKey).toString("base64url") };
  return { signer, publicJwk, privateJwk };
}

/** Ten subject claims of a typical identity credential, one nested object and one array among them. */
const CLAIMS = {
  given_name: "Erika",
  family_name: "Mustermann",
  birthdate: "1963-08-12",
  birth_place: "Berlin",
  nationalities: ["DE"],
  address: { street_address: "Heidestraße 17", locality: "Köln", postal_code: "51147", country: "DE" },
  email: "erika@example.com",
  phone_number: "+49 221 123456",
  age_over_18: true,
  personal_administrative_number: "T22000129",
};

/**
 * SD-JWT VC throughput through the formatter next to the raw node:crypto ES256 operations it cannot avoid, measured in
 * the same run: issue (ES256, 10 claims, all selectively disclosable) vs one raw ES256 sign; verify credential vs one
 * raw ES256 verify; verify presentation with KB (issuer + holder signature) vs two raw ES256 verifies. ratio =
 * credkit / raw, so 1.0 would be zero overhead.
 */
export async function benchSdJwtVc(): Promise<BenchRow[]> {
  const algorithms = createKeyAlgorithms(["ECDSA"]);
  const formatter = createSdJwtVcFormatter({ algorithms });
  const issuer = memorySigner("ECDSA", "did:example:issuer#key-1");
  const holder = memorySigner("ECDSA");
  const resolveIssuerKey = async (): Promise<PublicJwk> => issuer.publicJwk;
  const now = new Date();
  const input = {
    issuer: "did:example:issuer",
    type: "urn:eudi:pid:1",
    claims: CLAIMS,
    holderJwk: holder.publicJwk,
    issuedAt: now,
    expiresAt: new Date(now.getTime() + 365 * 86400_000),
    status: { idx: 1234, uri: "https://issuer.example.com/status/1" },
    signer: issuer.signer,
  };
  const credential = await formatter.formatCredential(input);
  const presentation = await formatter.createPresentation(credential, {
    disclose: [["given_name"], ["family_name"], ["address", "locality"], ["age_over_18"]],
    keyBinding: {
      audience: "https://verifier.example.org",
      nonce: "n-0S6_WzA2Mj",
      issuedAt: now,
      signer: holder.signer,
    },
  });
  const verifyOptions = { resolveIssuerKey, now, leeway: 60 };
  const presentationOptions = {
    ...verifyOptions,
    keyBinding: { audience: "https://verifier.example.org", nonce: "n-0S6_WzA2Mj" },
  };
  await formatter.verifyPresentation(presentation, presentationOptions);

  // the floor: node:crypto on the same signing inputs with KeyObjects built once
  const issuerPrivate = createPrivateKey({ key: issuer.privateJwk as JsonWebKey, format: "jwk" });
  const issuerPublic = createPublicKey(issuerPrivate);
  const holderPublic = createPublicKey({ key: holder.publicJwk as JsonWebKey, format: "jwk" });
  const issuerJwt = credential.slice(0, credential.indexOf("~"));
  const issuerInput = Buffer.from(issuerJwt.slice(0, issuerJwt.lastIndexOf(".")), "latin1");
  const issuerSignature = Buffer.from(issuerJwt.slice(issuerJwt.lastIndexOf(".") + 1), "base64url");
  const kbJwt = presentation.slice(presentation.lastIndexOf("~") + 1);
  const kbInput = Buffer.from(kbJwt.slice(0, kbJwt.lastIndexOf(".")), "latin1");
  const kbSignature = Buffer.from(kbJwt.slice(kbJwt.lastIndexOf(".") + 1), "base64url");
  const rawSign = () => cryptoSign("sha256", issuerInput, { key: issuerPrivate, dsaEncoding: "ieee-p1363" });
  const rawVerifyIssuer = () =>
    cryptoVerify("sha256", issuerInput, { key: issuerPublic, dsaEncoding: "ieee-p1363" }, issuerSignature);
  const rawVerifyBoth = () =>
    rawVerifyIssuer() && cryptoVerify("sha256", kbInput, { key: holderPublic, dsaEncoding: "ieee-p1363" }, kbSignature);
  if (!rawVerifyBoth()) throw new Error("raw floor: signatures do not verify");

  return [
    await compare("SD-JWT VC issue (ES256, 10 claims)", () => formatter.formatCredential(input), rawSign),
    await compare(
      "SD-JWT VC verify credential (ES256)",
      () => formatter.verifyCredential(credential, verifyOptions),
      rawVerifyIssuer,
    ),
    await compare(
      "SD-JWT VC verify presentation + KB (2x ES256)",
      () => formatter.verifyPresentation(presentation, presentationOptions),
      rawVerifyBoth,
    ),
  ];
}
