import {
  createECDH,
  createPrivateKey,
  createPublicKey,
  ECDH,
  generateKeyPairSync,
  type KeyObject,
  sign,
  verify,
} from "node:crypto";
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

const CURVE = "prime256v1";
const SCALAR_LENGTH = 32;
const COORDINATE_LENGTH = 32;
const COMPRESSED_LENGTH = 33;
const SIGNATURE_LENGTH = 64;
/** RFC 5208 PrivateKeyInfo (id-ecPublicKey, prime256v1) wrapping an RFC 5915 ECPrivateKey with only the scalar. */
const PKCS8_PREFIX = Buffer.from("308141020100301306072a8648ce3d020106082a8648ce3d030107042730250201010420", "hex");
/** RFC 5480 SubjectPublicKeyInfo (id-ecPublicKey, prime256v1) followed by a 33-byte compressed point. */
const SPKI_COMPRESSED_PREFIX = Buffer.from("3039301306072a8648ce3d020106082a8648ce3d030107032200", "hex");

/** What sign() passes to node:crypto: built once per key, so a signature allocates nothing but its output. */
interface PreparedEcKey {
  key: KeyObject;
  dsaEncoding: "ieee-p1363";
}

/**
 * ECDSA: P-256 with SHA-256 through node:crypto. JOSE `ES256` (RFC 7518 §3.4: signature is r||s, 64 bytes — the IEEE
 * P1363 form, not DER), COSE alg -7 with EC2 keys (RFC 9053 §2.1, §7.1). Public key: 33-byte compressed SEC1 point
 * (SEC 1 §2.3.3); private key: the 32-byte scalar d.
 */
export class EcdsaKeyAlgorithm implements KeyAlgorithm {
  readonly type: KeyAlgorithmType = "ECDSA";
  readonly jwsAlgorithm = "ES256";
  readonly coseAlgorithm = -7;
  readonly capabilities: KeyAlgorithmCapabilities = { features: ["IMPORT"] };

  generateKeyPair(): GeneratedKeyPair {
    const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const jwk = privateKey.export({ format: "jwk" });
    return {
      publicKey: compressPoint(decodeBase64url(jwk.x!), decodeBase64url(jwk.y!)),
      privateKey: decodeBase64url(jwk.d!),
    };
  }

  derivePublicKey(privateKey: Uint8Array): Uint8Array {
    checkKeyLength(privateKey, SCALAR_LENGTH, "P-256 private key");
    const ecdh = createECDH(CURVE);
    try {
      // setPrivateKey rejects 0 and scalars >= n
      ecdh.setPrivateKey(privateKey);
    } catch (error) {
      throw invalidKey("P-256 private key out of range", error);
    }
    return asBytes(ecdh.getPublicKey(null, "compressed"));
  }

  preparePrivateKey(privateKey: Uint8Array): PreparedEcKey {
    checkKeyLength(privateKey, SCALAR_LENGTH, "P-256 private key");
    try {
      const key = createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, privateKey]), format: "der", type: "pkcs8" });
      return { key, dsaEncoding: "ieee-p1363" };
    } catch (error) {
      throw invalidKey("P-256 private key rejected", error);
    }
  }

  preparePublicKey(publicKey: Uint8Array): PreparedEcKey {
    checkKeyLength(publicKey, COMPRESSED_LENGTH, "P-256 public key (compressed)");
    try {
      // OpenSSL decompresses the point and rejects an x that is not on the curve
      const der = Buffer.concat([SPKI_COMPRESSED_PREFIX, publicKey]);
      return { key: createPublicKey({ key: der, format: "der", type: "spki" }), dsaEncoding: "ieee-p1363" };
    } catch (error) {
      throw invalidKey("P-256 public key is not a point on the curve", error);
    }
  }

  sign(key: PreparedPrivateKey, message: Uint8Array): Uint8Array {
    try {
      return sign("sha256", message, key as PreparedEcKey);
    } catch (error) {
      throw new CredkitError("BR_0063", "ES256 signing failed", { cause: error });
    }
  }

  verify(key: PreparedPublicKey, message: Uint8Array, signature: Uint8Array): boolean {
    if (signature.length !== SIGNATURE_LENGTH) return false;
    try {
      return verify("sha256", message, key as PreparedEcKey, signature);
    } catch {
      return false;
    }
  }

  /** RFC 7518 §6.2.1: `{kty: "EC", crv: "P-256", x, y}`, coordinates as 32-byte big-endian. */
  publicKeyToJwk(publicKey: Uint8Array): PublicJwk {
    const point = decompressPoint(publicKey);
    return {
      kty: "EC",
      crv: "P-256",
      x: encodeBase64url(point.subarray(1, 1 + COORDINATE_LENGTH)),
      y: encodeBase64url(point.subarray(1 + COORDINATE_LENGTH)),
    };
  }

  publicKeyFromJwk(jwk: PublicJwk): Uint8Array {
    const record = checkJwkType(jwk, JWK_TYPE);
    checkNoPrivateMembers(record, ["d"]);
    return compressPoint(readJwkBytes(record, "x", COORDINATE_LENGTH), readJwkBytes(record, "y", COORDINATE_LENGTH));
  }

  /** RFC 7518 §6.2.2: `d` is the scalar; x/y must be present and be the public point of `d`. */
  privateKeyFromJwk(jwk: PrivateJwk): GeneratedKeyPair {
    const record = checkJwkType(jwk, JWK_TYPE);
    const privateKey = readJwkBytes(record, "d", SCALAR_LENGTH);
    const publicKey = compressPoint(
      readJwkBytes(record, "x", COORDINATE_LENGTH),
      readJwkBytes(record, "y", COORDINATE_LENGTH),
    );
    if (!bytesEqual(this.derivePublicKey(privateKey), publicKey)) throw invalidKey("JWK x/y do not match d");
    return { publicKey, privateKey };
  }

  /** RFC 9053 §7.1.1: EC2 key `{1: 2 (EC2), -1: 1 (P-256), -2: x, -3: y}`. */
  publicKeyToCose(publicKey: Uint8Array): CoseKey {
    const point = decompressPoint(publicKey);
    return new Map<number, number | Uint8Array>([
      [1, 2],
      [-1, 1],
      [-2, Uint8Array.from(point.subarray(1, 1 + COORDINATE_LENGTH))],
      [-3, Uint8Array.from(point.subarray(1 + COORDINATE_LENGTH))],
    ]);
  }

  publicKeyFromCose(coseKey: CoseKey): Uint8Array {
    checkCoseValue(coseKey, 1, 2, "kty");
    checkCoseValue(coseKey, -1, 1, "crv");
    checkCoseAlg(coseKey, COSE_ALGS);
    if (coseKey.has(-4)) throw invalidKey("public COSE_Key must not contain d (-4)");
    return compressPoint(
      readCoseBytes(coseKey, -2, COORDINATE_LENGTH, "x"),
      readCoseBytes(coseKey, -3, COORDINATE_LENGTH, "y"),
    );
  }

  /** did:key §3.1.4 (P-256): multicodec p256-pub (0x1200) + compressed point, base58btc → `zDn…`. */
  publicKeyToMultibase(publicKey: Uint8Array): string {
    checkKeyLength(publicKey, COMPRESSED_LENGTH, "P-256 public key (compressed)");
    return encodeMultibase(MULTICODEC.P256_PUB, publicKey);
  }
}

/** RFC 7518 §3.4 ES256; RFC 9864 keeps ES256 as fully specified. */
const JWK_TYPE = { kty: "EC", crv: "P-256", algs: ["ES256"] } as const;
/** RFC 9053 §2.1 ES256 (-7); RFC 9864 ESP256 (-9). */
const COSE_ALGS = [-7, -9] as const;

/** Compress an affine point, validating that it lies on P-256 (OpenSSL EC_POINT_oct2point checks the curve equation). */
function compressPoint(x: Uint8Array, y: Uint8Array): Uint8Array {
  const uncompressed = Buffer.allocUnsafe(1 + 2 * COORDINATE_LENGTH);
  uncompressed[0] = 0x04;
  uncompressed.set(x, 1);
  uncompressed.set(y, 1 + COORDINATE_LENGTH);
  try {
    return asBytes(ECDH.convertKey(uncompressed, CURVE, undefined, undefined, "compressed") as Buffer);
  } catch (error) {
    throw invalidKey("P-256 point is not on the curve", error);
  }
}

/** 0x04 || x || y of a compressed point; rejects an x with no point on the curve. */
function decompressPoint(publicKey: Uint8Array): Buffer {
  checkKeyLength(publicKey, COMPRESSED_LENGTH, "P-256 public key (compressed)");
  try {
    return ECDH.convertKey(publicKey, CURVE, undefined, undefined, "uncompressed") as Buffer;
  } catch (error) {
    throw invalidKey("P-256 public key is not a point on the curve", error);
  }
}
