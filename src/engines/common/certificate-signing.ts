import type { X509Certificate } from "node:crypto";
import type { Certificate, Identifier } from "../../domain/identifier.js";
import type { Key } from "../../domain/key.js";
import { CredkitError } from "../../errors/credkit-error.js";
import type { PublicJwk } from "../../ports/key-algorithm.js";
import type { Signer } from "../../ports/signer.js";
import type { StorageRepositories } from "../../ports/storage.js";
import { computeJwkThumbprint } from "../../providers/key-algorithm/jwk-thumbprint.js";
import { getKeyAlgorithm } from "../../providers/registry.js";
import { checkValidityPeriod, toX5c } from "../../providers/x509/index.js";
import type { EngineDeps } from "./engine-deps.js";
import { loadIdentifierCertificate } from "./identifier-certificate.js";
import { createKeySigner } from "./key-signer.js";

/** How a CERTIFICATE identifier signs JWS: its certificate, the certified key and the `x5c` header value. */
export interface CertificateSigning {
  certificate: Certificate;
  /** the stored chain, leaf first */
  chain: X509Certificate[];
  leaf: X509Certificate;
  key: Key;
  /** signs with the certified key; no `kid` (the `x5c` header names the key) */
  signer: Signer;
  /** public JWK of the key */
  jwk: PublicJwk;
  /**
   * `x5c` JOSE header (RFC 7515 §4.1.6): the chain leaf first, without a trailing self-signed root — the trust anchor
   * is known to the relying party and is not sent (OpenID4VC HAIP 1.0 §5: "the X.509 certificate of the trust anchor
   * MUST NOT be included in the x5c JOSE header"). A chain of one self-signed certificate is sent as it is.
   */
  x5c: string[];
}

function isSelfSigned(certificate: X509Certificate): boolean {
  if (!certificate.checkIssued(certificate)) return false;
  try {
    return certificate.verify(certificate.publicKey);
  } catch {
    return false;
  }
}

/**
 * The signing material of a CERTIFICATE identifier (its active certificate, or `certificateId`). Refused when the
 * identifier is deactivated (BR_0218), has no usable certificate (see loadIdentifierCertificate), the leaf is outside
 * its validity period (BR_0213 / BR_0359), or the leaf does not certify the stored key (BR_0330).
 */
export async function resolveCertificateSigning(
  deps: Pick<EngineDeps, "providers" | "clock">,
  storage: StorageRepositories,
  identifier: Identifier,
  certificateId?: string,
): Promise<CertificateSigning> {
  if (identifier.state !== "ACTIVE") throw new CredkitError("BR_0218", `identifier ${identifier.id} is deactivated`);
  const { certificate, chain, key } = await loadIdentifierCertificate(storage, identifier, certificateId);
  const leaf = chain[0]!;
  checkValidityPeriod(leaf, deps.clock.now(), 0, `certificate ${certificate.id}`);
  const algorithm = getKeyAlgorithm(deps.providers, key.keyType);
  const jwk = algorithm.publicKeyToJwk(key.publicKey);
  let certified: string | undefined;
  try {
    certified = computeJwkThumbprint(leaf.publicKey.export({ format: "jwk" }) as PublicJwk);
  } catch {
    certified = undefined;
  }
  if (certified !== computeJwkThumbprint(jwk)) {
    throw new CredkitError("BR_0330", `certificate ${certificate.id} does not certify key ${key.id}`);
  }
  const sent = chain.length > 1 && isSelfSigned(chain[chain.length - 1]!) ? chain.slice(0, -1) : chain;
  return {
    certificate,
    chain,
    leaf,
    key,
    signer: createKeySigner(deps.providers, key),
    jwk: { ...jwk, alg: algorithm.jwsAlgorithm, use: "sig" },
    x5c: toX5c(sent),
  };
}
