import { z } from "zod";
import { CredkitError, isCredkitError } from "../../../errors/credkit-error.js";
import type { RemoteHttp } from "../../common/remote-http.js";
import { appendedWellKnownUrl, insertedWellKnownUrl } from "../../common/well-known-url.js";

const displaySchema = z.array(z.object({ name: z.string().optional(), locale: z.string().optional() }).loose());

/** Claim description of credential metadata (OpenID4VCI 1.0 Appendix B.2): a claims path pointer plus display. */
export const claimDescriptionSchema = z
  .object({
    path: z.array(z.union([z.string(), z.number().int().nonnegative(), z.null()])).min(1),
    mandatory: z.boolean().optional(),
    display: displaySchema.optional(),
  })
  .loose();
export type ClaimDescription = z.output<typeof claimDescriptionSchema>;

/** One entry of `credential_configurations_supported` (OpenID4VCI 1.0 §12.2.4), loosely: formats add members. */
export const credentialConfigurationSchema = z
  .object({
    format: z.string().min(1),
    /** SD-JWT VC (Appendix A.3.2) */
    vct: z.string().min(1).optional(),
    /** mdoc (Appendix A.2.2) */
    doctype: z.string().min(1).optional(),
    scope: z.string().optional(),
    cryptographic_binding_methods_supported: z.array(z.string()).optional(),
    credential_signing_alg_values_supported: z.array(z.union([z.string(), z.number()])).optional(),
    proof_types_supported: z
      .record(z.string(), z.object({ proof_signing_alg_values_supported: z.array(z.string()).optional() }).loose())
      .optional(),
    credential_metadata: z
      .object({ display: displaySchema.optional(), claims: z.array(claimDescriptionSchema).optional() })
      .loose()
      .optional(),
    /** drafts before 1.0 put display (and claims) at this level */
    display: displaySchema.optional(),
    claims: z.unknown().optional(),
  })
  .loose();
export type CredentialConfiguration = z.output<typeof credentialConfigurationSchema>;

/** Credential Issuer Metadata (OpenID4VCI 1.0 §12.2.4). */
export const credentialIssuerMetadataSchema = z
  .object({
    credential_issuer: z.string().min(1),
    authorization_servers: z.array(z.string().min(1)).optional(),
    credential_endpoint: z.string().min(1),
    nonce_endpoint: z.string().min(1).optional(),
    deferred_credential_endpoint: z.string().min(1).optional(),
    notification_endpoint: z.string().min(1).optional(),
    /** drafts before 1.0 (and some issuers) publish the token endpoint here */
    token_endpoint: z.string().min(1).optional(),
    credential_configurations_supported: z.record(z.string(), credentialConfigurationSchema),
    display: displaySchema.optional(),
  })
  .loose();
export type CredentialIssuerMetadata = z.output<typeof credentialIssuerMetadataSchema>;

/** OAuth 2.0 Authorization Server Metadata (RFC 8414 §2) — what the wallet needs of it. */
export const authorizationServerMetadataSchema = z
  .object({
    issuer: z.string().optional(),
    token_endpoint: z.string().min(1),
    grant_types_supported: z.array(z.string()).optional(),
  })
  .loose();
export type AuthorizationServerMetadata = z.output<typeof authorizationServerMetadataSchema>;

function sameIdentifier(a: string, b: string): boolean {
  return a.replace(/\/+$/, "") === b.replace(/\/+$/, "");
}

/** Tries `urls` in order; a 4xx (BR_0395) moves on to the next, anything else (or the last failure) is thrown. */
async function firstAvailable<T>(urls: readonly string[], load: (url: string) => Promise<T>): Promise<T> {
  const unique = [...new Set(urls)];
  let lastError: unknown;
  for (const url of unique) {
    try {
      return await load(url);
    } catch (error) {
      if (!isCredkitError(error) || error.code !== "BR_0395") throw error;
      lastError = error;
    }
  }
  throw lastError;
}

/**
 * Fetches the Credential Issuer Metadata of `credentialIssuer` (OpenID4VCI 1.0 §12.2.2): first at the RFC 8615
 * inserted well-known URL, then (for issuers following earlier drafts) appended to the identifier. Its
 * `credential_issuer` must be the identifier the offer named (§12.2.2 "MUST be identical"), else BR_0085.
 */
export async function fetchCredentialIssuerMetadata(
  http: RemoteHttp,
  credentialIssuer: string,
): Promise<CredentialIssuerMetadata> {
  const suffix = "openid-credential-issuer";
  const metadata = await firstAvailable(
    [insertedWellKnownUrl(credentialIssuer, suffix), appendedWellKnownUrl(credentialIssuer, suffix)],
    (url) => http.getJson("credential issuer metadata", url, credentialIssuerMetadataSchema, "BR_0085"),
  );
  if (!sameIdentifier(metadata.credential_issuer, credentialIssuer)) {
    throw new CredkitError(
      "BR_0085",
      `credential issuer metadata: credential_issuer ${JSON.stringify(metadata.credential_issuer)} differs from the offer's ${JSON.stringify(credentialIssuer)} (OpenID4VCI 1.0 §12.2.2)`,
    );
  }
  return metadata;
}

/**
 * Fetches the OAuth metadata of an authorization server (RFC 8414 §3): `oauth-authorization-server` inserted, then
 * `openid-configuration` inserted and appended (RFC 8414 §5 compatibility). 4xx answers move on to the next URL.
 */
export async function fetchAuthorizationServerMetadata(
  http: RemoteHttp,
  authorizationServer: string,
): Promise<AuthorizationServerMetadata> {
  return firstAvailable(
    [
      insertedWellKnownUrl(authorizationServer, "oauth-authorization-server"),
      insertedWellKnownUrl(authorizationServer, "openid-configuration"),
      appendedWellKnownUrl(authorizationServer, "openid-configuration"),
    ],
    (url) => http.getJson("authorization server metadata", url, authorizationServerMetadataSchema, "BR_0085"),
  );
}

/** The display name of a configuration (credential_metadata.display, English first), else undefined. */
export function configurationDisplayName(configuration: CredentialConfiguration): string | undefined {
  const display = configuration.credential_metadata?.display ?? configuration.display ?? [];
  const named = display.filter((entry) => typeof entry.name === "string" && entry.name.trim() !== "");
  const english = named.find((entry) => entry.locale?.toLowerCase().startsWith("en"));
  return (english ?? named[0])?.name?.trim();
}

/** The claim descriptions of a configuration (1.0: credential_metadata.claims; draft 15: claims as an array). */
export function configurationClaims(configuration: CredentialConfiguration): ClaimDescription[] {
  if (configuration.credential_metadata?.claims) return configuration.credential_metadata.claims;
  const legacy = z.array(claimDescriptionSchema).safeParse(configuration.claims);
  return legacy.success ? legacy.data : [];
}
