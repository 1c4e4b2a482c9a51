import { z } from "zod";
import { CredkitError } from "../../../errors/credkit-error.js";
import { parseJsonBody, type RemoteHttp, readOAuthError, statusError } from "../../common/remote-http.js";

/** Credential Response (OpenID4VCI 1.0 §8.3); `credential` is the single-credential form of earlier drafts. */
const credentialResponseSchema = z
  .object({
    credentials: z
      .array(z.object({ credential: z.unknown() }).loose())
      .min(1)
      .optional(),
    credential: z.unknown().optional(),
    transaction_id: z.string().optional(),
    notification_id: z.string().min(1).optional(),
  })
  .loose();

export interface CredentialRequestInput {
  credentialEndpoint: string;
  accessToken: string;
  credentialConfigurationId: string;
  /** key proof JWTs (`proofs.jwt`), absent when the configuration asks for no proof */
  proofJwts?: string[];
}

export type CredentialRequestOutcome =
  | { kind: "issued"; credential: string; notificationId?: string }
  /** the issuer rejected the c_nonce (§8.3.1.2): fetch a fresh one and try once more */
  | { kind: "invalid_nonce"; description?: string };

/**
 * Credential Request (OpenID4VCI 1.0 §8.2): POST `{credential_configuration_id, proofs: {jwt: [...]}}` with the access
 * token as Bearer. Answers the first credential (a string: SD-JWT VC) and `notification_id`. Error answers (§8.3.1.2):
 * `invalid_nonce` is returned to the caller for one retry, `invalid_proof` is BR_0173, other refusals BR_0360;
 * deferred issuance (202 / transaction_id, §9) is not supported (BR_0111).
 */
export async function requestCredential(
  http: RemoteHttp,
  input: CredentialRequestInput,
): Promise<CredentialRequestOutcome> {
  const step = "credential request";
  const url = http.checkUrl(input.credentialEndpoint, "credential_endpoint", "BR_0360").href;
  const body: Record<string, unknown> = { credential_configuration_id: input.credentialConfigurationId };
  if (input.proofJwts !== undefined) body.proofs = { jwt: input.proofJwts };
  const response = await http.send(step, url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json",
      authorization: `Bearer ${input.accessToken}`,
    },
    body: JSON.stringify(body),
  });
  if (!response.ok) {
    const oauth = readOAuthError(response);
    const reason = oauth ? `${oauth.error}${oauth.description ? ` (${oauth.description})` : ""}` : undefined;
    if (oauth?.error === "invalid_nonce") {
      return oauth.description === undefined
        ? { kind: "invalid_nonce" }
        : { kind: "invalid_nonce", description: oauth.description };
    }
    if (oauth?.error === "invalid_proof") {
      throw new CredkitError("BR_0173", `${step}: the issuer rejected the key proof: ${reason}`);
    }
    if (oauth !== undefined && (response.status === 400 || response.status === 401 || response.status === 403)) {
      throw new CredkitError("BR_0360", `${step}: the issuer refused: ${reason}`);
    }
    throw statusError(step, response);
  }
  const answer = parseJsonBody(step, response, credentialResponseSchema, "BR_0360");
  if (response.status === 202 || (answer.transaction_id !== undefined && answer.credentials === undefined)) {
    throw new CredkitError("BR_0111", `${step}: the issuer deferred issuance (OpenID4VCI 1.0 §9), not supported yet`);
  }
  const credential = answer.credentials?.[0]?.credential ?? answer.credential;
  if (typeof credential !== "string" || credential === "") {
    throw new CredkitError("BR_0360", `${step}: the answer carries no credential string (OpenID4VCI 1.0 §8.3)`);
  }
  return answer.notification_id === undefined
    ? { kind: "issued", credential }
    : { kind: "issued", credential, notificationId: answer.notification_id };
}

/** Events of the Notification Request (OpenID4VCI 1.0 §11.1). */
export type NotificationEvent = "credential_accepted" | "credential_failure" | "credential_deleted";

export interface NotificationInput {
  notificationEndpoint: string;
  accessToken: string;
  notificationId: string;
  event: NotificationEvent;
  description?: string;
}

/**
 * Notification Request (OpenID4VCI 1.0 §11.1): POST `{notification_id, event, event_description?}` with the access
 * token as Bearer; the issuer answers 204 (§11.2). Failures throw like any remote step.
 */
export async function sendNotification(http: RemoteHttp, input: NotificationInput): Promise<void> {
  const step = `notification ${input.event}`;
  const url = http.checkUrl(input.notificationEndpoint, "notification_endpoint", "BR_0360").href;
  const body: Record<string, unknown> = { notification_id: input.notificationId, event: input.event };
  if (input.description !== undefined) body.event_description = input.description;
  const response = await http.send(step, url, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${input.accessToken}` },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw statusError(step, response);
}
