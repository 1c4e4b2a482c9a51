import type { Identifier } from "../../../domain/identifier.js";
import { REGISTRATION_CERT_FORMAT } from "../../../providers/trust/registration-certificate.js";
import { readIdentifierTrustInformation } from "../../management/identifier-trust-information.js";

/** One `verifier_info` attestation (OpenID4VP 1.0 §5.1). */
export interface VerifierInfoEntry {
  format: string;
  data: string | Record<string, unknown>;
  credential_ids?: string[];
}

/**
 * The `verifier_info` request parameter (OpenID4VP 1.0 §5.1) of a verifier identifier: its REGISTRATION_CERTIFICATE
 * trust information (ETSI TS 119 475), each as `{format: "registration_cert", data: <jwt>}` concerning every credential
 * query (no `credential_ids`). Certificates past their `validTo` are not sent. Only signed request objects carry it:
 * a wallet can bind an attestation only to a request the verifier signed (§5.1 "the Wallet MUST validate the
 * signature and ensure binding"), so unsigned `redirect_uri` requests go without.
 */
export function verifierInfoParameter(
  verifier: Pick<Identifier, "trustInformation"> | undefined,
  now: Date,
): { verifier_info?: VerifierInfoEntry[] } {
  if (verifier === undefined) return {};
  const entries = readIdentifierTrustInformation(verifier)
    .filter((entry) => entry.type === "REGISTRATION_CERTIFICATE")
    .filter((entry) => entry.validTo === undefined || new Date(entry.validTo).getTime() >= now.getTime())
    .map((entry) => ({ format: REGISTRATION_CERT_FORMAT, data: entry.data }));
  return entries.length === 0 ? {} : { verifier_info: entries };
}
