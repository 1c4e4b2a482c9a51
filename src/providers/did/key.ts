import type { DidDocument } from "../../domain/did.js";
import type { DidKeyRole, KeyAlgorithmType } from "../../domain/enums.js";
import { decodeMultibase, MULTICODEC } from "../../encoding/multibase.js";
import { CredkitError } from "../../errors/index.js";
import type { DidCreateInput, DidCreateResult, DidMethod, DidMethodCapabilities } from "../../ports/did-method.js";
import type { KeyAlgorithm } from "../../ports/key-algorithm.js";
import { createKeyAlgorithms } from "../key-algorithm/index.js";
import { buildDidDocument } from "./build-did-document.js";
import { parseDidOfMethod } from "./parse-did.js";
import { requireSingleKey } from "./single-key.js";

/** did:key key types credkit handles, by multicodec code (did:key spec §3.1.2 Ed25519, §3.1.4 P-256). */
const KEY_TYPE_BY_CODEC = new Map<number, KeyAlgorithmType>([
  [MULTICODEC.ED25519_PUB, "EDDSA"],
  [MULTICODEC.P256_PUB, "ECDSA"],
]);
const SUPPORTED_KEY_TYPES: readonly KeyAlgorithmType[] = ["EDDSA", "ECDSA"];

const SIGNING_ROLES: readonly DidKeyRole[] = [
  "AUTHENTICATION",
  "ASSERTION_METHOD",
  "CAPABILITY_INVOCATION",
  "CAPABILITY_DELEGATION",
];
/** P-256 keys also do ECDH; Ed25519 keys never do key agreement (that would need a derived X25519 key). */
const ECDH_ROLES: readonly DidKeyRole[] = [...SIGNING_ROLES, "KEY_AGREEMENT"];

export interface KeyDidMethodOptions {
  /** configured key algorithms; default all of them */
  algorithms?: Map<KeyAlgorithmType, KeyAlgorithm>;
}

/**
 * did:key (W3C CCG did:key Method v0.7): the DID is `did:key:` + the multibase (base58btc) of the multicodec-prefixed
 * public key. Resolution is a pure function of the DID: one JsonWebKey2020 verification method `did:key:z…#z…`.
 */
export function createKeyDidMethod(options: KeyDidMethodOptions = {}): DidMethod {
  const algorithms = options.algorithms ?? createKeyAlgorithms();
  const keyAlgorithms = SUPPORTED_KEY_TYPES.filter((type) => algorithms.has(type));
  const capabilities: DidMethodCapabilities = {
    operations: ["RESOLVE", "CREATE"],
    keyAlgorithms,
    methodNames: ["key"],
  };

  function algorithmOf(keyType: KeyAlgorithmType): KeyAlgorithm {
    const algorithm = keyAlgorithms.includes(keyType) ? algorithms.get(keyType) : undefined;
    if (algorithm === undefined) throw new CredkitError("BR_0065", `did:key does not support ${keyType} keys`);
    return algorithm;
  }

  function validateKeys(input: DidCreateInput): void {
    algorithmOf(requireSingleKey(input, "key").keyType);
  }

  return {
    capabilities,
    validateKeys,

    async create(input: DidCreateInput): Promise<DidCreateResult> {
      const key = requireSingleKey(input, "key");
      // did:key §3.1.1 Create: did:key:<multibase(multicodec(public key))>
      const multibase = algorithmOf(key.keyType).publicKeyToMultibase(key.publicKey);
      return { did: `did:key:${multibase}`, references: { [key.keyId]: multibase } };
    },

    async resolve(did: string): Promise<DidDocument> {
      const { methodSpecificId } = parseDidOfMethod(did, "key");
      let decoded: ReturnType<typeof decodeMultibase>;
      try {
        decoded = decodeMultibase(methodSpecificId);
      } catch (error) {
        throw new CredkitError("BR_0364", `did:key identifier is not base58btc multibase: ${did}`, { cause: error });
      }
      const keyType = KEY_TYPE_BY_CODEC.get(decoded.codec);
      const algorithm = keyType === undefined ? undefined : algorithms.get(keyType);
      if (keyType === undefined || algorithm === undefined) {
        throw new CredkitError("BR_0363", `did:key multicodec 0x${decoded.codec.toString(16)} is not supported`);
      }
      let publicKeyJwk: ReturnType<KeyAlgorithm["publicKeyToJwk"]>;
      try {
        publicKeyJwk = algorithm.publicKeyToJwk(decoded.bytes);
      } catch (error) {
        // did:key §3.1.3: invalidPublicKeyLength / invalidPublicKey
        throw new CredkitError("BR_0364", `did:key does not hold a valid ${keyType} public key`, { cause: error });
      }
      // only the canonical encoding is accepted, so one key has exactly one did:key
      if (algorithm.publicKeyToMultibase(decoded.bytes) !== methodSpecificId) {
        throw new CredkitError("BR_0364", "did:key identifier is not canonically encoded");
      }
      return buildDidDocument(did, [
        { fragment: methodSpecificId, publicKeyJwk, roles: keyType === "ECDSA" ? ECDH_ROLES : SIGNING_ROLES },
      ]);
    },
  };
}
