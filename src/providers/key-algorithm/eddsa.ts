import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, sign, verify } from "node:crypto";
import type { KeyAlgorithmType } from "../../domain/enums.js";
import { decodeBase64url, encodeBase64url } from "../../encoding/base64url.js";
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

const KEY_LENGTH = 32;
const SIGNATURE_LENGTH = 64;
/** RFC 8410 §7: PKCS#8 OneAsymmetricKey for id-Ed25519 wrapping a 32-byte CurvePrivateKey (the seed). */
const PKCS8_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");
/** RFC 8410 §4: SubjectPublicKeyInfo for id-Ed25519 followed by the 32-byte public key. */
const SPKI_PREFIX = Buffer.from("302a300506032b6570032100", "hex");

/**
 * EDDSA: Ed25519 (RFC 8032) through node:crypto. JOSE per RFC 8037 (`kty` OKP, `crv` Ed25519, `alg` EdDSA), COSE per
 * RFC 9053 §2.2 / §7.2 (alg -8, OKP key type 1, crv 6). Public key: 32 raw bytes; private key: the 32-byte seed.
 */
export class EddsaKeyAlgorithm implements KeyAlgorithm {
  readonly type: KeyAlgorithmType = "EDDSA";
  readonly jwsAlgorithm = "EdDSA";
  readonly coseAlgorithm = -8;
  readonly capabilities: KeyAlgorithmCapabilities = { features: ["IMPORT"] };

  generateKeyPair(): GeneratedKeyPair {
    const { privateKey } = generateKeyPairSync("ed25519");
    const jwk = privateKey.export({ format: "jwk" });
    return { publicKey: decodeBase64url(jwk.x!), privateKey: decodeBase64url(jwk.d!) };
  }

  derivePublicKey(privateKey: Uint8Array): Uint8Array {
    const key = this.preparePrivateKey(privateKey);
    return asBytes(createPublicKey(key).export({ format: "der", type: "spki" }).subarray(SPKI_PREFIX.length));
  }

  preparePrivateKey(privateKey: Uint8Array): KeyObject {
    checkKeyLength(privateKey, KEY_LENGTH, "Ed25519 private key (seed)");
    try {
      return createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, privateKey]), format: "der", type: "pkcs8" });
    } catch (error) {
      throw invalidKey("Ed25519 private key rejected", error);
    }
  }

  preparePublicKey(publicKey: Uint8Array): KeyObject {
    checkKeyLength(publicKey, KEY_LENGTH, "Ed25519 public key");
    try {
      return createPublicKey({ key: Buffer.concat([SPKI_PREFIX, publicKey]), format: "der", type: "spki" });
    } catch (error) {
      throw invalidKey("Ed25519 public key rejected", error);
    }
  }

  sign(key: PreparedPrivateKey, message: Uint8Array): Uint8Array {
    try {
      // Ed25519 is "pure": no pre-hash, so the digest argument is null (RFC 8032 §5.1.6)
      return sign(null, message, key as KeyObject);
    } catch (error) {
      throw new CredkitError("BR_0063", "Ed25519 signing failed", { cause: error });
    }
  }

  verify(key: PreparedPublicKey, message: Uint8Array, signature: Uint8Array): boolean {
    if (signature.length !== SIGNATURE_LENGTH) return false;
    try {
      return verify(null, message, key as KeyObject, signature);
    } catch {
      return false;
    }
  }

  /** RFC 8037 §2: `{kty: "OKP", crv: "Ed25519", x}`. */
  publicKeyToJwk(publicKey: Uint8Array): PublicJwk {
    checkKeyLength(publicKey, KEY_LENGTH, "Ed25519 public key");
    return { kty: "OKP", crv: "Ed25519", x: encodeBase64url(publicKey) };
  }

  publicKeyFromJwk(jwk: PublicJwk): Uint8Array {
    const record = checkJwkType(jwk, JWK_TYPE);
    checkNoPrivateMembers(record, ["d"]);
    return readJwkBytes(record, "x", KEY_LENGTH);
  }

  /** RFC 8037 §2: `d` is the seed, `x` must be present and must be the public key of `d`. */
  privateKeyFromJwk(jwk: PrivateJwk): GeneratedKeyPair {
    const record = checkJwkType(jwk, JWK_TYPE);
    const privateKey = readJwkBytes(record, "d", KEY_LENGTH);
    const publicKey = readJwkBytes(record, "x", KEY_LENGTH);
    if (!bytesEqual(this.derivePublicKey(privateKey), publicKey)) throw invalidKey("JWK x does not match d");
    return { publicKey, privateKey };
  }

  /** RFC 9053 §7.2: OKP key `{1: 1 (OKP), -1: 6 (Ed25519), -2: x}`. */
  publicKeyToCose(publicKey: Uint8Array): CoseKey {
    checkKeyLength(publicKey, KEY_LENGTH, "Ed25519 public key");
    return new Map<number, number | Uint8Array>([
      [1, 1],
      [-1, 6],
      [-2, publicKey],
    ]);
  }

  publicKeyFromCose(coseKey: CoseKey): Uint8Array {
    checkCoseValue(coseKey, 1, 1, "kty");
    checkCoseValue(coseKey, -1, 6, "crv");
    checkCoseAlg(coseKey, COSE_ALGS);
    if (coseKey.has(-4)) throw invalidKey("public COSE_Key must not contain d (-4)");
    return readCoseBytes(coseKey, -2, KEY_LENGTH, "x");
  }

  /** did:key §3.1.2 (Ed25519): multicodec ed25519-pub (0xed) + raw key, base58btc → `z6Mk…`. */
  publicKeyToMultibase(publicKey: Uint8Array): string {
    checkKeyLength(publicKey, KEY_LENGTH, "Ed25519 public key");
    return encodeMultibase(MULTICODEC.ED25519_PUB, publicKey);
  }
}

/** RFC 8037 §3.1 "EdDSA"; RFC 9864 §2.2 adds the fully-specified "Ed25519". */
const JWK_TYPE = { kty: "OKP", crv: "Ed25519", algs: ["EdDSA", "Ed25519"] } as const;
/** RFC 9053 §2.2 EdDSA (-8); RFC 9864 Ed25519 (-19). */
const COSE_ALGS = [-8, -19] as const;
