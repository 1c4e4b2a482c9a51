import { z } from "zod";
import type { Identifier } from "../../domain/identifier.js";
import {
  IDENTIFIER_TRUST_INFORMATION_TYPES,
  type IdentifierTrustInformationEntry,
  type IdentifierTrustInformationType,
} from "../../domain/trust-information.js";
import { CredkitError, isCredkitError } from "../../errors/credkit-error.js";
import {
  decodeRegistrationCertificate,
  parseRegistrationCertificateClaims,
  registrationCertificateValidity,
  verifyRegistrationCertificateSignature,
} from "../../providers/trust/registration-certificate.js";
import { validateCertificateChain } from "../../providers/x509/index.js";

// `trustInformation` of an identifier (One Core 1.75+: POST /api/identifier/v1 accepts it, the detail answers it):
// attestations about the relying party the identifier stands for, which the verifier hands to wallets with its
// presentation requests (OpenID4VP 1.0 `verifier_info`, see verifier-info.ts).

/** Seconds of clock skew when checking the validity of a given attestation's x5c certificates. */
const CREATE_LEEWAY_SECONDS = 60;
/** An attestation is a JWT; anything this long is not one a registrar issued. */
const MAX_DATA_LENGTH = 64 * 1024;

/** One entry of `trustInformation` on identifier create. */
export const identifierTrustInformationEntrySchema = z
  .object({
    type: z.enum(IDENTIFIER_TRUST_INFORMATION_TYPES),
    data: z.string().min(1).max(MAX_DATA_LENGTH),
  })
  .strict();

/** `trustInformation` on identifier create: `[{type: "REGISTRATION_CERTIFICATE", data: "<jwt>"}]`. */
export const identifierTrustInformationInputSchema = z.array(identifierTrustInformationEntrySchema).max(16);
export type IdentifierTrustInformationInput = z.input<typeof identifierTrustInformationInputSchema>;

/** `trustInformation[]` of the identifier detail (reference: `{type, data, validFrom?, validTo?}`). */
export interface IdentifierTrustInformationDto {
  type: IdentifierTrustInformationType;
  data: string;
  validFrom?: Date;
  validTo?: Date;
}

/** Checks one attestation and answers its validity window; throws a CredkitError with a readable detail. */
export type TrustInformationValidator = (data: string, now: Date) => { validFrom?: Date; validTo?: Date };

function checkWindow(validity: { validFrom?: Date; validTo?: Date }, what: string): void {
  if (validity.validFrom && validity.validTo && validity.validTo <= validity.validFrom) {
    throw new CredkitError(
      "BR_0355",
      `${what}: exp ${validity.validTo.toISOString()} is not after nbf/iat ${validity.validFrom.toISOString()}`,
    );
  }
}

/**
 * A REGISTRATION_CERTIFICATE (ETSI TS 119 475 WRPRC in JWT form): `typ` rc-wrp+jwt, an `x5c` chain whose certificates
 * sign each other and are valid now (BR_0224 / BR_0211 / BR_0213), a signature by its first certificate (BR_0211), the
 * ETSI claims wallets show (`name`, `sub.id`, `country`, `service`, `info_uri`, `dpa`; BR_0355), a consistent validity
 * window, not expired (BR_0213). Whether the registrar is trusted is for each wallet to decide, not checked here.
 */
export const validateRegistrationCertificate: TrustInformationValidator = (data, now) => {
  const decoded = decodeRegistrationCertificate(data);
  const chain = verifyRegistrationCertificateSignature(decoded);
  parseRegistrationCertificateClaims(decoded.payload);
  const validity = registrationCertificateValidity(decoded.payload);
  checkWindow(validity, "registration certificate");
  if (validity.validTo && validity.validTo.getTime() < now.getTime()) {
    throw new CredkitError("BR_0213", `registration certificate expired at ${validity.validTo.toISOString()}`);
  }
  try {
    validateCertificateChain(chain, { now, leeway: CREATE_LEEWAY_SECONDS, trustAnchors: [] });
  } catch (error) {
    if (!isCredkitError(error)) throw error;
    throw new CredkitError(error.code, `registration certificate x5c: ${error.detail ?? error.message}`);
  }
  return validity;
};

/**
 * A VERIFIER_ATTESTATION (credkit extension): a compact JWS with a JSON payload; its validity window from nbf/iat/exp.
 * Its authentication rules (OpenID4VP 1.0 §12) are applied where it is used.
 */
export const validateVerifierAttestation: TrustInformationValidator = (data) => {
  const parts = data.trim().split(".");
  if (parts.length !== 3 || parts.some((part) => part === "")) {
    throw new CredkitError("BR_0355", "verifier attestation: not a compact JWS (header.payload.signature)");
  }
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(parts[1]!, "base64url").toString("utf8"));
  } catch {
    throw new CredkitError("BR_0355", "verifier attestation: the payload is not JSON");
  }
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) {
    throw new CredkitError("BR_0355", "verifier attestation: the payload is not a JSON object");
  }
  const validity = registrationCertificateValidity(payload as Record<string, unknown>);
  checkWindow(validity, "verifier attestation");
  return validity;
};

/** How each type is checked on create (replaceable per type by other engines). */
export const TRUST_INFORMATION_VALIDATORS: Record<IdentifierTrustInformationType, TrustInformationValidator> = {
  REGISTRATION_CERTIFICATE: validateRegistrationCertificate,
  VERIFIER_ATTESTATION: validateVerifierAttestation,
};

/**
 * Validates `trustInformation` of an identifier create (before anything is stored) and answers the entries to store,
 * with validFrom / validTo derived from the attestations. Failures keep their code (BR_0355 malformed, BR_0224 x5c
 * unreadable, BR_0211 signature, BR_0213 expired) with the entry named in the detail.
 */
export function validateIdentifierTrustInformation(
  input: z.output<typeof identifierTrustInformationInputSchema>,
  now: Date,
): IdentifierTrustInformationEntry[] {
  return input.map((entry, index) => {
    let validity: { validFrom?: Date; validTo?: Date };
    try {
      validity = TRUST_INFORMATION_VALIDATORS[entry.type](entry.data, now);
    } catch (error) {
      if (!isCredkitError(error)) throw error;
      throw new CredkitError(
        error.code,
        `trustInformation[${index}] (${entry.type}): ${error.detail ?? error.message}`,
        {
          cause: error,
        },
      );
    }
    return {
      type: entry.type,
      data: entry.data.trim(),
      ...(validity.validFrom && { validFrom: validity.validFrom.toISOString() }),
      ...(validity.validTo && { validTo: validity.validTo.toISOString() }),
    };
  });
}

const storedEntrySchema = z
  .object({
    type: z.enum(IDENTIFIER_TRUST_INFORMATION_TYPES),
    data: z.string(),
    validFrom: z.string().optional(),
    validTo: z.string().optional(),
  })
  .loose();

/**
 * The stored trust information of an identifier. Rows written before it was validated may hold anything: entries
 * that are not `{type, data}` of a known type are skipped.
 */
export function readIdentifierTrustInformation(
  identifier: Pick<Identifier, "trustInformation">,
): IdentifierTrustInformationEntry[] {
  const stored = identifier.trustInformation;
  if (!Array.isArray(stored)) return [];
  const entries: IdentifierTrustInformationEntry[] = [];
  for (const value of stored) {
    const parsed = storedEntrySchema.safeParse(value);
    if (!parsed.success) continue;
    const { type, data, validFrom, validTo } = parsed.data;
    entries.push({
      type,
      data,
      ...(validFrom !== undefined && { validFrom }),
      ...(validTo !== undefined && { validTo }),
    });
  }
  return entries;
}

/** `trustInformation` of the identifier detail; undefined when the identifier has none. */
export function toIdentifierTrustInformationDtos(
  identifier: Pick<Identifier, "trustInformation">,
): IdentifierTrustInformationDto[] | undefined {
  const entries = readIdentifierTrustInformation(identifier);
  if (entries.length === 0) return undefined;
  return entries.map((entry) => ({
    type: entry.type,
    data: entry.data,
    ...(entry.validFrom !== undefined && { validFrom: new Date(entry.validFrom) }),
    ...(entry.validTo !== undefined && { validTo: new Date(entry.validTo) }),
  }));
}

/** The registration certificates (JWTs) of an identifier, in the order given. */
export function registrationCertificatesOf(identifier: Pick<Identifier, "trustInformation">): string[] {
  return readIdentifierTrustInformation(identifier)
    .filter((entry) => entry.type === "REGISTRATION_CERTIFICATE")
    .map((entry) => entry.data);
}
