import "reflect-metadata";
import { webcrypto } from "node:crypto";
import * as x509 from "@peculiar/x509";

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

const ES256 = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" } as const;

export interface TestCertificate {
  certificate: x509.X509Certificate;
  pem: string;
  /** base64 DER, for x5c */
  der: string;
  keys: CryptoKeyPair;
  /** the private key as JWK (to import into a key storage) */
  privateJwk: JsonWebKey;
}

let serial = 1;

async function finish(certificate: x509.X509Certificate, keys: CryptoKeyPair): Promise<TestCertificate> {
  return {
    certificate,
    pem: certificate.toString("pem"),
    der: Buffer.from(certificate.rawData).toString("base64"),
    keys,
    privateJwk: keys.privateKey ? await webcrypto.subtle.exportKey("jwk", keys.privateKey as webcrypto.CryptoKey) : {},
  };
}

export interface TestCertificateOptions {
  notBefore?: Date;
  notAfter?: Date;
  /** subjectAltName entries */
  dns?: string[];
  uris?: string[];
}

/** A self-signed P-256 root CA (basicConstraints cA, keyCertSign). */
export async function createTestRootCa(name = "credkit test root", options: TestCertificateOptions = {}) {
  const keys = (await webcrypto.subtle.generateKey(ES256, true, ["sign", "verify"])) as unknown as CryptoKeyPair;
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: (serial++).toString(16).padStart(2, "0"),
    name: `CN=${name}`,
    notBefore: options.notBefore ?? new Date(Date.now() - 3600_000),
    notAfter: options.notAfter ?? new Date(Date.now() + 365 * 86400_000),
    signingAlgorithm: ES256,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return finish(certificate, keys);
}

/** A certificate issued by `issuer`; a leaf (digitalSignature) unless `ca` is set. */
export async function createTestCertificate(
  issuer: TestCertificate,
  subject: string,
  options: TestCertificateOptions & {
    ca?: boolean;
    publicJwk?: JsonWebKey;
    /** x509.KeyUsageFlags of the keyUsage extension (default: keyCertSign for a CA, else digitalSignature) */
    keyUsage?: number;
    /** basicConstraints pathLenConstraint of a CA */
    pathLength?: number;
  } = {},
): Promise<TestCertificate> {
  // with publicJwk (e.g. a key generated inside credkit) the certificate is for that key and `keys` holds only it
  const keys = options.publicJwk
    ? ({
        publicKey: await webcrypto.subtle.importKey("jwk", options.publicJwk as webcrypto.JsonWebKey, ES256, true, [
          "verify",
        ]),
      } as unknown as CryptoKeyPair)
    : ((await webcrypto.subtle.generateKey(ES256, true, ["sign", "verify"])) as unknown as CryptoKeyPair);
  const names = [
    ...(options.dns ?? []).map((value) => ({ type: "dns" as const, value })),
    ...(options.uris ?? []).map((value) => ({ type: "url" as const, value })),
  ];
  const certificate = await x509.X509CertificateGenerator.create({
    serialNumber: (serial++).toString(16).padStart(2, "0"),
    subject: `CN=${subject}`,
    issuer: issuer.certificate.subject,
    notBefore: options.notBefore ?? new Date(Date.now() - 3600_000),
    notAfter: options.notAfter ?? new Date(Date.now() + 30 * 86400_000),
    signingAlgorithm: ES256,
    publicKey: keys.publicKey,
    signingKey: issuer.keys.privateKey,
    extensions: [
      new x509.BasicConstraintsExtension(options.ca ?? false, options.pathLength, true),
      new x509.KeyUsagesExtension(
        options.keyUsage ?? (options.ca ? x509.KeyUsageFlags.keyCertSign : x509.KeyUsageFlags.digitalSignature),
        true,
      ),
      ...(names.length > 0 ? [new x509.SubjectAlternativeNameExtension(names)] : []),
      await x509.AuthorityKeyIdentifierExtension.create(issuer.keys.publicKey),
    ],
  });
  return finish(certificate, keys);
}
