import {
  createPrivateKey,
  createPublicKey,
  sign as cryptoSign,
  verify as cryptoVerify,
  type JsonWebKey,
  randomBytes,
} from "node:crypto";
import { ml_dsa65 } from "@noble/post-quantum/ml-dsa.js";
import type { KeyAlgorithmType } from "../src/domain/enums.js";
import type { PrivateJwk } from "../src/ports/key-algorithm.js";
import type { KeyHandleRef } from "../src/ports/key-storage.js";
import { createKeyAlgorithms } from "../src/providers/key-algorithm/index.js";
import { createInternalKeyStorage } from "../src/providers/key-storage/internal.js";
import type { BenchRow } from "./bench-row.js";

export type { BenchRow } from "./bench-row.js";

/** Total measuring time per operation, split into interleaved rounds so clock drift hits port and raw alike. */
const MEASURE_MS = 1000;
const ROUNDS = 4;
const WARMUP_MS = 200;

type Operation = () => unknown;
type AsyncOperation = () => Promise<unknown>;

/** Operations per second of `op` run in a loop for about `ms` milliseconds (clock read once per batch). */
function runSync(op: Operation, ms: number): { ops: number; elapsed: number } {
  const start = performance.now();
  const end = start + ms;
  let ops = 0;
  let now = start;
  while (now < end) {
    for (let i = 0; i < 16; i++) op();
    ops += 16;
    now = performance.now();
  }
  return { ops, elapsed: now - start };
}

async function runAsync(op: AsyncOperation, ms: number): Promise<{ ops: number; elapsed: number }> {
  const start = performance.now();
  const end = start + ms;
  let ops = 0;
  let now = start;
  while (now < end) {
    for (let i = 0; i < 16; i++) await op();
    ops += 16;
    now = performance.now();
  }
  return { ops, elapsed: now - start };
}

/** Measure the credkit path and the raw path in alternating rounds; warm both first. */
async function compare(
  name: string,
  port: Operation | AsyncOperation,
  raw: Operation,
  portIsAsync: boolean,
): Promise<BenchRow> {
  const runPort = (ms: number) => (portIsAsync ? runAsync(port as AsyncOperation, ms) : runSync(port, ms));
  await runPort(WARMUP_MS);
  runSync(raw, WARMUP_MS);
  const totals = { port: { ops: 0, elapsed: 0 }, raw: { ops: 0, elapsed: 0 } };
  for (let round = 0; round < ROUNDS; round++) {
    const roundMs = MEASURE_MS / ROUNDS;
    const rawResult = runSync(raw, roundMs);
    const portResult = await runPort(roundMs);
    totals.raw.ops += rawResult.ops;
    totals.raw.elapsed += rawResult.elapsed;
    totals.port.ops += portResult.ops;
    totals.port.elapsed += portResult.elapsed;
  }
  const opsPerSec = (totals.port.ops * 1000) / totals.port.elapsed;
  const baselineOpsPerSec = (totals.raw.ops * 1000) / totals.raw.elapsed;
  return { name, opsPerSec, baselineOpsPerSec, ratio: opsPerSec / baselineOpsPerSec };
}

interface RawKeys {
  sign: Operation;
  verify: Operation;
}

/** The floor: the same primitive called directly with keys built once, outside credkit. */
function rawPrimitives(
  type: KeyAlgorithmType,
  message: Uint8Array,
  publicKey: Uint8Array,
  jwk: PrivateJwk,
  seed: Uint8Array,
): RawKeys {
  switch (type) {
    case "EDDSA": {
      const privateKey = createPrivateKey({ key: jwk as JsonWebKey, format: "jwk" });
      const publicKeyObject = createPublicKey(privateKey);
      const signature = cryptoSign(null, message, privateKey);
      return {
        sign: () => cryptoSign(null, message, privateKey),
        verify: () => cryptoVerify(null, message, publicKeyObject, signature),
      };
    }
    case "ECDSA": {
      const privateKey = createPrivateKey({ key: jwk as JsonWebKey, format: "jwk" });
      const publicKeyObject = createPublicKey(privateKey);
      const signature = cryptoSign("sha256", message, { key: privateKey, dsaEncoding: "ieee-p1363" });
      return {
        sign: () => cryptoSign("sha256", message, { key: privateKey, dsaEncoding: "ieee-p1363" }),
        verify: () => cryptoVerify("sha256", message, { key: publicKeyObject, dsaEncoding: "ieee-p1363" }, signature),
      };
    }
    case "ML_DSA": {
      const { secretKey } = ml_dsa65.keygen(seed);
      const signature = ml_dsa65.sign(message, secretKey);
      return {
        sign: () => ml_dsa65.sign(message, secretKey),
        verify: () => ml_dsa65.verify(signature, message, publicKey),
      };
    }
  }
}

/**
 * Sign and verify throughput of each key algorithm through credkit's ports — KeyStorage INTERNAL (`await
 * storage.sign`, key generated through it) and KeyAlgorithm.verify with a prepared public key — next to the raw
 * node:crypto / noble call with pre-built keys, measured in the same run. ratio = port / raw.
 */
export async function benchKeyAlgorithms(): Promise<BenchRow[]> {
  const algorithms = createKeyAlgorithms(["EDDSA", "ECDSA", "ML_DSA"]);
  const storage = createInternalKeyStorage({ encryptionKey: randomBytes(32).toString("hex"), algorithms });
  // a typical JWS signing input: base64url header "." base64url payload
  const message = new TextEncoder().encode(
    `${Buffer.from('{"alg":"x","typ":"dc+sd-jwt"}').toString("base64url")}.${randomBytes(180).toString("base64url")}`,
  );
  const rows: BenchRow[] = [];

  for (const [type, algorithm] of algorithms) {
    const material = await storage.generate(`bench-${type}`, type);
    const handle: KeyHandleRef = { id: `bench-${type}`, keyType: type, ...material };

    // the raw floor needs the private key, which INTERNAL never hands out: import the same key from a private JWK
    const pair = algorithm.generateKeyPair();
    const privateMember = type === "ML_DSA" ? "priv" : "d";
    const privateJwk: PrivateJwk = {
      ...algorithm.publicKeyToJwk(pair.publicKey),
      [privateMember]: Buffer.from(pair.privateKey).toString("base64url"),
    };
    const imported = await storage.importPrivateJwk(`bench-${type}-imported`, type, privateJwk);
    const importedHandle: KeyHandleRef = { id: `bench-${type}-imported`, keyType: type, ...imported };
    const raw = rawPrimitives(type, message, imported.publicKey, privateJwk, pair.privateKey);

    const preparedPublicKey = algorithm.preparePublicKey(imported.publicKey);
    const signature = await storage.sign(importedHandle, message);
    if (!algorithm.verify(preparedPublicKey, message, signature)) throw new Error(`${type}: port signature invalid`);

    rows.push(await compare(`${type} sign (KeyStorage INTERNAL)`, () => storage.sign(handle, message), raw.sign, true));
    rows.push(
      await compare(
        `${type} verify (KeyAlgorithm)`,
        () => algorithm.verify(preparedPublicKey, message, signature),
        raw.verify,
        false,
      ),
    );
  }
  return rows;
}
