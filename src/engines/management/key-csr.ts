import { z } from "zod";
import type { Key } from "../../domain/key.js";
import { CredkitError } from "../../errors/credkit-error.js";
import { getKeyAlgorithm, type ProviderRegistry } from "../../providers/registry.js";
import {
  createCertificationRequest,
  EKU_MDL_DOCUMENT_SIGNER,
  type ExtensionsSpec,
  subjectPublicKeyInfoFromJwk,
  X509_SIGNING_ALGORITHMS,
} from "../../providers/x509/index.js";
import { createKeySigner } from "../common/key-signer.js";
import { distinguishedNameInputSchema } from "./distinguished-name-input.js";

/** POST /api/key/v1/{id}/generate-csr body (reference §3.2). */
export const generateCsrInputSchema = z
  .object({
    /** GENERIC: digitalSignature; MDL: plus extKeyUsage mdlDS (ISO/IEC 18013-5 B.1.4); CA: keyCertSign + cRLSign */
    profile: z.enum(["GENERIC", "MDL", "CA"]),
    subject: distinguishedNameInputSchema,
  })
  .strict();
export type GenerateCsrInput = z.input<typeof generateCsrInputSchema>;

/** The extensions each profile requests (One Core's CSR creator; a CSR carries no basicConstraints). */
const PROFILE_EXTENSIONS: Record<z.output<typeof generateCsrInputSchema>["profile"], Omit<ExtensionsSpec, "ca">> = {
  GENERIC: { keyUsage: ["digitalSignature"] },
  MDL: { keyUsage: ["digitalSignature"], extendedKeyUsage: [EKU_MDL_DOCUMENT_SIGNER] },
  CA: { keyUsage: ["keyCertSign", "crlSign"] },
};

/**
 * A PKCS#10 certification request for a stored key, signed by the key storage (proof of possession). Only ECDSA
 * (P-256) and EdDSA (Ed25519) keys (BR_0128). Answers `{content: <PEM>}`.
 */
export async function generateKeyCsr(
  providers: ProviderRegistry,
  key: Key,
  input: z.output<typeof generateCsrInputSchema>,
): Promise<{ content: string }> {
  const algorithm = getKeyAlgorithm(providers, key.keyType);
  if (!X509_SIGNING_ALGORITHMS.includes(algorithm.jwsAlgorithm)) {
    throw new CredkitError("BR_0128", `${key.keyType} keys cannot be certified (ECDSA and EDDSA can)`);
  }
  const content = await createCertificationRequest(
    {
      subject: input.subject,
      subjectPublicKeyInfo: subjectPublicKeyInfoFromJwk(algorithm.publicKeyToJwk(key.publicKey)),
      extensions: PROFILE_EXTENSIONS[input.profile],
    },
    createKeySigner(providers, key),
  );
  return { content };
}
