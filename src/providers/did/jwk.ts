import type { DidDocument } from "../../domain/did.js";
import type { DidKeyRole, KeyAlgorithmType } from "../../domain/enums.js";
import { decodeBase64urlUtf8, encodeBase64urlUtf8 } from "../../encoding/base64url.js";
import { CredkitError } from "../../errors/index.js";
import type { DidCreateInput, DidCreateResult, DidMethod, DidMethodCapabilities } from "../../ports/did-method.js";
import type { KeyAlgorithm, PublicJwk } from "../../ports/key-algorithm.js";
import { createKeyAlgorithms } from "../key-algorithm/index.js";
import { toThumbprintMembers } from "../key-algorithm/jwk-thumbprint.js";
import { buildDidDocument } from "./build-did-document.js";
import { parseDidOfMethod } from "./parse-did.js";
import { requireSingleKey } from "./single-key.js";

/** did:jwk spec §Read: a key without `use`, or with another value, appears in every relationship. */
const ALL_ROLES: readonly DidKeyRole[] = [
  "ASSERTION_METHOD",
  "AUTHENTICATION",
  "CAPABILITY_INVOCATION",
  "CAPABILITY_DELEGATION",
  "KEY_AGREEMENT",
];
const SIGNATURE_ROLES = ALL_ROLES.filter((role) => role !== "KEY_AGREEMENT");
const ENCRYPTION_ROLES: readonly DidKeyRole[] = ["KEY_AGREEMENT"];
/** Members that only a private JWK carries (RFC 7518 §6.2.2, §6.3.2, §6.4; draft-ietf-cose-dilithium `priv`). */
const PRIVATE_MEMBERS = ["d", "p", "q", "dp", "dq", "qi", "oth", "k", "priv"];

export interface JwkDidMethodOptions {
  /** configured key algorithms; default all of them */
  algorithms?: Map<KeyAlgorithmType, KeyAlgorithm>;
}

/**
 * did:jwk (https://github.com/quartzjer/did-jwk/blob/main/spec.md): the DID is `did:jwk:` + base64url(UTF-8 JSON of
 * the public JWK). credkit writes the JWK in its RFC 7638 canonical form (required members, sorted), so a key always
 * gets the same DID; any JSON member order is accepted on resolution. One verification method `#0`.
 */
export function createJwkDidMethod(options: JwkDidMethodOptions = {}): DidMethod {
  const algorithms = options.algorithms ?? createKeyAlgorithms();
  const capabilities: DidMethodCapabilities = {
    operations: ["RESOLVE", "CREATE"],
    keyAlgorithms: [...algorithms.keys()],
    methodNames: ["jwk"],
  };

  function algorithmOf(keyType: KeyAlgorithmType): KeyAlgorithm {
    const algorithm = algorithms.get(keyType);
    if (algorithm === undefined) throw new CredkitError("BR_0065", `did:jwk does not support ${keyType} keys`);
    return algorithm;
  }

  return {
    capabilities,

    validateKeys(input: DidCreateInput): void {
      algorithmOf(requireSingleKey(input, "jwk").keyType);
    },

    async create(input: DidCreateInput): Promise<DidCreateResult> {
      const key = requireSingleKey(input, "jwk");
      const jwk = toThumbprintMembers(algorithmOf(key.keyType).publicKeyToJwk(key.publicKey));
      // did:jwk spec §Create: serialise to UTF-8, base64url-encode, prefix "did:jwk:"
      return { did: `did:jwk:${encodeBase64urlUtf8(JSON.stringify(jwk))}`, references: { [key.keyId]: "0" } };
    },

    async resolve(did: string): Promise<DidDocument> {
      const { methodSpecificId } = parseDidOfMethod(did, "jwk");
      const jwk = decodeJwk(methodSpecificId);
      const algorithm = algorithmForJwk(jwk, algorithms);
      if (algorithm !== undefined) {
        try {
          algorithm.publicKeyFromJwk(publicPart(jwk));
        } catch (error) {
          throw new CredkitError("BR_0364", `did:jwk holds an invalid ${algorithm.type} key`, { cause: error });
        }
      }
      // did:jwk spec §Read: use "sig" drops keyAgreement, use "enc" keeps only keyAgreement
      const roles = jwk.use === "sig" ? SIGNATURE_ROLES : jwk.use === "enc" ? ENCRYPTION_ROLES : ALL_ROLES;
      return buildDidDocument(did, [{ fragment: "0", publicKeyJwk: jwk, roles }]);
    },
  };
}

function decodeJwk(value: string): PublicJwk {
  let jwk: unknown;
  try {
    jwk = JSON.parse(decodeBase64urlUtf8(value));
  } catch (error) {
    throw new CredkitError("BR_0364", "did:jwk identifier is not base64url-encoded JSON", { cause: error });
  }
  if (typeof jwk !== "object" || jwk === null || Array.isArray(jwk) || typeof (jwk as PublicJwk).kty !== "string") {
    throw new CredkitError("BR_0364", "did:jwk identifier is not a JWK");
  }
  const record = jwk as PublicJwk;
  // did:jwk spec §Security: the JWK must not contain private key material
  const leaked = PRIVATE_MEMBERS.find((member) => record[member] !== undefined);
  if (leaked !== undefined) throw new CredkitError("BR_0364", `did:jwk JWK contains the private member "${leaked}"`);
  return record;
}

/** The configured algorithm a JWK belongs to, if credkit knows the key type; other types resolve unvalidated. */
function algorithmForJwk(jwk: PublicJwk, algorithms: Map<KeyAlgorithmType, KeyAlgorithm>): KeyAlgorithm | undefined {
  if (jwk.kty === "OKP" && jwk.crv === "Ed25519") return algorithms.get("EDDSA");
  if (jwk.kty === "EC" && jwk.crv === "P-256") return algorithms.get("ECDSA");
  if (jwk.kty === "AKP" && jwk.alg === "ML-DSA-65") return algorithms.get("ML_DSA");
  return undefined;
}

/** `use` is checked by the relationship rules above, not by the key parser (an "enc" P-256 key is a valid key). */
function publicPart(jwk: PublicJwk): PublicJwk {
  const { use: _use, ...rest } = jwk;
  return rest;
}
