import { CredkitError } from "../../../errors/credkit-error.js";

/**
 * An OpenID4VP 1.0 Authorization Request as it reaches the wallet (§5): by reference (`client_id` + `request_uri`,
 * RFC 9101 §5.2), by value as a Request Object (`request=<jwt>`), or as plain URL parameters. The URL's scheme is
 * irrelevant (`openid4vp://`, `haip-vp://`, an https universal link …).
 */
export type PresentationInvitation =
  | { kind: "request-uri"; clientId: string; requestUri: string; method: "get" | "post"; url: URL }
  | { kind: "request"; clientId: string; request: string; url: URL }
  | { kind: "parameters"; clientId: string; params: URLSearchParams; url: URL };

/** Parameters only an OpenID4VP Authorization Request carries (an OpenID4VCI offer never does). */
const PRESENTATION_PARAMETERS = [
  "request_uri",
  "request",
  "response_type",
  "dcql_query",
  "presentation_definition",
  "presentation_definition_uri",
];

function invalid(detail: string): CredkitError {
  return new CredkitError("BR_0085", detail);
}

/**
 * Whether an invitation URL is a presentation request rather than a credential offer: it carries one of the OpenID4VP
 * request parameters, or a `client_id` without an offer. Not a URL → false (the issuance path reports it).
 */
export function isPresentationInvitation(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  const params = parsed.searchParams;
  if (params.has("credential_offer") || params.has("credential_offer_uri")) return false;
  return PRESENTATION_PARAMETERS.some((name) => params.has(name)) || params.has("client_id");
}

/**
 * Reads a presentation invitation (OpenID4VP 1.0 §5, RFC 9101 §5): `client_id` is required (§5.2 "client_id:
 * REQUIRED"); at most one of `request` and `request_uri`; `request_uri_method` only with `request_uri` and only `get`
 * or `post` (case-sensitive, §5.1). Throws BR_0085 naming the problem.
 */
export function parsePresentationInvitation(text: string): PresentationInvitation {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalid("the invitation is not a URL");
  }
  const params = url.searchParams;
  const single = (name: string): string | undefined => {
    const values = params.getAll(name);
    if (values.length > 1) throw invalid(`the invitation repeats the parameter ${name}`);
    return values[0];
  };
  const clientId = single("client_id");
  if (clientId === undefined || clientId === "") {
    throw invalid("the presentation request has no client_id (OpenID4VP 1.0 §5.2)");
  }
  const request = single("request");
  const requestUri = single("request_uri");
  const method = single("request_uri_method");
  if (request !== undefined && requestUri !== undefined) {
    throw invalid("the presentation request carries both request and request_uri (RFC 9101 §5)");
  }
  if (method !== undefined && requestUri === undefined) {
    throw invalid("request_uri_method is only allowed together with request_uri (OpenID4VP 1.0 §5.1)");
  }
  if (method !== undefined && method !== "get" && method !== "post") {
    throw invalid(`request_uri_method must be get or post, got ${JSON.stringify(method)} (invalid_request_uri_method)`);
  }
  if (requestUri !== undefined) {
    if (requestUri === "") throw invalid("request_uri is empty");
    return { kind: "request-uri", clientId, requestUri, method: method === "post" ? "post" : "get", url };
  }
  if (request !== undefined) {
    if (request === "") throw invalid("request is empty");
    return { kind: "request", clientId, request, url };
  }
  return { kind: "parameters", clientId, params, url };
}
