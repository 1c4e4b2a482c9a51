import { createHash, type X509Certificate } from "node:crypto";
import { z } from "zod";
import { CERTIFICATE_ROLES, type CertificateRole } from "../../domain/enums.js";
import type { Certificate } from "../../domain/identifier.js";
import type { Key } from "../../domain/key.js";
import { CredkitError } from "../../errors/credkit-error.js";
import type { StorageRepositories } from "../../ports/storage.js";
import { getKeyAlgorithm } from "../../providers/registry.js";
import {
  certificatePublicJwk,
  checkValidityPeriod,
  DNS_NAME,
  EKU_MDL_DOCUMENT_SIGNER,
  type ExtensionsSpec,
  issueCertificate,
  notAfter,
  notBefore,
  parsePemChain,
  samePublicJwk,
  subjectCommonName,
  subjectPublicKeyInfoFromJwk,
  toPemChain,
  validateOwnChain,
} from "../../providers/x509/index.js";
import type { EngineDeps } from "../common/engine-deps.js";
import { createKeySigner } from "../common/key-signer.js";
import { timestampInput } from "../list/list-input.js";
import { type DistinguishedNameInput, distinguishedNameInputSchema } from "./distinguished-name-input.js";

/**
 * Signer instances (One Core config block `signer`) that create X.509 certificates. credkit has no `signer`
 * configuration block: `X509_CERTIFICATE` is the one built-in instance, anything else is BR_0326.
 */
export const X509_CERTIFICATE_SIGNERS = ["X509_CERTIFICATE"] as const;

/** Validity of a certificate when the request gives no `validityEnd`: one year (capped by the issuing CA's). */
export const DEFAULT_CERTIFICATE_VALIDITY_MS = 365 * 24 * 3600_000;

const validityFields = { validityStart: timestampInput.optional(), validityEnd: timestampInput.optional() };

/** A certificate's name: text without control characters (NUL cannot be stored in Postgres text). */
const certificateName = z
  .string()
  .min(1)
  .max(255)
  .refine((value) => !/\p{Cc}/u.test(value), "must not contain control characters");

/** One entry of `certificates` (identifier type CERTIFICATE): an existing chain, or `content` a CA identifier signs. */
export const certificateInputSchema = z
  .object({
    /** default: the leaf's subject commonName */
    name: certificateName.optional(),
    /** the key the leaf certifies (a key of this deployment) */
    keyId: z.uuid(),
    /** PEM chain, leaf first */
    chain: z.string().min(1).optional(),
    content: z
      .object({
        /** GENERIC: keyUsage digitalSignature; MDL: plus extKeyUsage mdlDS (ISO/IEC 18013-5 B.1.4) */
        profile: z.enum(["GENERIC", "MDL"]),
        subject: distinguishedNameInputSchema,
        certificateAuthority: z.object({ identifierId: z.uuid(), certificateId: z.uuid().optional() }).strict(),
        signer: z.string().min(1),
        /**
         * credkit extension: subjectAltName entries of the new certificate — the DNS names a verifier proves with
         * the x509_san_dns client-id prefix (OpenID4VP 1.0 §5.9.3), URIs, e-mail addresses
         */
        subjectAlternativeName: z
          .object({
            dns: z
              .array(z.string().regex(DNS_NAME, "must be a DNS name (letters, digits, hyphens, dots)"))
              .min(1)
              .optional(),
            uri: z.array(z.url()).min(1).optional(),
            email: z.array(z.email()).min(1).optional(),
          })
          .strict()
          .optional(),
        ...validityFields,
      })
      .strict()
      .optional(),
    /** default: both roles */
    roles: z.array(z.enum(CERTIFICATE_ROLES)).optional(),
  })
  .strict();
export type CertificateInput = z.output<typeof certificateInputSchema>;

/** One entry of `certificateAuthorities` (identifier type CA): an existing CA chain, or a new self-signed root. */
export const certificateAuthorityInputSchema = z
  .object({
    keyId: z.uuid(),
    name: certificateName.optional(),
    chain: z.string().min(1).optional(),
    selfSigned: z
      .object({
        content: z
          .object({
            subject: distinguishedNameInputSchema,
            issuerAlternativeName: z
              .object({ type: z.enum(["EMAIL", "URI"]), name: z.string().min(1).max(2048) })
              .strict()
              .optional(),
          })
          .strict(),
        signer: z.string().min(1),
        ...validityFields,
      })
      .strict()
      .optional(),
  })
  .strict();
export type CertificateAuthorityInput = z.output<typeof certificateAuthorityInputSchema>;

export interface IdentifierCertificatesRequest {
  identifierId: string;
  organisationId: string;
  /** CERTIFICATE: end-entity certificates; CA: certificate authorities */
  type: "CERTIFICATE" | "CA";
  entries: readonly (CertificateInput | CertificateAuthorityInput)[];
}

type Deps = Pick<EngineDeps, "providers" | "clock" | "newId">;

function checkSigner(signer: string): void {
  if (!(X509_CERTIFICATE_SIGNERS as readonly string[]).includes(signer)) {
    throw new CredkitError("BR_0326", `signer ${JSON.stringify(signer)} is not available (use X509_CERTIFICATE)`);
  }
}

/**
 * The period a new certificate covers (BR_0324 for a start in the past, an end not after the start, or a period
 * outside the issuing CA's).
 */
function validityPeriod(
  requested: { validityStart?: Date; validityEnd?: Date },
  now: Date,
  leeway: number,
  authority?: X509Certificate,
): { notBefore: Date; notAfter: Date } {
  const start = requested.validityStart ?? now;
  if (start.getTime() < now.getTime() - leeway * 1000) {
    throw new CredkitError("BR_0324", `validityStart ${start.toISOString()} is in the past`);
  }
  const limit = authority ? notAfter(authority) : undefined;
  let end = requested.validityEnd;
  if (end === undefined) {
    end = new Date(start.getTime() + DEFAULT_CERTIFICATE_VALIDITY_MS);
    if (limit && end > limit) end = limit;
  }
  if (end.getTime() <= start.getTime()) {
    throw new CredkitError("BR_0324", `validityEnd ${end.toISOString()} is not after validityStart`);
  }
  if (authority && (start < notBefore(authority) || end > limit!)) {
    throw new CredkitError(
      "BR_0324",
      `the validity period must lie within the CA certificate's (${notBefore(authority).toISOString()} – ${limit!.toISOString()})`,
    );
  }
  return { notBefore: start, notAfter: end };
}

function publicJwkOf(deps: Deps, key: Key) {
  return getKeyAlgorithm(deps.providers, key.keyType).publicKeyToJwk(key.publicKey);
}

/**
 * The certificate of a CA identifier that signs a new certificate, with its key: `certificateId`, else its one
 * ACTIVE certificate. BR_0207 unknown identifier, BR_0330 not a usable CA identifier, BR_0223 certificate not on it,
 * BR_0394 several active ones, BR_0359 / BR_0213 / BR_0212 a certificate not valid now.
 */
async function loadAuthority(
  deps: Deps,
  storage: StorageRepositories,
  organisationId: string,
  reference: { identifierId: string; certificateId?: string },
  leeway: number,
): Promise<{ chain: X509Certificate[]; key: Key }> {
  const identifier = await storage.identifiers.get(reference.identifierId);
  if (!identifier || identifier.deletedAt || identifier.organisationId !== organisationId) {
    throw new CredkitError("BR_0207", `identifier ${reference.identifierId} not found`);
  }
  if (identifier.type !== "CA") {
    throw new CredkitError("BR_0330", `identifier ${identifier.id} is of type ${identifier.type}, not CA`);
  }
  if (identifier.state !== "ACTIVE") throw new CredkitError("BR_0330", `CA identifier ${identifier.id} is deactivated`);
  const rows = await storage.certificates.findMany({ op: "eq", column: "identifierId", value: identifier.id });
  let certificate: Certificate | undefined;
  if (reference.certificateId !== undefined) {
    certificate = rows.find((row) => row.id === reference.certificateId);
    if (!certificate) {
      throw new CredkitError("BR_0223", `certificate ${reference.certificateId} is not on identifier ${identifier.id}`);
    }
  } else {
    const active = rows.filter((row) => row.state === "ACTIVE");
    if (active.length > 1) {
      throw new CredkitError("BR_0394", `CA identifier ${identifier.id} has ${active.length} active certificates`);
    }
    certificate = active[0] ?? (rows.length === 1 ? rows[0] : undefined);
    if (!certificate) throw new CredkitError("BR_0330", `CA identifier ${identifier.id} has no active certificate`);
  }
  if (certificate.state !== "ACTIVE") {
    const code = certificate.state === "REVOKED" ? "BR_0212" : certificate.state === "EXPIRED" ? "BR_0213" : "BR_0359";
    throw new CredkitError(code, `CA certificate ${certificate.id} is ${certificate.state}`);
  }
  const chain = parsePemChain(certificate.chain);
  checkValidityPeriod(chain[0]!, deps.clock.now(), leeway, `CA certificate ${certificate.id}`);
  const key = certificate.keyId === undefined ? undefined : await storage.keys.get(certificate.keyId);
  if (!key) throw new CredkitError("BR_0330", `CA certificate ${certificate.id} has no key of this deployment`);
  return { chain, key };
}

const PROFILE_EXTENSIONS: Record<"GENERIC" | "MDL", ExtensionsSpec & { ca: boolean }> = {
  GENERIC: { ca: false, keyUsage: ["digitalSignature"] },
  MDL: { ca: false, keyUsage: ["digitalSignature"], extendedKeyUsage: [EKU_MDL_DOCUMENT_SIGNER] },
};

/** `content`: a certificate for `key`, signed by the key of a CA identifier; answers the chain PEM (leaf first). */
async function issueByAuthority(
  deps: Deps,
  storage: StorageRepositories,
  organisationId: string,
  key: Key,
  content: NonNullable<CertificateInput["content"]>,
  leeway: number,
): Promise<string> {
  checkSigner(content.signer);
  const subject: DistinguishedNameInput = content.subject;
  if (content.profile === "MDL" && (subject.countryName === undefined || subject.commonName === undefined)) {
    throw new CredkitError("BR_0084", "content.subject: the MDL profile needs countryName and commonName");
  }
  const subjectPublicKeyInfo = subjectPublicKeyInfoFromJwk(publicJwkOf(deps, key));
  const authority = await loadAuthority(deps, storage, organisationId, content.certificateAuthority, leeway);
  const issuer = authority.chain[0]!;
  const certificate = await issueCertificate(
    {
      subject,
      subjectPublicKeyInfo,
      ...validityPeriod(content, deps.clock.now(), leeway, issuer),
      extensions: {
        ...PROFILE_EXTENSIONS[content.profile],
        ...(content.subjectAlternativeName && {
          subjectAlternativeName: content.subjectAlternativeName,
          emptySubject: Object.values(subject).every((value) => value === undefined),
        }),
      },
    },
    createKeySigner(deps.providers, authority.key),
    issuer,
  );
  return toPemChain([certificate, ...authority.chain]);
}

/** `selfSigned`: a root CA certificate of `key` (cA, keyCertSign + cRLSign); answers its PEM. */
async function issueSelfSigned(
  deps: Deps,
  key: Key,
  selfSigned: NonNullable<CertificateAuthorityInput["selfSigned"]>,
  leeway: number,
): Promise<string> {
  checkSigner(selfSigned.signer);
  const { subject, issuerAlternativeName } = selfSigned.content;
  const certificate = await issueCertificate(
    {
      subject,
      subjectPublicKeyInfo: subjectPublicKeyInfoFromJwk(publicJwkOf(deps, key)),
      ...validityPeriod(selfSigned, deps.clock.now(), leeway),
      extensions: {
        ca: true,
        keyUsage: ["keyCertSign", "crlSign"],
        ...(issuerAlternativeName && { issuerAlternativeName }),
      },
    },
    createKeySigner(deps.providers, key),
  );
  return toPemChain([certificate]);
}

const DEFAULT_ROLES: CertificateRole[] = ["AUTHENTICATION", "ASSERTION_METHOD"];

/**
 * Validates (and, for `content` / `selfSigned`, first creates) the certificates of a new CERTIFICATE or CA
 * identifier and answers the rows to insert; nothing is written. Per entry: the key must be the organisation's
 * (BR_0037), exactly one of chain / content / selfSigned (BR_0331), the chain must hold (see validateOwnChain:
 * BR_0224 / BR_0211 / BR_0213 / BR_0244 / BR_0248 / BR_0249 / BR_0250) and its leaf certify the key (BR_0214). A
 * chain that is not valid yet is stored NOT_YET_ACTIVE. Across entries: no duplicates, no two with the same name and
 * expiry (BR_0408); across the organisation's identifiers: no certificate twice (BR_0247).
 */
export async function prepareIdentifierCertificates(
  deps: Deps,
  storage: StorageRepositories,
  request: IdentifierCertificatesRequest,
  leeway: number,
): Promise<Certificate[]> {
  if (request.entries.length === 0) {
    throw new CredkitError("BR_0242", `an identifier of type ${request.type} needs at least one certificate`);
  }
  const rows: Certificate[] = [];
  for (const [index, entry] of request.entries.entries()) {
    const label = `${request.type === "CA" ? "certificateAuthorities" : "certificates"}[${index}]`;
    const key = await storage.keys.get(entry.keyId);
    if (!key || key.organisationId !== request.organisationId) {
      throw new CredkitError("BR_0037", `${label}: key ${entry.keyId} not found`);
    }
    const authority = request.type === "CA" ? (entry as CertificateAuthorityInput).selfSigned : undefined;
    const content = request.type === "CERTIFICATE" ? (entry as CertificateInput).content : undefined;
    if ((entry.chain === undefined) === (authority === undefined && content === undefined)) {
      const other = request.type === "CA" ? "selfSigned" : "content";
      throw new CredkitError("BR_0331", `${label}: give either chain or ${other}`);
    }
    let pem: string;
    if (entry.chain !== undefined) pem = entry.chain;
    else if (content) pem = await issueByAuthority(deps, storage, request.organisationId, key, content, leeway);
    else pem = await issueSelfSigned(deps, key, authority!, leeway);

    const chain = parsePemChain(pem);
    const leaf = chain[0]!;
    const now = deps.clock.now();
    const validity = validateOwnChain(chain, { now, leeway, leaf: request.type === "CA" ? "CA" : "END_ENTITY" });
    if (!samePublicJwk(certificatePublicJwk(leaf), publicJwkOf(deps, key))) {
      throw new CredkitError("BR_0214", `${label}: the certificate does not certify key ${key.id}`);
    }
    const name = entry.name ?? subjectCommonName(leaf);
    if (name === undefined) {
      throw new CredkitError("BR_0224", `${label}: the certificate has no subject commonName; give a name`);
    }
    // the commonName is the chain's author's text: NUL is no storable text (Postgres), CR / LF forge log lines
    if (/\p{Cc}/u.test(name)) {
      throw new CredkitError("BR_0224", `${label}: the certificate's commonName has control characters; give a name`);
    }
    rows.push({
      id: deps.newId(),
      identifierId: request.identifierId,
      organisationId: request.organisationId,
      name,
      chain: toPemChain(chain),
      fingerprint: createHash("sha256").update(leaf.raw).digest("hex"),
      state: validity.notYetValid ? "NOT_YET_ACTIVE" : "ACTIVE",
      roles: request.type === "CA" ? [] : ((entry as CertificateInput).roles ?? DEFAULT_ROLES),
      keyId: key.id,
      expiryDate: validity.validUntil,
      createdDate: now,
      lastModified: now,
    });
  }

  for (const [index, row] of rows.entries()) {
    const twin = rows
      .slice(0, index)
      .find(
        (other) =>
          other.fingerprint === row.fingerprint ||
          (other.name === row.name && other.expiryDate.getTime() === row.expiryDate.getTime()),
      );
    if (twin) {
      throw new CredkitError("BR_0408", `certificate "${row.name}" duplicates "${twin.name}" on the same identifier`);
    }
  }
  const existing = await storage.certificates.findOne({
    op: "and",
    conditions: [
      { op: "eq", column: "organisationId", value: request.organisationId },
      { op: "in", column: "fingerprint", values: rows.map((row) => row.fingerprint) },
      {
        op: "exists",
        table: "identifier",
        on: { id: "identifierId" },
        where: { op: "isNull", column: "deletedAt" },
      },
    ],
  });
  if (existing) {
    throw new CredkitError(
      "BR_0247",
      `the certificate "${existing.name}" is already on identifier ${existing.identifierId}`,
    );
  }
  return rows;
}
