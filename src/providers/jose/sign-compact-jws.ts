import { encodeBase64url } from "../../encoding/base64url.js";
import type { Signer } from "../../ports/signer.js";

/**
 * Sign a JWS in the Compact Serialization (RFC 7515 §7.1): `base64url(header).base64url(payload).base64url(signature)`
 * with one call to the signer. The header always gets `alg: signer.alg`; it gets `kid: signer.kid` unless the caller
 * put a `kid` member in `header` (a `kid: undefined` there suppresses it). A Uint8Array payload is signed as is, an
 * object is serialized with JSON.stringify.
 */
export async function signCompactJws(
  header: Record<string, unknown>,
  payload: Record<string, unknown> | Uint8Array,
  signer: Signer,
): Promise<string> {
  const protectedHeader: Record<string, unknown> =
    "kid" in header || signer.kid === undefined
      ? { ...header, alg: signer.alg }
      : { ...header, alg: signer.alg, kid: signer.kid };
  const encodedHeader = Buffer.from(JSON.stringify(protectedHeader), "utf8").toString("base64url");
  const encodedPayload =
    payload instanceof Uint8Array
      ? encodeBase64url(payload)
      : Buffer.from(JSON.stringify(payload), "utf8").toString("base64url");
  const signingInput = `${encodedHeader}.${encodedPayload}`;
  // the signing input is base64url text, i.e. ASCII (RFC 7515 §5.1 step 5)
  const signature = await signer.sign(Buffer.from(signingInput, "latin1"));
  return `${signingInput}.${encodeBase64url(signature)}`;
}
