import { KEY_ALGORITHM_TYPES, type KeyAlgorithmType } from "../../domain/enums.js";
import { CredkitError } from "../../errors/index.js";
import type { KeyAlgorithm } from "../../ports/key-algorithm.js";
import { EcdsaKeyAlgorithm } from "./ecdsa.js";
import { EddsaKeyAlgorithm } from "./eddsa.js";
import { MlDsaKeyAlgorithm } from "./ml-dsa.js";

export { EcdsaKeyAlgorithm } from "./ecdsa.js";
export { EddsaKeyAlgorithm } from "./eddsa.js";
export { computeJwkThumbprint, toThumbprintMembers } from "./jwk-thumbprint.js";
export { MlDsaKeyAlgorithm } from "./ml-dsa.js";

/** A new instance of the algorithm of a config key; unknown names throw BR_0043. */
export function createKeyAlgorithm(type: string): KeyAlgorithm {
  switch (type) {
    case "EDDSA":
      return new EddsaKeyAlgorithm();
    case "ECDSA":
      return new EcdsaKeyAlgorithm();
    case "ML_DSA":
      return new MlDsaKeyAlgorithm();
    default:
      throw new CredkitError("BR_0043", `unknown key algorithm "${type}" (known: ${KEY_ALGORITHM_TYPES.join(", ")})`);
  }
}

/** The registry of the enabled algorithms (config block `keyAlgorithm`), keyed by type. */
export function createKeyAlgorithms(
  enabled: readonly string[] = KEY_ALGORITHM_TYPES,
): Map<KeyAlgorithmType, KeyAlgorithm> {
  const algorithms = new Map<KeyAlgorithmType, KeyAlgorithm>();
  for (const type of enabled) {
    const algorithm = createKeyAlgorithm(type);
    algorithms.set(algorithm.type, algorithm);
  }
  return algorithms;
}
