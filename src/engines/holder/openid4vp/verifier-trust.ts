import type { X509Certificate } from "node:crypto";
import type { CertificateValidationConfig } from "../../../config/certificate-validation.js";
import type { ProofTrustInformation, ReceivedAttestation } from "../../../domain/trust-information.js";
import { isCredkitError } from "../../../errors/credkit-error.js";
import { evaluateRegistrationCertificate } from "../../../providers/trust/evaluate-registration-certificate.js";
import { REGISTRATION_CERT_FORMAT } from "../../../providers/trust/registration-certificate.js";
import { parseDcqlQuery } from "../../../providers/verification/dcql/index.js";
import { parsePemChain } from "../../../providers/x509/index.js";
import { primaryRegistrationCertificate } from "../../common/proof-trust.js";

// The wallet's reading of `verifier_info` (OpenID4VP 1.0 §5.1): attestations about the verifier. Registration
// certificates (format `registration_cert`, ETSI TS 119 475) are verified against `certificateValidation`; the outcome
// is kept on the holder proof and never refuses the request — the holder sees TRUSTED, UNTRUSTED or UNKNOWN.

/** At most this many attestations are evaluated; more make the whole trust information UNTRUSTED. */
const MAX_ATTESTATIONS = 16;
/** Attestations kept verbatim up to this size. */
const MAX_KEPT_DATA = 64 * 1024;

/** How the request the attestations came with was authenticated. */
export interface VerifierTrustContext {
  /**
   * the request object was signed and its signature verified (every client_id prefix but `redirect_uri`): only then is
   * an attestation bound to this request rather than copied into it
   */
  signed: boolean;
  /** ids of the request's DCQL credential queries (`credential_ids` must name them) */
  queryIds: readonly string[];
  /** identifiers of the access certificate the request was signed with (its organizationIdentifier) */
  boundIdentifiers?: readonly string[];
}

export interface WalletTrustSettings {
  now: Date;
  leeway: number;
  /** the configured registrar trust anchors (throws when they cannot be read) */
  trustAnchors(): readonly X509Certificate[];
}

/** Parses the registrar anchors (`certificateValidation.registrarTrustAnchors`, else `trustAnchors`) once, on first use. */
export function walletTrustAnchors(config: CertificateValidationConfig): () => readonly X509Certificate[] {
  let anchors: X509Certificate[] | undefined;
  return () => {
    anchors ??= (config.registrarTrustAnchors ?? config.trustAnchors).flatMap((pem) => parsePemChain(pem));
    return anchors;
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function detailOf(error: unknown): string {
  if (isCredkitError(error)) return error.detail ?? error.message;
  return error instanceof Error ? error.message : String(error);
}

/**
 * organizationIdentifier values (2.5.4.97, ETSI EN 319 412-1) of the access certificate a request was authenticated
 * with (`verifierCertificate.subject` of the resolved request, x509_san_dns / x509_hash prefixes): a registration
 * certificate must then name the same relying party.
 */
export function boundIdentifiersOf(resolved: object): string[] {
  const { prefix, clientIdValue } = resolved as { prefix?: unknown; clientIdValue?: unknown };
  // a DID or an attested client identifier is what the signed request proves; the certificate must name it
  if (
    (prefix === "decentralized_identifier" || prefix === "verifier_attestation") &&
    typeof clientIdValue === "string"
  ) {
    return [clientIdValue];
  }
  const subject = (resolved as { verifierCertificate?: { subject?: unknown } }).verifierCertificate?.subject;
  if (typeof subject !== "string") return [];
  const identifiers: string[] = [];
  for (const component of nameComponents(subject)) {
    const match = /^(?:organizationIdentifier|2\.5\.4\.97)=(.*)$/s.exec(component);
    const value = match?.[1]?.replace(/\\(.)/gs, "$1").trim();
    if (value) identifiers.push(value);
  }
  return identifiers;
}

/**
 * `type=value` components of a subject as node:crypto renders it (RFC 4514 escaping: a `,` or `+` inside a value is
 * `\,` / `\+`), split at the unescaped separators only — so text inside a commonName cannot pose as an attribute.
 */
function nameComponents(subject: string): string[] {
  const components: string[] = [];
  let current = "";
  for (let index = 0; index < subject.length; index++) {
    const char = subject[index]!;
    if (char === "\\" && index + 1 < subject.length) {
      current += char + subject[index + 1];
      index++;
    } else if (char === "," || char === "+" || char === "\n") {
      components.push(current.trim());
      current = "";
    } else current += char;
  }
  components.push(current.trim());
  return components;
}

function credentialIdsOf(value: unknown, queryIds: readonly string[]): { ids?: string[]; problem?: string } {
  if (value === undefined) return {};
  if (!Array.isArray(value) || value.length === 0 || !value.every((id) => typeof id === "string")) {
    return { problem: "credential_ids must be a non-empty array of strings" };
  }
  const unknown = (value as string[]).filter((id) => !queryIds.includes(id));
  if (unknown.length > 0) {
    return {
      ids: value as string[],
      problem: `credential_ids names ${unknown.map((id) => JSON.stringify(id)).join(", ")}, not a credential query of the request`,
    };
  }
  return { ids: value as string[] };
}

/** One `verifier_info` entry evaluated. */
function evaluateEntry(
  entry: unknown,
  index: number,
  context: VerifierTrustContext,
  settings: WalletTrustSettings,
): ReceivedAttestation {
  if (!isObject(entry) || typeof entry.format !== "string" || entry.format === "" || entry.data === undefined) {
    return {
      format: isObject(entry) && typeof entry.format === "string" && entry.format !== "" ? entry.format : "unknown",
      result: "UNTRUSTED",
      reason: `verifier_info[${index}] is not an object {format, data, credential_ids?} (OpenID4VP 1.0 §5.1)`,
    };
  }
  const format = entry.format;
  const data = typeof entry.data === "string" && entry.data.length <= MAX_KEPT_DATA ? entry.data : undefined;
  const { ids, problem } = credentialIdsOf(entry.credential_ids, context.queryIds);
  const base = { format, ...(ids !== undefined && { credentialIds: ids }), ...(data !== undefined && { data }) };
  if (format !== REGISTRATION_CERT_FORMAT) {
    return {
      ...base,
      result: "UNKNOWN",
      reason: `verifier_info format ${JSON.stringify(format)} is not evaluated by this wallet`,
    };
  }
  if (typeof entry.data !== "string") {
    return { ...base, result: "UNTRUSTED", reason: "a registration_cert in verifier_info must be a JWT (a string)" };
  }
  if (data === undefined) {
    return { ...base, result: "UNTRUSTED", reason: `the registration certificate exceeds ${MAX_KEPT_DATA} characters` };
  }
  let trustAnchors: readonly X509Certificate[];
  try {
    trustAnchors = settings.trustAnchors();
  } catch (error) {
    return {
      ...base,
      result: "UNTRUSTED",
      reason: `certificateValidation.trustAnchors cannot be read: ${detailOf(error)}`,
    };
  }
  const evaluation = evaluateRegistrationCertificate(data, {
    now: settings.now,
    leeway: settings.leeway,
    trustAnchors,
    ...(context.boundIdentifiers !== undefined && { boundIdentifiers: context.boundIdentifiers }),
  });
  const decoded = {
    ...(evaluation.payload !== undefined && { claims: evaluation.payload }),
    ...(evaluation.validFrom !== undefined && { validFrom: evaluation.validFrom.toISOString() }),
    ...(evaluation.validTo !== undefined && { validTo: evaluation.validTo.toISOString() }),
    ...(evaluation.signer !== undefined && { signer: evaluation.signer }),
    ...(evaluation.trustAnchor !== undefined && { trustAnchor: evaluation.trustAnchor }),
  };
  // the request's own defects come first: a valid certificate in an unsigned request proves nothing about its sender
  if (!context.signed) {
    return {
      ...base,
      ...decoded,
      result: "UNTRUSTED",
      reason:
        "the request is not signed (redirect_uri prefix), so the registration certificate is not bound to the verifier (OpenID4VP 1.0 §5.1: the Wallet MUST ensure binding)",
    };
  }
  if (problem !== undefined) return { ...base, ...decoded, result: "UNTRUSTED", reason: problem };
  // binding (§5.1): a registration certificate is public; only one naming the identity the request was signed with
  // (the DID, the attested client identifier, the access certificate's organizationIdentifier) speaks for this verifier
  if (evaluation.result === "TRUSTED" && (context.boundIdentifiers ?? []).length === 0) {
    return {
      ...base,
      ...decoded,
      result: "UNTRUSTED",
      reason:
        "the registration certificate cannot be bound to the verifier: its access certificate carries no organizationIdentifier for the certificate to name",
    };
  }
  return {
    ...base,
    ...decoded,
    result: evaluation.result,
    ...(evaluation.reason !== undefined && { reason: evaluation.reason }),
  };
}

/**
 * The trust information of a presentation request, from its `verifier_info` parameter; undefined when it has none.
 * Result: UNTRUSTED when any attestation is (a registration certificate that fails a check, a malformed entry or a
 * malformed `verifier_info`), else TRUSTED when there is a registration certificate, else UNKNOWN (only attestation
 * formats this wallet does not evaluate).
 */
export function resolveVerifierTrust(
  verifierInfo: unknown,
  context: VerifierTrustContext,
  settings: WalletTrustSettings,
): ProofTrustInformation | undefined {
  if (verifierInfo === undefined) return undefined;
  const receivedAt = settings.now.toISOString();
  const refused = (reason: string): ProofTrustInformation => ({
    receivedAt,
    result: "UNTRUSTED",
    attestations: [{ format: "unknown", result: "UNTRUSTED", reason }],
  });
  if (!Array.isArray(verifierInfo) || verifierInfo.length === 0) {
    return refused("verifier_info must be a non-empty array of attestations (OpenID4VP 1.0 §5.1)");
  }
  if (verifierInfo.length > MAX_ATTESTATIONS) {
    return refused(
      `verifier_info carries ${verifierInfo.length} attestations; this wallet evaluates at most ${MAX_ATTESTATIONS}`,
    );
  }
  const attestations = verifierInfo.map((entry, index) => evaluateEntry(entry, index, context, settings));
  const anyCertificate = attestations.some((attestation) => attestation.format === REGISTRATION_CERT_FORMAT);
  const result = attestations.some((attestation) => attestation.result === "UNTRUSTED")
    ? "UNTRUSTED"
    : anyCertificate
      ? "TRUSTED"
      : "UNKNOWN";
  const trust: ProofTrustInformation = { receivedAt, result, attestations };
  const name = primaryRegistrationCertificate(trust)?.name;
  return name === undefined ? trust : { ...trust, name };
}

/**
 * The trust information of an authenticated request (handle-invitation): its `verifier_info`, bound to the request when
 * the request object was signed (every client_id prefix but `redirect_uri`) and, for access certificates, to the
 * relying party they name.
 */
export function receivedTrustInformation(
  request: { verifier_info?: unknown; dcql_query?: unknown },
  resolved: { prefix: string },
  settings: WalletTrustSettings,
): ProofTrustInformation | undefined {
  if (request.verifier_info === undefined) return undefined;
  let queryIds: string[] = [];
  try {
    queryIds = parseDcqlQuery(request.dcql_query).credentials.map((query) => query.id);
  } catch {
    // the request's DCQL query is validated (and refused) by the caller
  }
  return resolveVerifierTrust(
    request.verifier_info,
    { signed: resolved.prefix !== "redirect_uri", queryIds, boundIdentifiers: boundIdentifiersOf(resolved) },
    settings,
  );
}
