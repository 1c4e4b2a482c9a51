import { z } from "zod";
import type { RemoteHttp } from "../../common/remote-http.js";
import { parseJsonBody, statusError } from "../../common/remote-http.js";

/** Nonce Response (OpenID4VCI 1.0 §7.2). */
const nonceResponseSchema = z.object({ c_nonce: z.string().min(1) }).loose();

/** Nonce Request (OpenID4VCI 1.0 §7.1): a POST without body to the Nonce Endpoint; answers the fresh `c_nonce`. */
export async function requestNonce(http: RemoteHttp, nonceEndpoint: string): Promise<string> {
  const step = "nonce request";
  const url = http.checkUrl(nonceEndpoint, "nonce_endpoint", "BR_0360").href;
  const response = await http.send(step, url, { method: "POST", headers: { accept: "application/json" } });
  if (!response.ok) throw statusError(step, response);
  return parseJsonBody(step, response, nonceResponseSchema, "BR_0360").c_nonce;
}
