import type { KeyAlgorithmType } from "../../../domain/enums.js";
import { CredkitError } from "../../../errors/index.js";
import type { CredentialFormatter, CredentialFormatterCapabilities } from "../../../ports/credential-formatter.js";
import type { KeyAlgorithm } from "../../../ports/key-algorithm.js";
import { createJwsVerifier } from "../../jose/verify-jws-signature.js";
import { createSdJwtVcPresentation } from "./create-presentation.js";
import { issueSdJwtVc } from "./issue-sd-jwt-vc.js";
import { verifySdJwtVcPresentation } from "./verify-presentation.js";
import { verifySdJwtVc } from "./verify-sd-jwt-vc.js";

export interface SdJwtVcFormatterOptions {
  /** the enabled key algorithms (createKeyAlgorithms()); they decide which JOSE algs are signed and verified */
  algorithms: Map<KeyAlgorithmType, KeyAlgorithm>;
  /** prepared issuer / holder public keys kept for reuse; default 256 */
  keyCacheSize?: number;
}

/** JOSE algs in the order capabilities list them. */
const SIGNING_ALGORITHMS = ["EdDSA", "ES256", "ML-DSA-65"];

/**
 * The SD_JWT_VC credential format: SD-JWT VC (draft-ietf-oauth-sd-jwt-vc, `typ: dc+sd-jwt`) over SD-JWT (RFC 9901)
 * with every subject claim selectively disclosable and key binding through `cnf.jwk` + KB-JWT. Verification failures
 * are CredkitError BR_0355 (malformed input BR_0189) with a `detail` naming the failed check.
 */
export function createSdJwtVcFormatter(options: SdJwtVcFormatterOptions): CredentialFormatter {
  const jwsVerifier = createJwsVerifier(options.algorithms, { cacheSize: options.keyCacheSize });
  const supported = SIGNING_ALGORITHMS.filter((alg) => jwsVerifier.algorithms.includes(alg));
  const capabilities: CredentialFormatterCapabilities = {
    features: ["SELECTIVE_DISCLOSURE", "HOLDER_BINDING"],
    signingAlgorithms: supported,
  };
  return {
    capabilities,
    async formatCredential(input) {
      if (!supported.includes(input.signer.alg)) {
        throw new CredkitError("BR_0381", `signer alg "${input.signer.alg}" is not one of ${supported.join(", ")}`);
      }
      return issueSdJwtVc(input);
    },
    verifyCredential: (credential, verifyOptions) => verifySdJwtVc(credential, verifyOptions, jwsVerifier),
    createPresentation: (credential, presentationOptions) => createSdJwtVcPresentation(credential, presentationOptions),
    verifyPresentation: (presentation, verifyOptions) =>
      verifySdJwtVcPresentation(presentation, verifyOptions, jwsVerifier),
  };
}
