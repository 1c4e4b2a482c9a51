import { generateKeyPairSync, type KeyObject, sign, verify } from "node:crypto";
import type { Signer } from "../../../../src/ports/signer.js";
import type { StatusListTokenSignatureVerifier } from "../../../../src/providers/revocation/token-status-list/index.js";

/** A real P-256 key: a credkit Signer (JOSE signature encoding = IEEE P1363 r||s, RFC 7518 §3.4) and its verifier. */
export function es256Key(kid = "status-key-1"): {
  signer: Signer;
  verifier: StatusListTokenSignatureVerifier;
  publicKey: KeyObject;
  privateKey: KeyObject;
} {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  return {
    privateKey,
    publicKey,
    signer: {
      alg: "ES256",
      kid,
      sign: async (data) => new Uint8Array(sign("sha256", data, { key: privateKey, dsaEncoding: "ieee-p1363" })),
    },
    verifier: (header, signingInput, signature) =>
      header.alg === "ES256" &&
      verify("sha256", signingInput, { key: publicKey, dsaEncoding: "ieee-p1363" }, signature),
  };
}
