/**
 * A protocol error answered OAuth-style on /ssi endpoints: `{error, error_description}` with `status`
 * (RFC 6749 §5.2, OpenID4VCI 1.0 §6.3 and §8.3.1.2).
 */
export class OAuthError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
  ) {
    super(description);
    this.name = "OAuthError";
  }
}

export function isOAuthError(value: unknown): value is OAuthError {
  return value instanceof OAuthError;
}
