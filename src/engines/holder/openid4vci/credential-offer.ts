import { z } from "zod";
import { CredkitError } from "../../../errors/credkit-error.js";
import { parseRemoteDocument, type RemoteHttp } from "../../common/remote-http.js";

/** Grant type of the Pre-Authorized Code Flow (OpenID4VCI 1.0 §4.1.1, §6.1; RFC 8693-style URN). */
export const PRE_AUTHORIZED_CODE_GRANT = "urn:ietf:params:oauth:grant-type:pre-authorized_code";

/** `tx_code` of a pre-authorized code grant (OpenID4VCI 1.0 §4.1.1): how the user enters the transaction code. */
export const txCodeSchema = z
  .object({
    input_mode: z.enum(["numeric", "text"]).optional(),
    length: z.number().int().positive().optional(),
    description: z.string().max(300).optional(),
  })
  .loose();
export type TxCode = z.output<typeof txCodeSchema>;

const preAuthorizedCodeGrantSchema = z
  .object({
    "pre-authorized_code": z.string().min(1),
    tx_code: txCodeSchema.optional(),
    authorization_server: z.string().min(1).optional(),
  })
  .loose();

const authorizationCodeGrantSchema = z
  .object({ issuer_state: z.string().optional(), authorization_server: z.string().min(1).optional() })
  .loose();

/**
 * Credential Offer (OpenID4VCI 1.0 §4.1.1). Remote documents are parsed loosely: unknown members are extensions and
 * ignored (§4.1.1 "… MUST ignore any unrecognized parameters"), known members must have their types.
 */
export const credentialOfferSchema = z
  .object({
    credential_issuer: z.string().min(1),
    credential_configuration_ids: z.array(z.string().min(1)).min(1),
    grants: z
      .object({
        [PRE_AUTHORIZED_CODE_GRANT]: preAuthorizedCodeGrantSchema.optional(),
        authorization_code: authorizationCodeGrantSchema.optional(),
      })
      .loose()
      .optional(),
  })
  .loose();
export type CredentialOffer = z.output<typeof credentialOfferSchema>;

/** What an invitation URL carries. */
export type OfferInvitation = { kind: "offer"; offer: unknown } | { kind: "offer-uri"; uri: string };

function invalid(detail: string): CredkitError {
  return new CredkitError("BR_0085", detail);
}

/**
 * Reads an invitation URL (OpenID4VCI 1.0 §4.1): any scheme (`openid-credential-offer://`, `haip-vci://`,
 * `swiyu://`, an https universal link) with exactly one of `credential_offer` (the offer as JSON, by value) or
 * `credential_offer_uri` (by reference). Presentation requests (OpenID4VP) are recognised and refused for now.
 * Throws BR_0085 with the reason.
 */
export function parseInvitationUrl(url: string): OfferInvitation {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalid("the invitation is not a URL");
  }
  const params = parsed.searchParams;
  const byValue = params.get("credential_offer");
  const byReference = params.get("credential_offer_uri");
  if (byValue !== null && byReference !== null) {
    throw invalid("the invitation carries both credential_offer and credential_offer_uri (OpenID4VCI 1.0 §4.1)");
  }
  if (byValue !== null) {
    try {
      return { kind: "offer", offer: JSON.parse(byValue) };
    } catch {
      throw invalid("credential_offer is not valid JSON (OpenID4VCI 1.0 §4.1.1)");
    }
  }
  if (byReference !== null) {
    if (byReference === "") throw invalid("credential_offer_uri is empty");
    return { kind: "offer-uri", uri: byReference };
  }
  const scheme = parsed.protocol.replace(/:$/, "");
  if (
    scheme.startsWith("openid4vp") ||
    scheme === "mdoc-openid4vp" ||
    params.has("request_uri") ||
    params.has("client_id") ||
    params.has("dcql_query") ||
    params.has("presentation_definition")
  ) {
    throw invalid("unsupported invitation: presentation requests (OpenID4VP) are not handled by this wallet yet");
  }
  throw invalid(`unsupported invitation: ${scheme}: URL without credential_offer or credential_offer_uri`);
}

/**
 * The Credential Offer of an invitation: parsed from the URL, or fetched from `credential_offer_uri` with GET and
 * `Accept: application/json` (OpenID4VCI 1.0 §4.1.3). Validation failures are BR_0085, fetch failures BR_0347 /
 * BR_0395.
 */
export async function resolveCredentialOffer(http: RemoteHttp, invitation: OfferInvitation): Promise<CredentialOffer> {
  if (invitation.kind === "offer") {
    return parseRemoteDocument("credential offer", invitation.offer, credentialOfferSchema, "BR_0085");
  }
  const uri = http.checkUrl(invitation.uri, "credential_offer_uri").href;
  return http.getJson("credential offer", uri, credentialOfferSchema, "BR_0085");
}
