/**
 * RFC 8615 / RFC 8414 §3.1 well-known URL: `/.well-known/<suffix>` inserted between the host and the path of
 * `identifier` (OpenID4VCI 1.0 §12.2.2): `https://h/tenant` → `https://h/.well-known/<suffix>/tenant`.
 */
export function insertedWellKnownUrl(identifier: string, suffix: string): string {
  const url = new URL(identifier);
  const path = url.pathname.replace(/\/+$/, "");
  return `${url.origin}/.well-known/${suffix}${path}`;
}

/** The pre-RFC 8414 form: `/.well-known/<suffix>` appended to `identifier` (OpenID Connect Discovery style). */
export function appendedWellKnownUrl(identifier: string, suffix: string): string {
  return `${identifier.replace(/\/+$/, "")}/.well-known/${suffix}`;
}
