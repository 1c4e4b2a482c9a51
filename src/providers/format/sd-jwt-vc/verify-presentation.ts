import { CredkitError } from "../../../errors/index.js";
import type { ParsedPresentation, VerifyPresentationOptions } from "../../../ports/credential-formatter.js";
import type { JwsVerifier } from "../../jose/verify-jws-signature.js";
import { splitSdJwt } from "./decode-sd-jwt.js";
import { verifyKeyBindingJwt } from "./verify-key-binding-jwt.js";
import { verifySdJwtVcParts } from "./verify-sd-jwt-vc.js";

/**
 * Verify a presented SD-JWT VC (`<issuer-jwt>~<disclosures>~[<kb-jwt>]`, RFC 9901 §7.3): the credential as
 * verifySdJwtVcParts does, then the Key Binding JWT. With `options.keyBinding` a KB-JWT is required, signed by
 * `cnf.jwk`, with that audience and nonce, `iat` within `leeway` of now and a matching `sd_hash`; without it a KB-JWT
 * that is present is still verified (signature, sd_hash, iat) but aud and nonce are not compared.
 * `disclosedClaims` holds only what the presented Disclosures (and the always-visible claims) reveal.
 */
export async function verifySdJwtVcPresentation(
  presentation: string,
  options: VerifyPresentationOptions,
  jwsVerifier: JwsVerifier,
): Promise<ParsedPresentation> {
  const parts = splitSdJwt(presentation);
  const { credential } = await verifySdJwtVcParts(parts, options, jwsVerifier);
  const parsed: ParsedPresentation = { ...credential, disclosedClaims: { ...credential.claims } };

  if (parts.keyBindingJwt === undefined) {
    if (options.keyBinding !== undefined) throw reject("key binding JWT missing but required");
    return parsed;
  }
  if (credential.holderJwk === undefined) {
    throw reject("key binding JWT present but the credential has no holder binding key (cnf.jwk)");
  }
  parsed.keyBinding = verifyKeyBindingJwt(
    parts.keyBindingJwt,
    {
      holderJwk: credential.holderJwk,
      sdJwt: parts.sdJwt,
      audience: options.keyBinding?.audience,
      nonce: options.keyBinding?.nonce,
      now: options.now,
      leeway: options.leeway,
    },
    jwsVerifier,
  );
  return parsed;
}

function reject(detail: string): CredkitError {
  return new CredkitError("BR_0355", detail);
}
