import { z } from "zod";
import { CredkitError } from "../../../errors/credkit-error.js";
import { jsonDepthExceeds, MAX_JSON_DEPTH } from "../../../providers/jose/json-depth.js";
import { describeZodError } from "../../common/parse-input.js";

/**
 * Verifier metadata passed in the request (`client_metadata`, OpenID4VP 1.0 §5.1, §11): parsed loosely, the wallet
 * ignores what it does not know. `jwks` and `encrypted_response_enc_values_supported` drive direct_post.jwt (§8.3).
 */
export const clientMetadataSchema = z
  .object({
    jwks: z
      .object({ keys: z.array(z.object({ kty: z.string().min(1) }).loose()) })
      .loose()
      .optional(),
    encrypted_response_enc_values_supported: z.array(z.string()).optional(),
    vp_formats_supported: z.record(z.string(), z.unknown()).optional(),
    client_name: z.string().optional(),
    logo_uri: z.string().optional(),
  })
  .loose();
export type ClientMetadata = z.output<typeof clientMetadataSchema>;

/**
 * The Authorization Request parameters (OpenID4VP 1.0 §5.1, §5.2) a wallet acts on, from a Request Object payload or
 * from URL parameters. Types are checked; semantic rules (response_type, response_mode …) in
 * {@link checkAuthorizationRequest}. Unknown members are ignored (§5.1 "The Wallet MUST ignore any unrecognized
 * parameters").
 */
export const authorizationRequestSchema = z
  .object({
    client_id: z.string().min(1),
    response_type: z.string().min(1),
    response_mode: z.string().min(1).optional(),
    response_uri: z.string().min(1).optional(),
    redirect_uri: z.string().optional(),
    nonce: z.string().min(1),
    state: z.string().min(1).optional(),
    dcql_query: z.unknown().optional(),
    presentation_definition: z.unknown().optional(),
    presentation_definition_uri: z.string().optional(),
    scope: z.string().optional(),
    client_metadata: clientMetadataSchema.optional(),
    client_metadata_uri: z.string().optional(),
    transaction_data: z.array(z.string()).optional(),
    request_uri_method: z.string().optional(),
    wallet_nonce: z.string().optional(),
    exp: z.number().optional(),
    nbf: z.number().optional(),
  })
  .loose();
export type AuthorizationRequest = z.output<typeof authorizationRequestSchema>;

export type ResponseMode = "direct_post" | "direct_post.jwt";

/** Members sent as JSON text when the request travels as URL parameters (§5.1: JSON-encoded objects). */
const JSON_PARAMETERS = [
  "dcql_query",
  "client_metadata",
  "presentation_definition",
  "transaction_data",
  "verifier_info",
];

function invalid(detail: string): CredkitError {
  return new CredkitError("BR_0085", detail);
}

/** The request parameters of a request sent by value as URL parameters, JSON members decoded. */
export function requestFromParameters(params: URLSearchParams): Record<string, unknown> {
  const request: Record<string, unknown> = {};
  for (const [name, value] of params) {
    if (Object.hasOwn(request, name)) throw invalid(`the presentation request repeats the parameter ${name}`);
    if (JSON_PARAMETERS.includes(name)) {
      try {
        request[name] = JSON.parse(value);
      } catch {
        throw invalid(`${name} is not valid JSON (OpenID4VP 1.0 §5.1)`);
      }
    } else {
      request[name] = value;
    }
  }
  return request;
}

/** Validates the types of a request's parameters (BR_0085 naming the members at fault). */
export function parseAuthorizationRequest(value: Record<string, unknown>): AuthorizationRequest {
  if (jsonDepthExceeds(value)) {
    throw invalid(`presentation request: its parameters are nested deeper than ${MAX_JSON_DEPTH} levels`);
  }
  const result = authorizationRequestSchema.safeParse(value);
  if (!result.success) throw invalid(`presentation request: ${describeZodError(result.error)}`);
  return result.data;
}

/**
 * The OpenID4VP 1.0 rules this wallet applies to every request, whatever the client_id prefix:
 * `response_type=vp_token` (§5.4); `response_mode` `direct_post` or `direct_post.jwt` (§8.2, §8.3.1) with a
 * `response_uri` and no `redirect_uri` (§8.2); a DCQL query (§5.1, §6) — Presentation Exchange and scope-based
 * requests are refused; no `transaction_data` (unsupported: §8.4 requires an error); `exp` / `nbf` of a Request
 * Object respected with `leeway` seconds.
 */
export function checkAuthorizationRequest(
  request: AuthorizationRequest,
  now: Date,
  leeway: number,
): { responseMode: ResponseMode } {
  if (request.response_type !== "vp_token") {
    throw invalid(`response_type ${JSON.stringify(request.response_type)} is not supported (only vp_token)`);
  }
  const mode = request.response_mode;
  if (mode !== "direct_post" && mode !== "direct_post.jwt") {
    throw invalid(
      mode === undefined
        ? "the request has no response_mode: this wallet answers with direct_post or direct_post.jwt only"
        : `response_mode ${JSON.stringify(mode)} is not supported (direct_post, direct_post.jwt)`,
    );
  }
  if (request.response_uri === undefined) {
    throw invalid(`response_uri is required with response_mode ${mode} (OpenID4VP 1.0 §8.2)`);
  }
  if (request.redirect_uri !== undefined) {
    throw invalid(`redirect_uri must not be present with response_mode ${mode} (OpenID4VP 1.0 §8.2)`);
  }
  if (request.presentation_definition !== undefined || request.presentation_definition_uri !== undefined) {
    throw invalid(
      "the request uses Presentation Exchange (presentation_definition): OpenID4VP 1.0 requests carry a dcql_query; " +
        "Presentation Exchange (the /v1 presentation endpoints) is not supported by this wallet yet",
    );
  }
  if (request.dcql_query === undefined) {
    throw invalid(
      request.scope !== undefined
        ? "scope-based presentation requests are not supported: the request must carry a dcql_query"
        : "the request has no dcql_query (OpenID4VP 1.0 §5.1)",
    );
  }
  if (request.transaction_data !== undefined) {
    throw invalid("transaction_data is not supported by this wallet (OpenID4VP 1.0 §8.4)");
  }
  if (request.client_metadata_uri !== undefined && request.client_metadata === undefined) {
    throw invalid("client_metadata_uri is not supported: pass client_metadata");
  }
  const seconds = now.getTime() / 1000;
  if (request.exp !== undefined && request.exp + leeway < seconds) {
    throw invalid(`the request object expired at ${new Date(request.exp * 1000).toISOString()}`);
  }
  if (request.nbf !== undefined && request.nbf - leeway > seconds) {
    throw invalid(`the request object is not valid before ${new Date(request.nbf * 1000).toISOString()}`);
  }
  return { responseMode: mode };
}
