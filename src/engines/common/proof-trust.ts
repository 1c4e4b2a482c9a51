import type { Proof } from "../../domain/proof.js";
import type { ProofTrustInformation, ReceivedAttestation, TrustResult } from "../../domain/trust-information.js";
import {
  firstText,
  REGISTRATION_CERT_FORMAT,
  type RegistrationCertificateClaims,
  registrationCertificateClaimsSchema,
  subjectIdentifiers,
} from "../../providers/trust/registration-certificate.js";

// What the REST API shows of the trust information a wallet received with a presentation request: the summary in the
// proof detail (`trustInformation`), the EUDI ecosystem data of GET /api/proof-request/v1/{id}/trust-detail, and the
// purpose in the v2 presentation definition.

/** `trustInformation` of the proof detail (holder proofs that received trust information). */
export interface ProofTrustInformationDto {
  receivedAt: Date;
  name?: string;
  result: TrustResult;
}

export interface ContactDto {
  email?: string;
  phone?: string;
  uri?: string;
}

/** The relying party as its registration certificate describes it (trust-detail `eudiEcosystem`). */
export interface EudiEcosystemDto {
  name: string;
  website?: string;
  email?: string;
  phone?: string;
  country: string;
  identifier: string;
  /** `[{<lang>: text}]` */
  serviceDescription: Record<string, string>[];
  supervisoryAuthority: ContactDto;
  intermediary?: {
    name?: string;
    identifier: string;
    website?: string;
    email?: string;
    phone?: string;
    country?: string;
  };
  isPublicSector: boolean;
}

/** GET /api/proof-request/v1/{id}/trust-detail: `{}` when the proof has no (readable) trust information. */
export interface ProofTrustDetailDto {
  eudiEcosystem?: EudiEcosystemDto;
}

/** `trustInformation` of a proof detail, when the (holder) proof received trust information. */
export function toProofTrustInformationDto(proof: Proof): { trustInformation?: ProofTrustInformationDto } {
  const trust = proof.trustInformation;
  if (trust === undefined) return {};
  return {
    trustInformation: {
      receivedAt: new Date(trust.receivedAt),
      ...(trust.name !== undefined && { name: trust.name }),
      result: trust.result,
    },
  };
}

function claimsOf(attestation: ReceivedAttestation): RegistrationCertificateClaims | undefined {
  if (attestation.format !== REGISTRATION_CERT_FORMAT || attestation.claims === undefined) return undefined;
  const parsed = registrationCertificateClaimsSchema.safeParse(attestation.claims);
  return parsed.success ? parsed.data : undefined;
}

/**
 * The registration certificate that speaks for the verifier: the first TRUSTED one, else the first whose claims are
 * readable (the proof detail's `result` says whether to believe it).
 */
export function primaryRegistrationCertificate(
  trust: ProofTrustInformation | undefined,
): RegistrationCertificateClaims | undefined {
  if (trust === undefined) return undefined;
  const trusted = trust.attestations.filter((attestation) => attestation.result === "TRUSTED");
  for (const attestation of [...trusted, ...trust.attestations]) {
    const claims = claimsOf(attestation);
    if (claims) return claims;
  }
  return undefined;
}

/** `mailto:` and bare addresses are e-mail, `tel:` is phone (ETSI `support_uri`: "URL or email address"). */
function contactOf(values: string | string[] | undefined): { email?: string; phone?: string } {
  const list = values === undefined ? [] : Array.isArray(values) ? values : [values];
  let email: string | undefined;
  let phone: string | undefined;
  for (const value of list) {
    const lower = value.toLowerCase();
    if (email === undefined && lower.startsWith("mailto:")) email = value.slice("mailto:".length);
    else if (email === undefined && !value.includes(":") && value.includes("@")) email = value;
    else if (phone === undefined && lower.startsWith("tel:")) phone = value.slice("tel:".length);
  }
  return { ...(email !== undefined && { email }), ...(phone !== undefined && { phone }) };
}

function optional<K extends string>(key: K, value: string | undefined): { [P in K]?: string } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: string };
}

/** Maps ETSI TS 119 475 claims to the One Core `eudiEcosystem` object; members the certificate lacks are left out. */
export function toEudiEcosystem(claims: RegistrationCertificateClaims): EudiEcosystemDto {
  const authority = claims.dpa ?? claims.supervisory_authority ?? {};
  const services = claims.service ?? claims.srv_description ?? [];
  const act = claims.act;
  const actSubject = act === undefined ? undefined : typeof act.sub === "string" ? { id: act.sub } : act.sub;
  return {
    name: claims.name,
    ...optional("website", firstText(claims.info_uri)),
    ...contactOf(claims.support_uri),
    country: claims.country,
    identifier: subjectIdentifiers(claims)[0]!,
    serviceDescription: services.map((entry) => ({ [entry.lang]: entry.value })),
    supervisoryAuthority: {
      ...optional("email", firstText(authority.email)),
      ...optional("phone", firstText(authority.phone)),
      ...optional("uri", firstText(authority.uri)),
    },
    ...(act !== undefined &&
      actSubject !== undefined && {
        intermediary: {
          ...optional("name", "name" in actSubject ? actSubject.name : undefined),
          identifier: actSubject.id,
          ...optional("website", firstText(act.info_uri)),
          ...contactOf(act.support_uri),
          ...optional("country", act.country),
        },
      }),
    isPublicSector: claims.public_body === true,
  };
}

/** The trust detail of a proof: the EUDI ecosystem data of its registration certificate, `{}` without one. */
export function toProofTrustDetail(proof: Proof): ProofTrustDetailDto {
  const claims = primaryRegistrationCertificate(proof.trustInformation);
  return claims === undefined ? {} : { eudiEcosystem: toEudiEcosystem(claims) };
}

/**
 * The purpose per DCQL credential query, from the TRUSTED registration certificates that concern it (`credential_ids`
 * naming it, or none = all queries): the first text of the certificate's `purpose` (its registered intended use).
 * Untrusted certificates contribute nothing: a purpose shown to the user must come from the registrar.
 */
export function purposesOf(trust: ProofTrustInformation | undefined, queryIds: readonly string[]): Map<string, string> {
  const purposes = new Map<string, string>();
  if (trust === undefined) return purposes;
  for (const attestation of trust.attestations) {
    if (attestation.result !== "TRUSTED") continue;
    const purpose = claimsOf(attestation)?.purpose?.find((entry) => entry.value !== "")?.value;
    if (purpose === undefined) continue;
    for (const id of queryIds) {
      if (purposes.has(id)) continue;
      if (attestation.credentialIds === undefined || attestation.credentialIds.includes(id)) purposes.set(id, purpose);
    }
  }
  return purposes;
}
