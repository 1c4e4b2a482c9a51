import type { KeyAlgorithmType } from "../../../src/domain/enums.js";
import { encodeBase64url } from "../../../src/encoding/base64url.js";
import { CredkitError } from "../../../src/errors/index.js";
import type { KeyAlgorithm, PrivateJwk, PublicJwk } from "../../../src/ports/key-algorithm.js";
import type { Signer } from "../../../src/ports/signer.js";
import { createKeyAlgorithms } from "../../../src/providers/key-algorithm/index.js";

export const algorithms = createKeyAlgorithms();

/** A generated key with a Signer over it (what a KeyStorage-backed signer does, without the storage). */
export interface TestKey {
  type: KeyAlgorithmType;
  algorithm: KeyAlgorithm;
  signer: Signer;
  publicJwk: PublicJwk;
  privateJwk: PrivateJwk;
}

export function createTestKey(type: KeyAlgorithmType, kid?: string): TestKey {
  const algorithm = algorithms.get(type)!;
  const pair = algorithm.generateKeyPair();
  const prepared = algorithm.preparePrivateKey(pair.privateKey);
  const publicJwk = algorithm.publicKeyToJwk(pair.publicKey);
  const privateMember = type === "ML_DSA" ? "priv" : "d";
  const signer: Signer = {
    alg: algorithm.jwsAlgorithm,
    ...(kid === undefined ? {} : { kid }),
    sign: async (data) => algorithm.sign(prepared, data),
  };
  return {
    type,
    algorithm,
    signer,
    publicJwk,
    privateJwk: { ...publicJwk, [privateMember]: encodeBase64url(pair.privateKey) },
  };
}

/** Run `action`, expect a CredkitError with `code` (and a detail matching `detail`), return it. */
export async function expectCredkitError(
  action: () => unknown,
  code: string,
  detail?: RegExp | string,
): Promise<CredkitError> {
  let thrown: unknown;
  try {
    await action();
  } catch (error) {
    thrown = error;
  }
  if (!(thrown instanceof CredkitError)) {
    throw new Error(`expected CredkitError ${code}, got ${thrown === undefined ? "no error" : String(thrown)}`);
  }
  if (thrown.code !== code) throw new Error(`expected ${code}, got ${thrown.code}: ${thrown.detail ?? thrown.message}`);
  if (detail !== undefined) {
    const text = thrown.detail ?? "";
    const matches = typeof detail === "string" ? text.includes(detail) : detail.test(text);
    if (!matches) throw new Error(`expected detail matching ${String(detail)}, got "${text}"`);
  }
  return thrown;
}
