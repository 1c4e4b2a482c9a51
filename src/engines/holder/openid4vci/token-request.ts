import { z } from "zod";
import { CredkitError } from "../../../errors/credkit-error.js";
import { parseJsonBody, type RemoteHttp, readOAuthError, statusError } from "../../common/remote-http.js";
import { PRE_AUTHORIZED_CODE_GRANT } from "./credential-offer.js";

/** Token Response (OpenID4VCI 1.0 §6.2, RFC 6749 §5.1). */
export const tokenResponseSchema = z
  .object({
    access_token: z.string().min(1),
    token_type: z.string().min(1),
    expires_in: z.number().positive().optional(),
    /** drafts before 1.0 return the first c_nonce here */
    c_nonce: z.string().min(1).optional(),
    refresh_token: z.string().min(1).optional(),
  })
  .loose();
export type TokenResponse = z.output<typeof tokenResponseSchema>;

export interface PreAuthorizedTokenRequest {
  tokenEndpoint: string;
  preAuthorizedCode: string;
  txCode?: string;
}

/**
 * Token Request of the Pre-Authorized Code Flow (OpenID4VCI 1.0 §6.1): a form POST of `grant_type`,
 * `pre-authorized_code` and `tx_code`. An `invalid_grant` answer to a request that carried a transaction code means
 * the user typed the wrong code (§6.3) → BR_0169; other refusals are BR_0360 "OAuth failure"; transport failures
 * BR_0347 / BR_0395. Only Bearer tokens are supported (DPoP-bound ones are refused, BR_0360).
 */
export async function requestPreAuthorizedToken(
  http: RemoteHttp,
  request: PreAuthorizedTokenRequest,
): Promise<TokenResponse> {
  const step = "token request";
  const url = http.checkUrl(request.tokenEndpoint, "token_endpoint", "BR_0360").href;
  const form = new URLSearchParams({
    grant_type: PRE_AUTHORIZED_CODE_GRANT,
    "pre-authorized_code": request.preAuthorizedCode,
  });
  if (request.txCode !== undefined) form.set("tx_code", request.txCode);
  const response = await http.send(step, url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
    body: form.toString(),
  });
  if (!response.ok) {
    const oauth = readOAuthError(response);
    if (oauth?.error === "invalid_grant" && request.txCode !== undefined) {
      throw new CredkitError(
        "BR_0169",
        `${step}: the issuer refused the transaction code (invalid_grant${oauth.description ? `: ${oauth.description}` : ""})`,
      );
    }
    if (oauth !== undefined && response.status === 400) {
      throw new CredkitError(
        "BR_0360",
        `${step}: the issuer refused the pre-authorized code: ${oauth.error}${oauth.description ? ` (${oauth.description})` : ""}`,
      );
    }
    throw statusError(step, response);
  }
  const token = parseJsonBody(step, response, tokenResponseSchema, "BR_0360");
  if (token.token_type.toLowerCase() !== "bearer") {
    throw new CredkitError("BR_0360", `${step}: token_type ${token.token_type} is not supported (only Bearer)`);
  }
  return token;
}
