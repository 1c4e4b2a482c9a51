import type { X509Certificate } from "node:crypto";
import type { Certificate, Identifier } from "../../domain/identifier.js";
import type { Key } from "../../domain/key.js";
import { CredkitError } from "../../errors/credkit-error.js";
import type { StorageRepositories } from "../../ports/storage.js";
import { parsePemChain } from "../../providers/x509/index.js";

/** The certificate a CERTIFICATE identifier signs with: its stored row, the parsed chain (leaf first) and its key. */
export interface IdentifierCertificate {
  certificate: Certificate;
  chain: X509Certificate[];
  key: Key;
}

/**
 * The active certificate of a CERTIFICATE identifier (or the one named by `certificateId`). BR_0242 when it has none,
 * BR_0394 when several are active and none is named, BR_0223 when the named one is not the identifier's.
 */
export async function loadIdentifierCertificate(
  storage: StorageRepositories,
  identifier: Identifier,
  certificateId?: string,
): Promise<IdentifierCertificate> {
  if (identifier.type !== "CERTIFICATE") {
    throw new CredkitError("BR_0242", `identifier ${identifier.id} is of type ${identifier.type}, not CERTIFICATE`);
  }
  const rows = await storage.certificates.findMany({ op: "eq", column: "identifierId", value: identifier.id });
  let certificate: Certificate | undefined;
  if (certificateId !== undefined) {
    certificate = rows.find((row) => row.id === certificateId);
    if (!certificate)
      throw new CredkitError("BR_0223", `certificate ${certificateId} is not on identifier ${identifier.id}`);
  } else {
    const active = rows.filter((row) => row.state === "ACTIVE");
    if (active.length > 1) {
      throw new CredkitError("BR_0394", `identifier ${identifier.id} has ${active.length} active certificates`);
    }
    certificate = active[0];
    if (!certificate) throw new CredkitError("BR_0242", `identifier ${identifier.id} has no active certificate`);
  }
  if (certificate.state !== "ACTIVE") {
    throw new CredkitError(
      certificate.state === "REVOKED" ? "BR_0212" : certificate.state === "EXPIRED" ? "BR_0213" : "BR_0359",
      `certificate ${certificate.id} is ${certificate.state}`,
    );
  }
  if (!certificate.keyId)
    throw new CredkitError("BR_0242", `certificate ${certificate.id} has no key of this deployment`);
  const key = await storage.keys.get(certificate.keyId);
  if (!key) throw new CredkitError("BR_0037", `key of certificate ${certificate.id} not found`);
  return { certificate, chain: parsePemChain(certificate.chain), key };
}
