import { CredkitError } from "../../../errors/credkit-error.js";
import type { PublicJwk } from "../../../ports/key-algorithm.js";
import type { Signer } from "../../../ports/signer.js";
import type { RemoteHttp } from "../../common/remote-http.js";
import { requestCredential } from "./credential-request.js";
import type { CredentialIssuerMetadata } from "./issuer-metadata.js";
import { requestNonce } from "./nonce-request.js";
import { createProofJwt } from "./proof-jwt.js";
import { requestPreAuthorizedToken, type TokenResponse } from "./token-request.js";

export interface ObtainCredentialInput {
  issuerMetadata: CredentialIssuerMetadata;
  tokenEndpoint: string;
  credentialConfigurationId: string;
  preAuthorizedCode: string;
  txCode?: string;
  /** the holder key's signer and how the proof names it; absent when the configuration asks for no key proof */
  proof?: { signer: Signer; holder: { kid: string } | { jwk: PublicJwk } };
  now: () => Date;
}

export interface ObtainedCredential {
  token: TokenResponse;
  /** when the token response arrived (start of its expires_in) */
  tokenReceivedAt: Date;
  /** the issued credential as received (compact SD-JWT VC) */
  credential: string;
  notificationId?: string;
}

/**
 * The wallet's side of the pre-authorized code flow, up to the issued credential: token request (OpenID4VCI 1.0 §6),
 * c_nonce from the Nonce Endpoint (§7; the token response's c_nonce from earlier drafts otherwise), key proof
 * (Appendix F.1) and credential request (§8), retried once with a fresh nonce when the issuer answers invalid_nonce.
 * Nothing is verified or stored here.
 */
export async function obtainCredential(http: RemoteHttp, input: ObtainCredentialInput): Promise<ObtainedCredential> {
  const metadata = input.issuerMetadata;
  // a wrong tx code fails here (BR_0169) before anything changed
  const token = await requestPreAuthorizedToken(http, {
    tokenEndpoint: input.tokenEndpoint,
    preAuthorizedCode: input.preAuthorizedCode,
    ...(input.txCode !== undefined && { txCode: input.txCode }),
  });
  const tokenReceivedAt = input.now();
  const { proof } = input;

  const fetchNonce = async () =>
    metadata.nonce_endpoint !== undefined ? requestNonce(http, metadata.nonce_endpoint) : token.c_nonce;
  const send = async (nonce: string | undefined) => {
    const proofJwts =
      proof === undefined
        ? undefined
        : [
            await createProofJwt({
              signer: proof.signer,
              holder: proof.holder,
              audience: metadata.credential_issuer,
              ...(nonce !== undefined && { nonce }),
              issuedAt: input.now(),
            }),
          ];
    return requestCredential(http, {
      credentialEndpoint: metadata.credential_endpoint,
      accessToken: token.access_token,
      credentialConfigurationId: input.credentialConfigurationId,
      ...(proofJwts !== undefined && { proofJwts }),
    });
  };

  let outcome = await send(proof !== undefined ? await fetchNonce() : undefined);
  if (outcome.kind === "invalid_nonce" && proof !== undefined && metadata.nonce_endpoint !== undefined) {
    outcome = await send(await fetchNonce());
  }
  if (outcome.kind === "invalid_nonce") {
    throw new CredkitError(
      "BR_0173",
      `credential request: the issuer rejected the key proof nonce (invalid_nonce${outcome.description ? `: ${outcome.description}` : ""})`,
    );
  }
  return {
    token,
    tokenReceivedAt,
    credential: outcome.credential,
    ...(outcome.notificationId !== undefined && { notificationId: outcome.notificationId }),
  };
}
