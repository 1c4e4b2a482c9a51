import { ECDSASigValue } from "@peculiar/asn1-ecc";
import { AsnConvert } from "@peculiar/asn1-schema";
import { AlgorithmIdentifier } from "@peculiar/asn1-x509";
import { CredkitError } from "../../errors/credkit-error.js";
import type { Signer } from "../../ports/signer.js";

/** ecdsa-with-SHA256 (RFC 5758 §3.2; parameters absent) */
export const OID_ECDSA_WITH_SHA256 = "1.2.840.10045.4.3.2";
/** id-Ed25519 (RFC 8410 §3; parameters absent, signature is the raw 64 bytes) */
export const OID_ED25519 = "1.3.101.112";

const ALGORITHMS: Record<string, string> = { ES256: OID_ECDSA_WITH_SHA256, EdDSA: OID_ED25519 };

/** Signers whose signatures can go into X.509 certificates and PKCS#10 requests (JOSE alg names). */
export const X509_SIGNING_ALGORITHMS = Object.keys(ALGORITHMS);

/** The signatureAlgorithm of certificates / CSRs signed by `signer`; BR_0043 for algorithms X.509 support lacks. */
export function x509SignatureAlgorithm(signer: Pick<Signer, "alg">): AlgorithmIdentifier {
  const algorithm = ALGORITHMS[signer.alg];
  if (algorithm === undefined) {
    throw new CredkitError("BR_0043", `${signer.alg} keys cannot sign X.509 certificates (ES256 and EdDSA can)`);
  }
  return new AlgorithmIdentifier({ algorithm });
}

/** An unsigned big-endian integer as the minimal positive DER INTEGER content. */
function positiveInteger(bytes: Uint8Array): ArrayBuffer {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start++;
  const trimmed = bytes.subarray(start);
  const out = new Uint8Array(trimmed.length + ((trimmed[0] ?? 0) & 0x80 ? 1 : 0));
  out.set(trimmed, out.length - trimmed.length);
  return out.buffer;
}

/**
 * Signs DER `data` (a TBSCertificate or CertificationRequestInfo) with a key-storage signer and answers the signature
 * in its X.509 form: ES256's JOSE r||s becomes a DER ECDSA-Sig-Value (RFC 5480 §2.2 / RFC 3279 §2.2.3), EdDSA stays
 * raw (RFC 8410 §6).
 */
export async function signX509(signer: Signer, data: Uint8Array): Promise<ArrayBuffer> {
  x509SignatureAlgorithm(signer);
  const signature = await signer.sign(data);
  if (signer.alg !== "ES256") return new Uint8Array(signature).buffer;
  if (signature.length !== 64) throw new CredkitError("BR_0329", "ES256 signature is not 64 bytes r||s");
  return AsnConvert.serialize(
    new ECDSASigValue({ r: positiveInteger(signature.subarray(0, 32)), s: positiveInteger(signature.subarray(32)) }),
  );
}
