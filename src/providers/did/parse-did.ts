import { CredkitError } from "../../errors/index.js";

export interface ParsedDid {
  did: string;
  /** method-name, e.g. "key" */
  method: string;
  /** everything after "did:<method>:" */
  methodSpecificId: string;
}

/**
 * W3C DID Core §3.1 DID Syntax (ABNF):
 *   did                = "did:" method-name ":" method-specific-id
 *   method-name        = 1*method-char            ; method-char = %x61-7A / DIGIT
 *   method-specific-id = *( *idchar ":" ) 1*idchar ; idchar = ALPHA / DIGIT / "." / "-" / "_" / pct-encoded
 */
const DID_PATTERN = /^did:([a-z0-9]+):((?:(?:[A-Za-z0-9._-]|%[0-9A-Fa-f]{2})*:)*(?:[A-Za-z0-9._-]|%[0-9A-Fa-f]{2})+)$/;

/** Parse a DID (not a DID URL: no path, query or fragment). Throws BR_0364 when the value is not a valid DID. */
export function parseDid(did: string): ParsedDid {
  const match = typeof did === "string" ? DID_PATTERN.exec(did) : null;
  if (match === null) throw new CredkitError("BR_0364", `not a valid DID: ${String(did).slice(0, 200)}`);
  return { did, method: match[1]!, methodSpecificId: match[2]! };
}

/** Parse a DID and require the given method; another method throws BR_0026. */
export function parseDidOfMethod(did: string, method: string): ParsedDid {
  const parsed = parseDid(did);
  if (parsed.method !== method) {
    throw new CredkitError("BR_0026", `expected a did:${method}, got did:${parsed.method}`);
  }
  return parsed;
}
