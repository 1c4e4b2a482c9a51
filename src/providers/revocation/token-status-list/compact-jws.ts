/**
 * A minimal JWS Compact Serialization (RFC 7515 §3.1, §7.1) private to the Token Status List provider, so it does not
 * depend on the general JOSE provider: BASE64URL(UTF8(header)) || "." || BASE64URL(payload) || "." || BASE64URL(sig).
 * Not exported from the package.
 */
import {
  decodeBase64url,
  decodeBase64urlUtf8,
  encodeBase64url,
  encodeBase64urlUtf8,
} from "../../../encoding/base64url.js";
import type { Signer } from "../../../ports/signer.js";

/** Signs `header`.`payload` (both JSON objects) with `signer`; the signature is in the JOSE encoding of signer.alg. */
export async function signCompactJws(
  header: Record<string, unknown>,
  payload: Record<string, unknown>,
  signer: Signer,
): Promise<string> {
  const signingInput = `${encodeBase64urlUtf8(JSON.stringify(header))}.${encodeBase64urlUtf8(JSON.stringify(payload))}`;
  const signature = await signer.sign(new TextEncoder().encode(signingInput));
  return `${signingInput}.${encodeBase64url(signature)}`;
}

export interface SplitCompactJws {
  /** the decoded protected header, not yet validated beyond being a JSON object */
  header: Record<string, unknown>;
  /** the payload segment, still encoded: interpret it only after the signature checked out */
  encodedPayload: string;
  /** ASCII(BASE64URL(header) "." BASE64URL(payload)), the bytes the signature covers (RFC 7515 §5.2 step 8) */
  signingInput: Uint8Array;
  signature: Uint8Array;
}

/** Splits a compact JWS; throws an Error with a readable message on anything malformed. */
export function splitCompactJws(token: string): SplitCompactJws {
  const parts = token.split(".");
  if (parts.length !== 3) {
    throw new Error(`expected a JWS compact serialization of 3 dot-separated segments, got ${parts.length}`);
  }
  const [encodedHeader, encodedPayload, encodedSignature] = parts as [string, string, string];
  const header = parseJsonObject(encodedHeader, "header");
  if (encodedPayload.length === 0) throw new Error("the payload segment is empty");
  let signature: Uint8Array;
  try {
    signature = decodeBase64url(encodedSignature);
  } catch {
    throw new Error("the signature segment is not unpadded base64url");
  }
  if (signature.byteLength === 0) throw new Error("the token is unsigned (empty signature segment)");
  return {
    header,
    encodedPayload,
    signingInput: new TextEncoder().encode(`${encodedHeader}.${encodedPayload}`),
    signature,
  };
}

/** Decodes a base64url segment that must hold a JSON object (RFC 7515 §5.2 steps 2–4, RFC 7519 §7.2 step 10). */
export function parseJsonObject(segment: string, what: string): Record<string, unknown> {
  let text: string;
  try {
    text = decodeBase64urlUtf8(segment);
  } catch {
    throw new Error(`the ${what} segment is not unpadded base64url`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`the ${what} is not valid JSON`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new Error(`the ${what} is not a JSON object`);
  }
  return value as Record<string, unknown>;
}
