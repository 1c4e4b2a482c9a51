import { randomBytes } from "node:crypto";
import { ml_dsa65 } from "@noble/post-quantum/ml-dsa.js";
import type { KeyAlgorithmType } from "../../domain/enums.js";
import { encodeBase64url } from "../../encoding/base64url.js";
import { encodeMultibase, MULTICODEC } from "../../encoding/multibase.js";
import { CredkitError } from "../../errors/index.js";
import type {
  CoseKey,
  GeneratedKeyPair,
  KeyAlgorithm,
  KeyAlgorithmCapabilities,
  PreparedPrivateKey,
  PreparedPublicKey,
  PrivateJwk,
  PublicJwk,
} from "../../ports/key-algorithm.js";
import {
  asBytes,
  bytesEqual,
  checkCoseAlg,
  checkCoseValue,
  checkJwkType,
  checkKeyLength,
  checkNoPrivateMembers,
  invalidKey,
  readCoseBytes,
  readJwkBytes,
} from "./key-input.js";

const SEED_LENGTH = 32;
const PUBLIC_KEY_LENGTH = 1952;
const SIGNATURE_LENGTH = 3309;
/** draft-ietf-cose-dilithium §4 / §5: COSE key type AKP and the ML-DSA-65 algorithm identifiers. */
const COSE_KTY_AKP = 7;
const COSE_ALG_ML_DSA_65 = -49;

/**
 * ML_DSA: ML-DSA-65 (FIPS 204) through @noble/post-quantum, pure mode with the empty context string. Serialisations per
 * draft-ietf-cose-dilithium: JOSE `alg` "ML-DSA-65", COSE alg -49, key type AKP with `pub` (public key) and `priv`
 * (the 32-byte seed ξ of FIPS 204 Algorithm 6). Public key: 1952 bytes; private key: the 32-byte seed.
 */
export class MlDsaKeyAlgorithm implements KeyAlgorithm {
  readonly type: KeyAlgorithmType = "ML_DSA";
  readonly jwsAlgorithm = "ML-DSA-65";
  readonly coseAlgorithm = COSE_ALG_ML_DSA_65;
  readonly capabilities: KeyAlgorithmCapabilities = { features: ["IMPORT"] };

  generateKeyPair(): GeneratedKeyPair {
    const seed = asBytes(randomBytes(SEED_LENGTH));
    return { publicKey: ml_dsa65.keygen(seed).publicKey, privateKey: seed };
  }

  derivePublicKey(privateKey: Uint8Array): Uint8Array {
    checkKeyLength(privateKey, SEED_LENGTH, "ML-DSA-65 private key (seed)");
    return ml_dsa65.keygen(privateKey).publicKey;
  }

  /** Expands the seed into the 4032-byte secret key once (FIPS 204 ML-DSA.KeyGen_internal). */
  preparePrivateKey(privateKey: Uint8Array): Uint8Array {
    checkKeyLength(privateKey, SEED_LENGTH, "ML-DSA-65 private key (seed)");
    return ml_dsa65.keygen(privateKey).secretKey;
  }

  preparePublicKey(publicKey: Uint8Array): Uint8Array {
    checkKeyLength(publicKey, PUBLIC_KEY_LENGTH, "ML-DSA-65 public key");
    return publicKey;
  }

  sign(key: PreparedPrivateKey, message: Uint8Array): Uint8Array {
    try {
      return ml_dsa65.sign(message, key as Uint8Array);
    } catch (error) {
      throw new CredkitError("BR_0063", "ML-DSA-65 signing failed", { cause: error });
    }
  }

  verify(key: PreparedPublicKey, message: Uint8Array, signature: Uint8Array): boolean {
    if (signature.length !== SIGNATURE_LENGTH) return false;
    try {
      return ml_dsa65.verify(signature, message, key as Uint8Array);
    } catch {
      return false;
    }
  }

  /** draft-ietf-cose-dilithium §5: `{kty: "AKP", alg: "ML-DSA-65", pub}`. */
  publicKeyToJwk(publicKey: Uint8Array): PublicJwk {
    checkKeyLength(publicKey, PUBLIC_KEY_LENGTH, "ML-DSA-65 public key");
    return { kty: "AKP", alg: this.jwsAlgorithm, pub: encodeBase64url(publicKey) };
  }

  publicKeyFromJwk(jwk: PublicJwk): Uint8Array {
    const record = checkJwkType(jwk, JWK_TYPE);
    checkNoPrivateMembers(record, ["priv", "d"]);
    return readJwkBytes(record, "pub", PUBLIC_KEY_LENGTH);
  }

  /** `priv` is the seed; `pub` must be present and be the public key expanded from it. */
  privateKeyFromJwk(jwk: PrivateJwk): GeneratedKeyPair {
    const record = checkJwkType(jwk, JWK_TYPE);
    const privateKey = readJwkBytes(record, "priv", SEED_LENGTH);
    const publicKey = readJwkBytes(record, "pub", PUBLIC_KEY_LENGTH);
    if (!bytesEqual(this.derivePublicKey(privateKey), publicKey)) throw invalidKey("JWK pub does not match priv");
    return { publicKey, privateKey };
  }

  /** draft-ietf-cose-dilithium §4: `{1: 7 (AKP), 3: -49 (ML-DSA-65), -1: pub}`. */
  publicKeyToCose(publicKey: Uint8Array): CoseKey {
    checkKeyLength(publicKey, PUBLIC_KEY_LENGTH, "ML-DSA-65 public key");
    return new Map<number, number | Uint8Array>([
      [1, COSE_KTY_AKP],
      [3, COSE_ALG_ML_DSA_65],
      [-1, publicKey],
    ]);
  }

  publicKeyFromCose(coseKey: CoseKey): Uint8Array {
    checkCoseValue(coseKey, 1, COSE_KTY_AKP, "kty");
    // an AKP key is bound to one algorithm, so alg (3) is required
    checkCoseValue(coseKey, 3, COSE_ALG_ML_DSA_65, "alg");
    checkCoseAlg(coseKey, [COSE_ALG_ML_DSA_65]);
    if (coseKey.has(-2)) throw invalidKey("public COSE_Key must not contain priv (-2)");
    return readCoseBytes(coseKey, -1, PUBLIC_KEY_LENGTH, "pub");
  }

  /** multicodec mldsa-65-pub (0x1211) + raw public key, base58btc. */
  publicKeyToMultibase(publicKey: Uint8Array): string {
    checkKeyLength(publicKey, PUBLIC_KEY_LENGTH, "ML-DSA-65 public key");
    return encodeMultibase(MULTICODEC.MLDSA65_PUB, publicKey);
  }
}

/** An AKP JWK is bound to one algorithm, so `alg` is required (draft-ietf-cose-dilithium §5). */
const JWK_TYPE = { kty: "AKP", algs: ["ML-DSA-65"], algRequired: true } as const;
