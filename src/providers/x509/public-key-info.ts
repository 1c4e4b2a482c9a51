import { createHash, createPublicKey, type JsonWebKey, type X509Certificate } from "node:crypto";
import { AsnConvert } from "@peculiar/asn1-schema";
import { SubjectPublicKeyInfo } from "@peculiar/asn1-x509";
import { CredkitError } from "../../errors/credkit-error.js";
import type { PublicJwk } from "../../ports/key-algorithm.js";

/**
 * DER SubjectPublicKeyInfo of a public JWK (EC P-256 → id-ecPublicKey, uncompressed point; OKP Ed25519 → id-Ed25519).
 * BR_0043 for keys X.509 support here lacks (ML-DSA).
 */
export function subjectPublicKeyInfoFromJwk(jwk: PublicJwk): Uint8Array {
  const supported = (jwk.kty === "EC" && jwk.crv === "P-256") || (jwk.kty === "OKP" && jwk.crv === "Ed25519");
  if (!supported) {
    throw new CredkitError(
      "BR_0043",
      `${jwk.kty}/${jwk.crv ?? jwk.alg ?? "?"} keys cannot be put in X.509 (P-256, Ed25519)`,
    );
  }
  const { kty, crv, x, y } = jwk;
  const key = createPublicKey({ key: { kty, crv, x, ...(y !== undefined && { y }) } as JsonWebKey, format: "jwk" });
  return new Uint8Array(key.export({ format: "der", type: "spki" }));
}

/** The certificate's public key as a JWK (members kty, crv, x, y only); BR_0224 when node cannot read it. */
export function certificatePublicJwk(certificate: X509Certificate): PublicJwk {
  let jwk: JsonWebKey;
  try {
    jwk = certificate.publicKey.export({ format: "jwk" });
  } catch (error) {
    throw new CredkitError("BR_0224", "the certificate's public key algorithm is not supported", { cause: error });
  }
  return {
    kty: String(jwk.kty),
    ...(jwk.crv !== undefined && { crv: jwk.crv }),
    ...(jwk.x !== undefined && { x: jwk.x }),
    ...(jwk.y !== undefined && { y: jwk.y }),
  };
}

/** Whether two public JWKs are the same key (compares kty, crv, x, y). */
export function samePublicJwk(a: PublicJwk, b: PublicJwk): boolean {
  return a.kty === b.kty && a.crv === b.crv && a.x === b.x && a.y === b.y && a.pub === b.pub;
}

/** RFC 5280 §4.2.1.2 method (1): SHA-1 of the subjectPublicKey BIT STRING value of a DER SubjectPublicKeyInfo. */
export function keyIdentifier(subjectPublicKeyInfo: Uint8Array): Uint8Array {
  const info = AsnConvert.parse(subjectPublicKeyInfo, SubjectPublicKeyInfo);
  return new Uint8Array(createHash("sha1").update(new Uint8Array(info.subjectPublicKey)).digest());
}
