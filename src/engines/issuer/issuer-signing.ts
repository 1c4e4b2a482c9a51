import type { Identifier } from "../../domain/identifier.js";
import type { Key } from "../../domain/key.js";
import { CredkitError } from "../../errors/credkit-error.js";
import type { PublicJwk } from "../../ports/key-algorithm.js";
import type { Signer } from "../../ports/signer.js";
import type { StorageRepositories } from "../../ports/storage.js";
import { computeJwkThumbprint } from "../../providers/key-algorithm/jwk-thumbprint.js";
import { getKeyAlgorithm } from "../../providers/registry.js";
import type { EngineDeps } from "../common/engine-deps.js";
import { createKeySigner } from "../common/key-signer.js";

/** How an identifier signs what it issues: the assertion key, its `kid`, and the `iss` value. */
export interface IssuerSigning {
  key: Key;
  signer: Signer;
  /** public JWK of the key, with `kid` */
  jwk: PublicJwk;
  /** DID for DID identifiers; for KEY identifiers the HTTPS issuer URL given by the caller */
  issuer: string;
}

/**
 * Picks the assertion key of an identifier (DID: a key with role ASSERTION_METHOD, or `keyId` if it is one; KEY: its
 * key). DID identifiers sign with `kid` = DID URL; KEY identifiers with `kid` = JWK thumbprint (RFC 7638), published in
 * the jwt-vc-issuer metadata JWKS.
 */
export async function resolveIssuerSigning(
  deps: Pick<EngineDeps, "providers">,
  storage: StorageRepositories,
  identifier: Identifier,
  options: { keyId?: string; keyIssuerUrl: string },
): Promise<IssuerSigning> {
  if (identifier.state !== "ACTIVE") throw new CredkitError("BR_0218", `identifier ${identifier.id} is deactivated`);
  let key: Key | undefined;
  let kid: string;
  let issuer: string;
  if (identifier.type === "DID" && identifier.didId) {
    const did = await storage.dids.get(identifier.didId);
    if (!did || did.deactivated) throw new CredkitError("BR_0027", `DID of identifier ${identifier.id} is deactivated`);
    const assertion = did.keys.filter((k) => k.role === "ASSERTION_METHOD");
    const chosen = options.keyId ? assertion.find((k) => k.keyId === options.keyId) : assertion[0];
    if (!chosen) {
      throw new CredkitError(
        options.keyId ? "BR_0330" : "BR_0222",
        `no assertion key ${options.keyId ?? ""} on ${did.did}`.trim(),
      );
    }
    key = await storage.keys.get(chosen.keyId);
    kid = `${did.did}#${chosen.reference}`;
    issuer = did.did;
  } else if (identifier.type === "KEY" && identifier.keyId) {
    if (options.keyId && options.keyId !== identifier.keyId)
      throw new CredkitError("BR_0330", `key ${options.keyId} is not the identifier's key`);
    key = await storage.keys.get(identifier.keyId);
    kid = "";
    issuer = options.keyIssuerUrl;
  } else {
    throw new CredkitError("BR_0218", `identifier ${identifier.id} of type ${identifier.type} cannot issue`);
  }
  if (!key) throw new CredkitError("BR_0037", `key of identifier ${identifier.id} not found`);
  const algorithm = getKeyAlgorithm(deps.providers, key.keyType);
  const publicJwk = algorithm.publicKeyToJwk(key.publicKey);
  kid ||= computeJwkThumbprint(publicJwk);
  return {
    key,
    signer: createKeySigner(deps.providers, key, kid),
    jwk: { ...publicJwk, kid, alg: algorithm.jwsAlgorithm, use: "sig" },
    issuer,
  };
}
