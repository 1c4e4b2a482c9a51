import type { PublicJwk } from "../../../ports/key-algorithm.js";
import type { Signer } from "../../../ports/signer.js";
import { numericDateOf } from "../../../providers/jose/jwt-claims.js";
import { signCompactJws } from "../../../providers/jose/sign-compact-jws.js";

/** `typ` of a key proof of the jwt proof type (OpenID4VCI 1.0 Appendix F.1). */
export const PROOF_JWT_TYP = "openid4vci-proof+jwt";

export interface ProofJwtInput {
  /** signs with the holder key; its `alg` goes to the header */
  signer: Signer;
  /** how the issuer finds the key: a DID URL (`kid`) or the public key itself (`jwk`) — exactly one */
  holder: { kid: string } | { jwk: PublicJwk };
  /** the Credential Issuer Identifier (`aud`) */
  audience: string;
  /** the c_nonce from the Nonce Endpoint, when the issuer has one */
  nonce?: string;
  issuedAt: Date;
}

/**
 * A key proof JWT (OpenID4VCI 1.0 Appendix F.1): header `{typ: "openid4vci-proof+jwt", alg, kid | jwk}`, payload
 * `{aud, iat, nonce?}`. `iss` (the client_id) is left out: the pre-authorized code flow is used anonymously.
 */
export function createProofJwt(input: ProofJwtInput): Promise<string> {
  const header: Record<string, unknown> =
    "kid" in input.holder
      ? { typ: PROOF_JWT_TYP, kid: input.holder.kid }
      : { typ: PROOF_JWT_TYP, jwk: input.holder.jwk };
  const payload: Record<string, unknown> = { aud: input.audience, iat: numericDateOf(input.issuedAt) };
  if (input.nonce !== undefined) payload.nonce = input.nonce;
  return signCompactJws(header, payload, input.signer);
}
