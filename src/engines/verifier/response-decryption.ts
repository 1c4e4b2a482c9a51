import { compactDecrypt, exportJWK, generateKeyPair, importJWK } from "jose";
import type { EngineDeps } from "../common/engine-deps.js";
import { OAuthError } from "../issuer/openid4vci/oauth-error.js";

/**
 * The verifier half of direct_post.jwt (OpenID4VP 1.0 §8.3, draft 20 §6.3), shared by both verifiers: one ephemeral
 * ECDH-ES P-256 key per request, its public JWK published in `client_metadata.jwks` with `kid` = the interaction id (so
 * an encrypted response finds its request without trusting anything else in it), its private half kept sealed in the
 * interaction.
 */
/** Content encryption of encrypted responses the verifiers accept (`encrypted_response_enc_values_supported`). */
export const RESPONSE_ENC_VALUES = ["A128GCM", "A256GCM"] as const;

export interface ResponseEncryptionKey {
  encryptionJwk: Record<string, unknown>;
  sealedEncryptionKey: string;
}

export async function createResponseEncryptionKey(
  deps: Pick<EngineDeps, "secrets">,
  interactionId: string,
): Promise<ResponseEncryptionKey> {
  const pair = await generateKeyPair("ECDH-ES", { crv: "P-256", extractable: true });
  const encryptionJwk = { ...(await exportJWK(pair.publicKey)), kid: interactionId, use: "enc", alg: "ECDH-ES" };
  // the private half is stored sealed (AES-GCM, bound to this interaction)
  const sealedEncryptionKey = deps.secrets.seal(JSON.stringify(await exportJWK(pair.privateKey)), interactionId);
  return { encryptionJwk, sealedEncryptionKey };
}

/** The `kid` of a JWE's protected header (undefined when absent); `invalid_request` when it is no JWE at all. */
export function responseKid(jwe: string): string | undefined {
  try {
    const header: unknown = JSON.parse(Buffer.from(jwe.split(".")[0] ?? "", "base64url").toString("utf8"));
    if (typeof header !== "object" || header === null) throw new Error("not an object");
    const kid = (header as { kid?: unknown }).kid;
    return typeof kid === "string" ? kid : undefined;
  } catch {
    throw new OAuthError("invalid_request", "response is not a JWE");
  }
}

/**
 * Decrypts an encrypted authorization response with the request's sealed key: its payload, a JSON object. Only
 * `alg` ECDH-ES with `enc` A128GCM / A256GCM is accepted (no key wrapping, no CBC-HS, no `zip`).
 * `invalid_request` when it cannot be decrypted or read (nothing is changed by the caller then).
 */
export async function decryptResponse(
  deps: Pick<EngineDeps, "secrets">,
  sealedEncryptionKey: string,
  interactionId: string,
  jwe: string,
): Promise<Record<string, unknown>> {
  const key = JSON.parse(deps.secrets.open(sealedEncryptionKey, interactionId)) as Record<string, unknown>;
  try {
    // only what the request offers (OpenID4VP 1.0 §8.3): the key is for ECDH-ES, `enc` one of RESPONSE_ENC_VALUES
    const { plaintext } = await compactDecrypt(jwe, await importJWK(key as never, "ECDH-ES"), {
      keyManagementAlgorithms: ["ECDH-ES"],
      contentEncryptionAlgorithms: [...RESPONSE_ENC_VALUES],
    });
    const payload: unknown = JSON.parse(new TextDecoder().decode(plaintext));
    if (typeof payload !== "object" || payload === null || Array.isArray(payload)) throw new Error("not an object");
    return payload as Record<string, unknown>;
  } catch {
    throw new OAuthError("invalid_request", "the encrypted response could not be decrypted");
  }
}
