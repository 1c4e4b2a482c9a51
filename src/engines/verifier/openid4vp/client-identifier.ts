import type { Identifier } from "../../../domain/identifier.js";
import { CredkitError } from "../../../errors/credkit-error.js";
import type { PublicJwk } from "../../../ports/key-algorithm.js";
import type { Signer } from "../../../ports/signer.js";
import type { StorageRepositories } from "../../../ports/storage.js";
import { signCompactJws } from "../../../providers/jose/sign-compact-jws.js";
import { computeJwkThumbprint } from "../../../providers/key-algorithm/jwk-thumbprint.js";
import { certificateHash, subjectAltNames } from "../../../providers/x509/index.js";
import { resolveCertificateSigning } from "../../common/certificate-signing.js";
import type { EngineDeps } from "../../common/engine-deps.js";
import { resolveIssuerSigning } from "../../issuer/issuer-signing.js";
import { readIdentifierTrustInformation } from "../../management/identifier-trust-information.js";

// The verifier side of the certificate- and attestation-based Client Identifier Prefixes of OpenID4VP 1.0 §5.9.3:
// which client_id a request gets at share time, and how its request object is signed.
//
// - `x509_san_dns:<dNSName SAN of the leaf>` and `x509_hash:<base64url SHA-256 of the leaf DER>`: the verifier is a
//   CERTIFICATE identifier; the request object is signed with the certified key, the chain in the `x5c` header.
// - `verifier_attestation:<sub>`: the verifier identifier carries a Verifier Attestation JWT (§12) in its
//   trustInformation (credkit entry type `VERIFIER_ATTESTATION`, `{type, data: <jwt>}`) whose `cnf.jwk` is the
//   identifier's signing key; the request object is signed with that key and carries the attestation in its `jwt`
//   header.

export const CERTIFICATE_PREFIXES = ["x509_san_dns", "x509_hash"] as const;
export type CertificatePrefix = (typeof CERTIFICATE_PREFIXES)[number];

/** `typ` of a Verifier Attestation JWT (OpenID4VP 1.0 §12). */
const VERIFIER_ATTESTATION_TYP = "verifier-attestation+jwt";
/** the credkit trustInformation entry type holding a Verifier Attestation JWT */
export const VERIFIER_ATTESTATION_ENTRY = "VERIFIER_ATTESTATION";

/** What share settles for the certificate / attestation prefixes, kept in the interaction for the request object. */
export interface ClientIdentity {
  clientId: string;
  /** x509_* (and verifier_attestation of a CERTIFICATE identifier): the certificate the request is signed with */
  verifierCertificateId?: string;
  /** verifier_attestation: the Verifier Attestation JWT sent in the request object's `jwt` header */
  verifierAttestation?: string;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The Verifier Attestation JWT of an identifier: the `data` of its trustInformation entry of type VERIFIER_ATTESTATION
 * (read by the identifier engine's reader, which skips malformed stored entries).
 */
export function verifierAttestationOf(identifier: Identifier): string | undefined {
  return readIdentifierTrustInformation(identifier).find((entry) => entry.type === VERIFIER_ATTESTATION_ENTRY)?.data;
}

function requireInput(condition: unknown, detail: string): asserts condition {
  if (!condition) throw new CredkitError("BR_0084", detail);
}

/** The key a verifier identifier signs request objects with (DID assertion key, KEY key, certificate key). */
async function keySigning(
  deps: Pick<EngineDeps, "providers" | "clock">,
  storage: StorageRepositories,
  identifier: Identifier,
  certificateId: string | undefined,
): Promise<{ signer: Signer; jwk: PublicJwk; certificateId?: string }> {
  if (identifier.type === "CERTIFICATE") {
    const signing = await resolveCertificateSigning(deps, storage, identifier, certificateId);
    return { signer: signing.signer, jwk: signing.jwk, certificateId: signing.certificate.id };
  }
  const signing = await resolveIssuerSigning(deps, storage, identifier, { keyIssuerUrl: "" });
  return { signer: signing.signer, jwk: signing.jwk };
}

function decodeAttestation(jwt: string): { header: Record<string, unknown>; payload: Record<string, unknown> } {
  const parts = jwt.split(".");
  const decode = (part: string | undefined) => {
    try {
      const value: unknown = JSON.parse(Buffer.from(part ?? "", "base64url").toString("utf8"));
      return isObject(value) ? value : undefined;
    } catch {
      return undefined;
    }
  };
  const header = decode(parts[0]);
  const payload = decode(parts[1]);
  requireInput(
    parts.length === 3 && header && payload,
    "the verifier identifier's Verifier Attestation is not a compact JWT",
  );
  return { header, payload };
}

/**
 * The client identity of a request for an x509 or attestation prefix (OpenID4VP 1.0 §5.9.3), validated so that a
 * conformant wallet can accept it: BR_0084 when the verifier identifier cannot act under the prefix (no certificate,
 * no dNSName SAN, no attestation, an attestation for another key, expired, or restricted to other redirect URIs);
 * certificate problems keep their codes (BR_0242, BR_0213, BR_0330, …).
 */
export async function resolveClientIdentity(
  deps: Pick<EngineDeps, "providers" | "clock">,
  storage: StorageRepositories,
  input: {
    prefix: CertificatePrefix | "verifier_attestation";
    verifier: Identifier | undefined;
    certificateId: string | undefined;
    responseUri: string;
  },
): Promise<ClientIdentity> {
  const { prefix, verifier } = input;
  if (prefix === "verifier_attestation") {
    requireInput(
      verifier,
      "the verifier_attestation prefix needs a verifier identifier carrying a Verifier Attestation",
    );
    const attestation = verifierAttestationOf(verifier);
    requireInput(
      attestation,
      `verifier identifier ${verifier.id} carries no Verifier Attestation JWT (trustInformation entry {type: "${VERIFIER_ATTESTATION_ENTRY}", data: <jwt>})`,
    );
    const { header, payload } = decodeAttestation(attestation);
    requireInput(
      header.typ === VERIFIER_ATTESTATION_TYP,
      `the Verifier Attestation typ must be ${VERIFIER_ATTESTATION_TYP} (OpenID4VP 1.0 §12), got ${JSON.stringify(header.typ ?? null)}`,
    );
    requireInput(
      typeof payload.sub === "string" && payload.sub !== "",
      "the Verifier Attestation has no sub: the client identifier it attests",
    );
    requireInput(typeof payload.exp === "number", "the Verifier Attestation has no exp claim");
    const now = deps.clock.now().getTime();
    requireInput(
      payload.exp * 1000 > now,
      `the Verifier Attestation expired at ${new Date(payload.exp * 1000).toISOString()}`,
    );
    const cnf = payload.cnf;
    requireInput(isObject(cnf) && isObject(cnf.jwk), "the Verifier Attestation has no cnf.jwk");
    const signing = await keySigning(deps, storage, verifier, input.certificateId);
    let bound: string | undefined;
    try {
      bound = computeJwkThumbprint(cnf.jwk as PublicJwk);
    } catch {
      bound = undefined;
    }
    requireInput(
      bound === computeJwkThumbprint(signing.jwk),
      `the Verifier Attestation's cnf.jwk is not the signing key of verifier identifier ${verifier.id}`,
    );
    if (payload.redirect_uris !== undefined) {
      requireInput(
        Array.isArray(payload.redirect_uris) && payload.redirect_uris.includes(input.responseUri),
        `the Verifier Attestation's redirect_uris do not include this verifier's response URI ${input.responseUri}`,
      );
    }
    return {
      clientId: `verifier_attestation:${payload.sub}`,
      verifierAttestation: attestation,
      ...(signing.certificateId !== undefined && { verifierCertificateId: signing.certificateId }),
    };
  }

  requireInput(
    verifier?.type === "CERTIFICATE",
    `the ${prefix} prefix needs a CERTIFICATE verifier identifier (or verifierCertificate)`,
  );
  const signing = await resolveCertificateSigning(deps, storage, verifier, input.certificateId);
  if (prefix === "x509_hash") {
    return {
      clientId: `x509_hash:${certificateHash(signing.leaf)}`,
      verifierCertificateId: signing.certificate.id,
    };
  }
  const names = subjectAltNames(signing.leaf, "DNS");
  requireInput(
    names.length > 0,
    `certificate ${signing.certificate.id} has no dNSName subject alternative name for the x509_san_dns prefix`,
  );
  // §5.9.3: wallets that do not otherwise trust the client identifier require the response URI's host to be it
  const host = new URL(input.responseUri).hostname.toLowerCase();
  const name = names.find((candidate) => candidate.toLowerCase() === host) ?? names[0]!;
  return { clientId: `x509_san_dns:${name}`, verifierCertificateId: signing.certificate.id };
}

/**
 * Signs the request object of an x509 / attestation request (RFC 9101, `typ` oauth-authz-req+jwt): x509_* with the
 * certificate's key and `x5c` (chain without its self-signed root); verifier_attestation with the attested key and
 * the attestation in the `jwt` header (OpenID4VP 1.0 §12).
 */
export async function signClientRequestObject(
  deps: Pick<EngineDeps, "providers" | "clock">,
  storage: StorageRepositories,
  verifier: Identifier,
  identity: ClientIdentity,
  payload: Record<string, unknown>,
): Promise<string> {
  if (identity.verifierAttestation !== undefined) {
    const signing = await keySigning(deps, storage, verifier, identity.verifierCertificateId);
    return signCompactJws({ typ: "oauth-authz-req+jwt", jwt: identity.verifierAttestation }, payload, signing.signer);
  }
  const signing = await resolveCertificateSigning(deps, storage, verifier, identity.verifierCertificateId);
  return signCompactJws({ typ: "oauth-authz-req+jwt", x5c: signing.x5c }, payload, signing.signer);
}
