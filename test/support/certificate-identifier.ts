import { createPublicKey, randomUUID } from "node:crypto";
import { type JWK, SignJWT } from "jose";
import type { ApiResponse } from "./http-harness.js";
import { createTestCertificate, createTestRootCa, type TestCertificate } from "./x509-fixture.js";

// CERTIFICATE identifiers for verifier tests: a P-256 key generated inside credkit, a leaf certificate for it issued by
// a test CA (root → intermediate → leaf), and the identifier created through POST /api/identifier/v1
// (`certificates: [{keyId, chain}]`).

type Api = (method: string, path: string, body?: unknown) => Promise<ApiResponse>;

/** DER prefix of a SubjectPublicKeyInfo holding a compressed P-256 point (RFC 5480) */
const P256_COMPRESSED_SPKI_PREFIX = Buffer.from("3039301306072a8648ce3d020106082a8648ce3d030107032200", "hex");

/** public JWK of a credkit ECDSA key (its `publicKey` is the compressed SEC1 point, base64url) */
export function ecdsaPublicJwk(publicKey: string): JWK {
  const spki = Buffer.concat([P256_COMPRESSED_SPKI_PREFIX, Buffer.from(publicKey, "base64url")]);
  return createPublicKey({ key: spki, format: "der", type: "spki" }).export({ format: "jwk" }) as JWK;
}

export interface TestPki {
  root: TestCertificate;
  intermediate: TestCertificate;
}

export async function createTestPki(name = "credkit test"): Promise<TestPki> {
  const root = await createTestRootCa(`${name} root`);
  const intermediate = await createTestCertificate(root, `${name} intermediate`, { ca: true });
  return { root, intermediate };
}

export interface CertificateIdentifier {
  identifierId: string;
  certificateId: string;
  keyId: string;
  publicJwk: JWK;
  leaf: TestCertificate;
}

/** An ECDSA key of the organisation → id and public JWK. */
export async function createEcdsaKey(api: Api, organisationId: string, name = "verifier certificate key") {
  const created = await api("POST", "/api/key/v1", {
    organisationId,
    keyType: "ECDSA",
    keyParams: {},
    name: `${name} ${randomUUID()}`,
    storageType: "INTERNAL",
    storageParams: {},
  });
  if (created.status !== 201) throw new Error(`key: HTTP ${created.status} ${created.text}`);
  const keyId = created.json.id as string;
  const detail = await api("GET", `/api/key/v1/${keyId}`);
  return { keyId, publicJwk: ecdsaPublicJwk(detail.json.publicKey as string) };
}

/**
 * A CERTIFICATE identifier whose certificate (issued by `pki.intermediate`, chain leaf → intermediate → root) certifies
 * a new credkit key; `dns` are the leaf's dNSName SANs.
 */
export async function createCertificateIdentifier(
  api: Api,
  organisationId: string,
  pki: TestPki,
  options: { dns?: string[]; name?: string; notAfter?: Date } = {},
): Promise<CertificateIdentifier> {
  const { keyId, publicJwk } = await createEcdsaKey(api, organisationId);
  const leaf = await createTestCertificate(pki.intermediate, options.name ?? "verifier", {
    dns: options.dns ?? [],
    publicJwk: publicJwk as JsonWebKey,
    ...(options.notAfter && { notAfter: options.notAfter }),
  });
  const chain = [leaf.pem, pki.intermediate.pem, pki.root.pem].join("\n");
  const name = `${options.name ?? "verifier"} certificate ${randomUUID()}`;
  const created = await api("POST", "/api/identifier/v1", { organisationId, name, certificates: [{ keyId, chain }] });
  if (created.status !== 201) throw new Error(`identifier: HTTP ${created.status} ${created.text}`);
  const identifierId = created.json.id as string;
  const detail = await api("GET", `/api/identifier/v1/${identifierId}`);
  const certificateId = detail.json.certificates?.[0]?.id as string;
  if (!certificateId) throw new Error(`identifier ${identifierId} shows no certificate: ${detail.text}`);
  return { identifierId, certificateId, keyId, publicJwk, leaf };
}

export interface AttestationOptions {
  /** the attestation issuer's certificate (signs) and the CA certificates sent after it in x5c */
  signer: TestCertificate;
  chain?: TestCertificate[];
  sub: string;
  cnfJwk: JWK;
  /** seconds since the epoch; default now + 1 h */
  exp?: number;
  iat?: number;
  iss?: string;
  redirectUris?: string[];
  typ?: string;
  /** more protected header parameters (e.g. `crit`) */
  header?: Record<string, unknown>;
}

/** A Verifier Attestation JWT (OpenID4VP 1.0 §12), ES256 with x5c, as an attestation issuer would mint it. */
export async function mintVerifierAttestation(options: AttestationOptions): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    cnf: { jwk: options.cnfJwk },
    ...(options.redirectUris !== undefined && { redirect_uris: options.redirectUris }),
  })
    .setProtectedHeader({
      alg: "ES256",
      typ: options.typ ?? "verifier-attestation+jwt",
      x5c: [options.signer, ...(options.chain ?? [])].map((certificate) => certificate.der),
      ...options.header,
    })
    .setIssuer(options.iss ?? "https://attestations.example")
    .setSubject(options.sub)
    .setIssuedAt(options.iat ?? now)
    .setExpirationTime(options.exp ?? now + 3600)
    .sign(options.signer.keys.privateKey, {
      crit: Object.fromEntries(
        (Array.isArray(options.header?.crit) ? (options.header.crit as string[]) : []).map((name) => [name, true]),
      ),
    });
}
