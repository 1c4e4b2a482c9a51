import { CredkitError, type ErrorCode } from "../../errors/index.js";
import { jsonDepthExceeds, MAX_JSON_DEPTH } from "./json-depth.js";

/** The parts of a JWS in the Compact Serialization, decoded but not verified. */
export interface DecodedCompactJws {
  /** the JOSE protected header */
  header: Record<string, unknown>;
  /** the JWS payload parsed as a JSON object (the JWT claims set) */
  payload: Record<string, unknown>;
  /** ASCII(base64url(header) "." base64url(payload)): the bytes the signature covers (RFC 7515 §5.2 step 8) */
  signingInput: Uint8Array;
  signature: Uint8Array;
}

export interface DecodeCompactJwsOptions {
  /** the BR code of a malformed token (default BR_0189) */
  code?: ErrorCode;
  /** header parameters `crit` may name because the caller handles them (default: none) */
  allowedCrit?: readonly string[];
  /** refuse header / payload nested deeper than MAX_JSON_DEPTH (for tokens from strangers that are walked later) */
  limitDepth?: boolean;
}

/**
 * Split and decode a compact JWS whose payload is a JSON object (a JWT). Strict: exactly three parts, each canonical
 * unpadded base64url, header and payload JSON objects, a non-empty signature, no `crit` header beyond
 * `allowedCrit` (RFC 7515 §4.1.11). Anything else throws CredkitError (BR_0189 unless `code` says otherwise) naming
 * the broken part; `what` names the token in the detail ("credential", "key binding JWT").
 */
export function decodeCompactJws(
  token: string,
  what = "JWS",
  options: DecodeCompactJwsOptions = {},
): DecodedCompactJws {
  const malformed = (owner: string, problem: string) =>
    new CredkitError(options.code ?? "BR_0189", `${owner}: ${problem}`);
  const decodeSegment = (segment: string, part: string): Buffer => {
    const bytes = Buffer.from(segment, "base64url");
    // Buffer skips characters outside the alphabet: re-encoding proves the text was canonical base64url
    if (bytes.toString("base64url") !== segment) throw malformed(what, `${part} is not valid base64url`);
    return bytes;
  };
  const decodeJsonObject = (segment: string, part: string): Record<string, unknown> => {
    if (segment.length === 0) throw malformed(what, `${part} is empty`);
    const text = decodeSegment(segment, part).toString("utf8");
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw malformed(what, `${part} is not valid JSON`);
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      throw malformed(what, `${part} is not a JSON object`);
    }
    if (options.limitDepth && jsonDepthExceeds(value)) {
      throw malformed(what, `${part} is nested deeper than ${MAX_JSON_DEPTH} levels`);
    }
    return value as Record<string, unknown>;
  };

  if (typeof token !== "string") throw malformed(what, "is not a string");
  const firstDot = token.indexOf(".");
  const secondDot = firstDot < 0 ? -1 : token.indexOf(".", firstDot + 1);
  if (firstDot < 0 || secondDot < 0 || token.indexOf(".", secondDot + 1) >= 0) {
    throw malformed(what, "must have exactly three dot-separated parts (header.payload.signature)");
  }
  const header = decodeJsonObject(token.slice(0, firstDot), "header");
  const payload = decodeJsonObject(token.slice(firstDot + 1, secondDot), "payload");
  const signature = decodeSegment(token.slice(secondDot + 1), "signature");
  if (signature.length === 0) throw malformed(what, "signature is empty");
  const crit = header.crit;
  if (crit !== undefined) {
    const allowed = options.allowedCrit ?? [];
    if (!Array.isArray(crit) || crit.length === 0 || !crit.every((name) => allowed.includes(name))) {
      throw malformed(what, "crit header extensions are not understood");
    }
  }
  return { header, payload, signingInput: Buffer.from(token.slice(0, secondDot), "latin1"), signature };
}
