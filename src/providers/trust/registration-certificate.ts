import { constants, verify as cryptoVerify, type KeyObject, type X509Certificate } from "node:crypto";
import { z } from "zod";
import { CredkitError, isCredkitError } from "../../errors/credkit-error.js";
import { decodeCompactJws } from "../jose/decode-compact-jws.js";
import { parseX5c } from "../x509/index.js";

// ETSI TS 119 475 Wallet-Relying Party Registration Certificates (WRPRC) in JWT form: a JWS whose JOSE header has
// `typ: rc-wrp+jwt` and an `x5c` chain (the registrar's signing certificate first), whose payload describes the relying
// party (name, identifier, country, services, supervisory authority, intended use …). Verifiers carry them in the
// OpenID4VP 1.0 `verifier_info` request parameter (§5.1) with the format `registration_cert` (EUDI Wallet profile).

/** `typ` of a registration certificate JWT (ETSI TS 119 475 clause 5.2, Table 5). */
export const REGISTRATION_CERTIFICATE_TYP = "rc-wrp+jwt";
/** `format` of a registration certificate inside `verifier_info` (EUDI Wallet ecosystem). */
export const REGISTRATION_CERT_FORMAT = "registration_cert";

const text = z.string().min(1);
/** ETSI encodes several single-valued attributes as arrays (`info_uri`, `dpa.email` …); earlier drafts as strings */
const textOrList = z.union([z.string(), z.array(z.string())]);
const localized = z.array(z.object({ lang: z.string(), value: z.string() }).loose()).min(1);
/** `{type: "http://data.europa.eu/eudi/id/LEI", identifier}` (ETSI TS 119 475 Annex B) */
const typedIdentifier = z.object({ type: z.string().optional(), identifier: text }).loose();
const subjectIdentifier = z.union([text, typedIdentifier, z.array(typedIdentifier).min(1)]);
const contact = z
  .object({
    email: textOrList.optional(),
    phone: textOrList.optional(),
    uri: textOrList.optional(),
    country: z.string().optional(),
  })
  .loose();

/**
 * The registration certificate payload as credkit reads it (ETSI TS 119 475 clause 5.2.4, Annex B): the members the
 * trust detail shows are checked, the rest is kept as received. Spellings of the published schemas and of One Core are
 * accepted alike: `sub.id` as a string, an identifier object or a list of them; `service` (also `srv_description`);
 * `dpa` (also `supervisory_authority`); `act` (the intermediary, also `intermediary`).
 */
export const registrationCertificateClaimsSchema = z
  .object({
    name: text,
    sub: z
      .object({
        id: subjectIdentifier,
        legal_name: textOrList.optional(),
        given_name: z.string().optional(),
        family_name: z.string().optional(),
      })
      .loose(),
    country: text,
    service: localized.optional(),
    srv_description: localized.optional(),
    info_uri: textOrList,
    dpa: contact.optional(),
    supervisory_authority: contact.optional(),
    support_uri: textOrList.optional(),
    public_body: z.boolean().optional(),
    purpose: localized.optional(),
    credentials: z.array(z.object({ format: z.string() }).loose()).optional(),
    intended_use_id: z.string().optional(),
    act: z
      .object({
        sub: z.union([text, z.object({ id: text, name: z.string().optional() }).loose()]),
        info_uri: textOrList.optional(),
        country: z.string().optional(),
        support_uri: textOrList.optional(),
      })
      .loose()
      .optional(),
    iat: z.number().optional(),
    nbf: z.number().optional(),
    exp: z.number().optional(),
  })
  .loose()
  .refine((claims) => claims.service !== undefined || claims.srv_description !== undefined, {
    message: "service (the description of the relying party's services) is required",
    path: ["service"],
  })
  .refine((claims) => claims.dpa !== undefined || claims.supervisory_authority !== undefined, {
    message: "dpa (the supervisory authority) is required",
    path: ["dpa"],
  });
export type RegistrationCertificateClaims = z.output<typeof registrationCertificateClaimsSchema>;

/** A registration certificate split and decoded, not yet verified. */
export interface DecodedRegistrationCertificate {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
  signingInput: Uint8Array;
  signature: Uint8Array;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function malformed(detail: string): CredkitError {
  return new CredkitError("BR_0355", `registration certificate: ${detail}`);
}

/**
 * Splits a registration certificate (a compact JWS) into header, payload and signature; BR_0355 naming the problem
 * when it is not one. `crit` may only name `b64` (JAdES, ETSI TS 119 182-1) with the default `b64: true`.
 */
export function decodeRegistrationCertificate(jwt: string): DecodedRegistrationCertificate {
  if (typeof jwt !== "string" || jwt.trim() === "") throw malformed("is empty");
  const token = jwt.trim();
  if (token.split(".").length !== 3) throw malformed("is not a compact JWS (header.payload.signature)");
  const decoded = decodeCompactJws(token, "registration certificate", {
    code: "BR_0355",
    allowedCrit: ["b64"],
    limitDepth: true,
  });
  if (decoded.header.b64 === false) throw malformed("unencoded payloads (b64: false) are not supported");
  return decoded;
}

function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.map(String).join(".") || "(root)"}: ${issue.message}`).join("; ");
}

/** The ETSI claims of a decoded payload; BR_0355 listing the members at fault. */
export function parseRegistrationCertificateClaims(payload: Record<string, unknown>): RegistrationCertificateClaims {
  const parsed = registrationCertificateClaimsSchema.safeParse(payload);
  if (!parsed.success)
    throw malformed(`payload is not an ETSI TS 119 475 registration certificate: ${describeIssues(parsed.error)}`);
  return parsed.data;
}

/** Seconds since the epoch of a JWT time claim, as a Date (undefined when absent). */
function dateOf(seconds: unknown): Date | undefined {
  return typeof seconds === "number" && Number.isFinite(seconds) ? new Date(seconds * 1000) : undefined;
}

/** Validity window of a registration certificate: from `nbf` (else `iat`) to `exp`. */
export function registrationCertificateValidity(payload: Record<string, unknown>): {
  validFrom?: Date;
  validTo?: Date;
} {
  const validFrom = dateOf(payload.nbf) ?? dateOf(payload.iat);
  const validTo = dateOf(payload.exp);
  return { ...(validFrom && { validFrom }), ...(validTo && { validTo }) };
}

/** JOSE algs a registration certificate may be signed with, and the key each needs. */
const SIGNATURE_ALGORITHMS: Record<
  string,
  { hash: string | null; keyType: string; curve?: string; padding?: "pss" | "pkcs1" }
> = {
  ES256: { hash: "sha256", keyType: "ec", curve: "prime256v1" },
  ES384: { hash: "sha384", keyType: "ec", curve: "secp384r1" },
  ES512: { hash: "sha512", keyType: "ec", curve: "secp521r1" },
  EdDSA: { hash: null, keyType: "ed25519" },
  Ed25519: { hash: null, keyType: "ed25519" },
  RS256: { hash: "sha256", keyType: "rsa", padding: "pkcs1" },
  RS384: { hash: "sha384", keyType: "rsa", padding: "pkcs1" },
  RS512: { hash: "sha512", keyType: "rsa", padding: "pkcs1" },
  PS256: { hash: "sha256", keyType: "rsa", padding: "pss" },
  PS384: { hash: "sha384", keyType: "rsa", padding: "pss" },
  PS512: { hash: "sha512", keyType: "rsa", padding: "pss" },
};

/** Whether `signature` over `signingInput` verifies with the public key of `certificate` under the JOSE `alg`. */
function verifiesWith(alg: string, key: KeyObject, signingInput: Uint8Array, signature: Uint8Array): boolean {
  const spec = SIGNATURE_ALGORITHMS[alg];
  if (!spec) throw new CredkitError("BR_0211", `registration certificate: alg ${JSON.stringify(alg)} is not supported`);
  const keyType = key.asymmetricKeyType;
  const fits =
    spec.keyType === "rsa"
      ? keyType === "rsa" || (keyType === "rsa-pss" && spec.padding === "pss")
      : keyType === spec.keyType && (spec.curve === undefined || key.asymmetricKeyDetails?.namedCurve === spec.curve);
  if (!fits) {
    throw new CredkitError(
      "BR_0211",
      `registration certificate: the x5c certificate's ${keyType}${key.asymmetricKeyDetails?.namedCurve ? ` ${key.asymmetricKeyDetails.namedCurve}` : ""} key does not fit alg ${alg}`,
    );
  }
  try {
    if (spec.keyType === "ec")
      return cryptoVerify(spec.hash, signingInput, { key, dsaEncoding: "ieee-p1363" }, signature);
    if (spec.padding === "pss") {
      return cryptoVerify(
        spec.hash,
        signingInput,
        { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST },
        signature,
      );
    }
    return cryptoVerify(spec.hash, signingInput, key, signature);
  } catch {
    return false;
  }
}

/**
 * Checks a registration certificate's own consistency: JOSE `typ` `rc-wrp+jwt`, an `x5c` chain (BR_0224 when it does
 * not parse), a signature by the chain's first certificate (BR_0211). Answers the chain, leaf first. Trust (the chain
 * leading to an anchor) and validity are the caller's business.
 */
export function verifyRegistrationCertificateSignature(decoded: DecodedRegistrationCertificate): X509Certificate[] {
  if (decoded.header.typ !== REGISTRATION_CERTIFICATE_TYP) {
    throw malformed(`typ must be ${REGISTRATION_CERTIFICATE_TYP}, got ${JSON.stringify(decoded.header.typ ?? null)}`);
  }
  const alg = decoded.header.alg;
  if (typeof alg !== "string" || alg === "" || alg.toLowerCase() === "none") {
    throw malformed("the header must name a signature alg");
  }
  if (decoded.header.x5c === undefined) throw malformed("the header has no x5c certificate chain");
  let chain: X509Certificate[];
  try {
    chain = parseX5c(decoded.header.x5c);
  } catch (error) {
    throw new CredkitError(
      "BR_0224",
      `registration certificate x5c: ${isCredkitError(error) ? error.detail : String(error)}`,
      {
        cause: error,
      },
    );
  }
  const leaf = chain[0]!;
  if (decoded.signature.length === 0 || !verifiesWith(alg, leaf.publicKey, decoded.signingInput, decoded.signature)) {
    throw new CredkitError(
      "BR_0211",
      `registration certificate: the signature does not verify with the x5c certificate ${JSON.stringify(leaf.subject.replace(/\n/g, ", "))}`,
    );
  }
  return chain;
}

/** First entry of a string-or-list member. */
export function firstText(value: string | string[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  const first = Array.isArray(value) ? value.find((entry) => entry !== "") : value;
  return first === "" ? undefined : first;
}

/** Every identifier value of `sub.id` (a string, an identifier object or a list of them). */
export function subjectIdentifiers(claims: RegistrationCertificateClaims): string[] {
  const id = claims.sub.id;
  if (typeof id === "string") return [id];
  return (Array.isArray(id) ? id : [id]).map((entry) => entry.identifier);
}
