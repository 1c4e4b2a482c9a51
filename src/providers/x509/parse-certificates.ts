import { X509Certificate } from "node:crypto";
import { CredkitError } from "../../errors/credkit-error.js";

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g;

/** Parses a PEM bundle (leaf first, as the API takes chains) into certificates; BR_0224 when it is not one. */
export function parsePemChain(pem: string): X509Certificate[] {
  const blocks = [...pem.matchAll(PEM_BLOCK)];
  if (blocks.length === 0) throw new CredkitError("BR_0224", "no PEM certificate (-----BEGIN CERTIFICATE-----) found");
  const rest = pem.replace(PEM_BLOCK, "").trim();
  if (rest !== "") throw new CredkitError("BR_0224", "the chain holds text outside its PEM certificate blocks");
  return blocks.map((block, index) => parseDer(Buffer.from((block[1] ?? "").replace(/\s+/g, ""), "base64"), index));
}

/** Longest `x5c` accepted: real chains hold 2–4 certificates; each one costs a parse and a signature check. */
export const MAX_X5C_CERTIFICATES = 10;

/** Parses an `x5c` header (RFC 7515 §4.1.6: base64, not base64url, DER, leaf first); BR_0224 on anything else. */
export function parseX5c(x5c: unknown): X509Certificate[] {
  if (!Array.isArray(x5c) || x5c.length === 0) throw new CredkitError("BR_0224", "x5c must be a non-empty array");
  if (x5c.length > MAX_X5C_CERTIFICATES) {
    throw new CredkitError(
      "BR_0224",
      `x5c holds ${x5c.length} certificates; at most ${MAX_X5C_CERTIFICATES} are accepted`,
    );
  }
  return x5c.map((entry, index) => {
    if (typeof entry !== "string" || !/^[A-Za-z0-9+/]+={0,2}$/.test(entry)) {
      throw new CredkitError("BR_0224", `x5c[${index}] is not base64 DER`);
    }
    return parseDer(Buffer.from(entry, "base64"), index);
  });
}

/**
 * Parsed certificates by their DER (base64). node:crypto's X509Certificate constructor costs ~0.3 ms — more than
 * verifying a signature — while a wallet or a signing identifier sees the same few chains again and again. The objects
 * are immutable and keyed by their exact bytes, so sharing them is safe; least recently used entries are dropped.
 */
const PARSED = new Map<string, X509Certificate>();
const PARSED_LIMIT = 512;

function parseDer(der: Buffer, index: number): X509Certificate {
  const key = der.toString("base64");
  const cached = PARSED.get(key);
  if (cached) {
    PARSED.delete(key);
    PARSED.set(key, cached);
    return cached;
  }
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(der);
  } catch (error) {
    throw new CredkitError("BR_0224", `certificate ${index} is not a valid X.509 certificate`, { cause: error });
  }
  PARSED.set(key, certificate);
  if (PARSED.size > PARSED_LIMIT) PARSED.delete(PARSED.keys().next().value as string);
  return certificate;
}

/** PEM text of certificates, leaf first (the stored form of a chain). */
export function toPemChain(certificates: readonly X509Certificate[]): string {
  return certificates.map((certificate) => certificate.toString().trim()).join("\n");
}

/** `x5c` header value of a chain. */
export function toX5c(certificates: readonly X509Certificate[]): string[] {
  return certificates.map((certificate) => certificate.raw.toString("base64"));
}

/** Subject alternative names of one kind (`DNS`, `URI`, `IP Address`, `email`). */
export function subjectAltNames(certificate: X509Certificate, kind: "DNS" | "URI" | "IP Address" | "email"): string[] {
  const text = certificate.subjectAltName;
  if (!text) return [];
  const names: string[] = [];
  // Node renders entries as `KIND:value` joined by ", "; values with special characters come JSON-quoted
  for (const match of text.matchAll(/([A-Za-z ]+):("(?:[^"\\]|\\.)*"|[^,]*)(?:, |$)/g)) {
    if (match[1] !== kind) continue;
    const raw = match[2] ?? "";
    names.push(raw.startsWith('"') ? (JSON.parse(raw) as string) : raw);
  }
  return names;
}

/** SHA-256 of the DER certificate, base64url: the `x509_hash` client identifier (OpenID4VP 1.0 §5.9.3). */
export function certificateHash(certificate: X509Certificate): string {
  return Buffer.from(certificate.fingerprint256.replace(/:/g, ""), "hex").toString("base64url");
}

/**
 * A DNS name as a dNSName SAN holds it (RFC 1035 labels, RFC 5280 §4.2.1.6): letters, digits and hyphens, no wildcard,
 * no trailing dot, internationalised names in their `xn--` form.
 */
export const DNS_NAME = /^(?=.{1,253}$)(?!-)[a-z0-9-]{1,63}(?<!-)(?:\.(?!-)[a-z0-9-]{1,63}(?<!-))*$/i;
