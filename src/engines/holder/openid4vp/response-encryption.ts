import { CompactEncrypt, importJWK, type JWK } from "jose";
import { CredkitError } from "../../../errors/credkit-error.js";
import type { ClientMetadata } from "./authorization-request.js";

/** JWE `enc` values this wallet encrypts responses with, in order of preference (OpenID4VP 1.0 §8.3). */
export const SUPPORTED_ENC_VALUES = ["A128GCM", "A256GCM"] as const;
export type ResponseEnc = (typeof SUPPORTED_ENC_VALUES)[number];
/** Key agreement algorithms this wallet supports for encrypted responses. */
export const SUPPORTED_ENCRYPTION_ALGS = ["ECDH-ES"] as const;

const CURVES: Record<string, readonly string[]> = { EC: ["P-256", "P-384", "P-521"], OKP: ["X25519"] };

/** The verifier key and algorithms a direct_post.jwt response is encrypted with. */
export interface ResponseEncryption {
  jwk: JWK;
  alg: "ECDH-ES";
  enc: ResponseEnc;
  kid?: string;
}

/**
 * Picks how to encrypt the response (OpenID4VP 1.0 §8.3): a key of `client_metadata.jwks` meant for encryption
 * (`use: enc`, or no `use`), whose `alg` is ECDH-ES (the JWE alg MUST equal the key's alg), on a curve this wallet
 * handles; `enc` is the first of `encrypted_response_enc_values_supported` this wallet supports (A128GCM when the
 * verifier lists none). BR_0085 when nothing fits.
 */
export function chooseResponseEncryption(metadata: ClientMetadata | undefined): ResponseEncryption {
  const keys = (metadata?.jwks?.keys ?? []) as (JWK & { use?: string })[];
  if (keys.length === 0) {
    throw new CredkitError("BR_0085", "direct_post.jwt needs an encryption key in client_metadata.jwks");
  }
  const usable = (key: JWK & { use?: string }) =>
    (key.alg === undefined || (SUPPORTED_ENCRYPTION_ALGS as readonly string[]).includes(key.alg)) &&
    typeof key.kty === "string" &&
    typeof key.crv === "string" &&
    (CURVES[key.kty] ?? []).includes(key.crv) &&
    key.d === undefined;
  const key =
    keys.find((candidate) => candidate.use === "enc" && usable(candidate)) ??
    keys.find((candidate) => candidate.use === undefined && usable(candidate));
  if (key === undefined) {
    throw new CredkitError(
      "BR_0085",
      "client_metadata.jwks has no public encryption key (use enc) for ECDH-ES on P-256, P-384, P-521 or X25519",
    );
  }
  const offered = metadata?.encrypted_response_enc_values_supported ?? ["A128GCM"];
  const enc = (SUPPORTED_ENC_VALUES as readonly string[]).find((value) => offered.includes(value)) as
    | ResponseEnc
    | undefined;
  if (enc === undefined) {
    throw new CredkitError(
      "BR_0085",
      `encrypted_response_enc_values_supported (${offered.join(", ")}) lists no content encryption this wallet supports (${SUPPORTED_ENC_VALUES.join(", ")})`,
    );
  }
  const { use: _use, key_ops: _ops, ...publicJwk } = key as JWK & { use?: string };
  return { jwk: publicJwk, alg: "ECDH-ES", enc, ...(typeof key.kid === "string" && { kid: key.kid }) };
}

/** The response parameters as an encrypted JWT (JWE compact serialization, `kid` copied from the key). */
export async function encryptResponse(payload: Record<string, unknown>, target: ResponseEncryption): Promise<string> {
  const key = await importJWK({ ...target.jwk, alg: target.alg }, target.alg);
  return new CompactEncrypt(new TextEncoder().encode(JSON.stringify(payload)))
    .setProtectedHeader({ alg: target.alg, enc: target.enc, ...(target.kid !== undefined && { kid: target.kid }) })
    .encrypt(key);
}
