import "reflect-metadata";
import { execFileSync } from "node:child_process";
import { webcrypto, X509Certificate } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import * as x509 from "@peculiar/x509";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { KeyAlgorithmType } from "../../../src/domain/enums.js";
import { CredkitError } from "../../../src/errors/index.js";
import type { Signer } from "../../../src/ports/signer.js";
import { createKeyAlgorithms } from "../../../src/providers/key-algorithm/index.js";
import {
  certificateKeyUsage,
  certificatePublicJwk,
  createCertificationRequest,
  EKU_MDL_DOCUMENT_SIGNER,
  issueCertificate,
  parsePemChain,
  samePublicJwk,
  subjectCommonName,
  subjectPublicKeyInfoFromJwk,
  validateOwnChain,
  x509Attributes,
} from "../../../src/providers/x509/index.js";
import { createTempDir } from "../../support/temp-dir.js";
import { createTestCertificate, createTestRootCa } from "../../support/x509-fixture.js";

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

const algorithms = createKeyAlgorithms(["EDDSA", "ECDSA", "ML_DSA"]);

/** A key-storage-like signer over a freshly generated key of `type`. */
function testKey(type: KeyAlgorithmType) {
  const algorithm = algorithms.get(type)!;
  const pair = algorithm.generateKeyPair();
  const prepared = algorithm.preparePrivateKey(pair.privateKey);
  const signer: Signer = { alg: algorithm.jwsAlgorithm, sign: async (data) => algorithm.sign(prepared, data) };
  const jwk = algorithm.publicKeyToJwk(pair.publicKey);
  return { signer, jwk };
}

let hasOpenssl = true;
try {
  execFileSync("openssl", ["version"], { stdio: "ignore" });
} catch {
  hasOpenssl = false;
}

let dir: ReturnType<typeof createTempDir>;
beforeAll(() => {
  dir = createTempDir();
});
afterAll(() => dir?.remove());

/** runs openssl on `input` written to a file (passed with -in, or last when `positional`) */
function openssl(args: string[], input: string, positional = false): string {
  const file = join(dir.path, `in-${Math.random().toString(36).slice(2)}.pem`);
  writeFileSync(file, input);
  return execFileSync("openssl", [...args, ...(positional ? [file] : ["-in", file])], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
}

const HOUR = 3600_000;

describe.each(["ECDSA", "EDDSA"] as const)("%s keys", (type) => {
  it("issue a self-signed CA and a leaf under it that node, @peculiar/x509 and openssl accept", async () => {
    const ca = testKey(type);
    const subject = testKey(type === "ECDSA" ? "EDDSA" : "ECDSA");
    const now = new Date();
    const root = await issueCertificate(
      {
        subject: { commonName: "credkit CA", countryName: "CH", organisationName: "Acme AG" },
        subjectPublicKeyInfo: subjectPublicKeyInfoFromJwk(ca.jwk),
        notBefore: now,
        notAfter: new Date(now.getTime() + 365 * 24 * HOUR),
        extensions: {
          ca: true,
          keyUsage: ["keyCertSign", "crlSign"],
          issuerAlternativeName: { type: "URI", name: "https://ca.example" },
        },
      },
      ca.signer,
    );
    expect(root.ca).toBe(true);
    expect(root.verify(root.publicKey)).toBe(true);
    expect(root.subject).toBe(root.issuer);
    expect(samePublicJwk(certificatePublicJwk(root), ca.jwk)).toBe(true);
    expect(certificateKeyUsage(root)).toEqual(["keyCertSign", "crlSign"]);

    const leaf = await issueCertificate(
      {
        subject: { commonName: "issuer.example", countryName: "CH" },
        subjectPublicKeyInfo: subjectPublicKeyInfoFromJwk(subject.jwk),
        notBefore: now,
        notAfter: new Date(now.getTime() + 30 * 24 * HOUR),
        extensions: { ca: false, keyUsage: ["digitalSignature"], extendedKeyUsage: [EKU_MDL_DOCUMENT_SIGNER] },
      },
      ca.signer,
      root,
    );
    expect(leaf.ca).toBe(false);
    expect(leaf.checkIssued(root)).toBe(true);
    expect(leaf.verify(root.publicKey)).toBe(true);
    expect(subjectCommonName(leaf)).toBe("issuer.example");

    const peculiarLeaf = new x509.X509Certificate(leaf.raw);
    expect(await peculiarLeaf.verify({ publicKey: new x509.X509Certificate(root.raw).publicKey })).toBe(true);

    const attributes = x509Attributes(leaf);
    expect(attributes.subject).toBe("CN=issuer.example, C=CH");
    expect(attributes.issuer).toBe("CN=credkit CA, C=CH, O=Acme AG");
    expect(attributes.serialNumber).toMatch(/^[0-9a-f]{2}(:[0-9a-f]{2}){15}$/);
    expect(attributes.fingerprint).toBe(leaf.fingerprint256.replace(/:/g, "").toLowerCase());
    expect(attributes.extensions).toEqual([
      { oid: "2.5.29.19", value: "Certificate Authority: false", critical: true },
      { oid: "2.5.29.15", value: "digitalSignature", critical: true },
      { oid: "2.5.29.37", value: EKU_MDL_DOCUMENT_SIGNER, critical: true },
      { oid: "2.5.29.14", value: expect.stringMatching(/^Key ID: [0-9a-f]{2}(:[0-9a-f]{2}){19}$/), critical: false },
      { oid: "2.5.29.35", value: expect.stringMatching(/^Key ID: /), critical: false },
    ]);
    expect(x509Attributes(root).extensions.find((e) => e.oid === "2.5.29.18")?.value).toBe("URI(https://ca.example)");

    const chain = parsePemChain(`${leaf.toString()}${root.toString()}`);
    expect(validateOwnChain(chain, { now, leeway: 60, leaf: "END_ENTITY" }).notYetValid).toBe(false);
    expect(validateOwnChain([root], { now, leeway: 60, leaf: "CA" }).validUntil).toEqual(new Date(root.validTo));

    if (hasOpenssl) {
      const text = openssl(["x509", "-noout", "-text"], leaf.toString());
      expect(text).toContain("Subject: CN = issuer.example, C = CH");
      const rootFile = join(dir.path, `root-${type}.pem`);
      writeFileSync(rootFile, root.toString());
      expect(openssl(["verify", "-CAfile", rootFile], leaf.toString(), true).trim()).toMatch(/OK$/);
    }
  });

  it("make a PKCS#10 request whose signature verifies", async () => {
    const key = testKey(type);
    const pem = await createCertificationRequest(
      {
        subject: { commonName: "mdl.example", countryName: "CH", serialNumber: "CHE-123" },
        subjectPublicKeyInfo: subjectPublicKeyInfoFromJwk(key.jwk),
        extensions: { keyUsage: ["digitalSignature"], extendedKeyUsage: [EKU_MDL_DOCUMENT_SIGNER] },
      },
      key.signer,
    );
    expect(pem).toMatch(/^-----BEGIN CERTIFICATE REQUEST-----\n/);
    const csr = new x509.Pkcs10CertificateRequest(pem);
    expect(await csr.verify()).toBe(true);
    expect(csr.subject).toBe("CN=mdl.example, C=CH, 2.5.4.5=CHE-123");
    expect(csr.extensions.map((extension) => extension.type)).toEqual(["2.5.29.15", "2.5.29.37"]);
    const [keyUsage, extendedKeyUsage] = csr.extensions;
    expect((extendedKeyUsage as x509.ExtendedKeyUsageExtension).usages).toEqual([EKU_MDL_DOCUMENT_SIGNER]);
    expect((keyUsage as x509.KeyUsagesExtension).usages).toBe(x509.KeyUsageFlags.digitalSignature);
    if (hasOpenssl) expect(openssl(["req", "-verify", "-noout"], pem)).toBe("");
  });
});

it("refuses keys X.509 cannot carry here (ML-DSA)", async () => {
  const key = testKey("ML_DSA");
  expect(() => subjectPublicKeyInfoFromJwk(key.jwk)).toThrowError(CredkitError);
  await expect(
    createCertificationRequest(
      { subject: { commonName: "x" }, subjectPublicKeyInfo: subjectPublicKeyInfoFromJwk(testKey("ECDSA").jwk) },
      key.signer,
    ),
  ).rejects.toMatchObject({ code: "BR_0043" });
});

describe("validateOwnChain", () => {
  const options = { now: new Date(), leeway: 60, leaf: "END_ENTITY" as const };

  it("refuses expired chains, broken signatures, non-CA issuers and wrong key usage", async () => {
    const root = await createTestRootCa("root");
    const other = await createTestRootCa("other");
    const leaf = await createTestCertificate(root, "leaf");
    const chain = (...pems: string[]) => pems.map((pem) => new X509Certificate(pem));

    expect(validateOwnChain(chain(leaf.pem, root.pem), options).notYetValid).toBe(false);
    const expired = await createTestCertificate(root, "old", {
      notBefore: new Date(Date.now() - 10 * 24 * HOUR),
      notAfter: new Date(Date.now() - 24 * HOUR),
    });
    expect(() => validateOwnChain(chain(expired.pem, root.pem), options)).toThrow(
      expect.objectContaining({ code: "BR_0213" }),
    );
    const future = await createTestCertificate(root, "future", {
      notBefore: new Date(Date.now() + 24 * HOUR),
      notAfter: new Date(Date.now() + 48 * HOUR),
    });
    const pending = validateOwnChain(chain(future.pem, root.pem), options);
    expect(pending.notYetValid).toBe(true);
    expect(pending.validFrom).toEqual(new Date(new X509Certificate(future.pem).validFrom));
    expect(() => validateOwnChain(chain(leaf.pem, other.pem), options)).toThrow(
      expect.objectContaining({ code: "BR_0211" }),
    );
    const notCa = await createTestCertificate(root, "not a ca");
    const underLeaf = await createTestCertificate(notCa, "under a leaf");
    expect(() => validateOwnChain(chain(underLeaf.pem, notCa.pem), options)).toThrow(
      expect.objectContaining({ code: "BR_0244" }),
    );
    // a CA certificate (keyCertSign only) presented as the leaf of an end-entity identifier
    const intermediate = await createTestCertificate(root, "intermediate", { ca: true });
    expect(() => validateOwnChain(chain(intermediate.pem, root.pem), options)).toThrow(
      expect.objectContaining({ code: "BR_0249" }),
    );
    // an end-entity certificate presented as a CA
    expect(() => validateOwnChain(chain(leaf.pem, root.pem), { ...options, leaf: "CA" })).toThrow(
      expect.objectContaining({ code: "BR_0249" }),
    );
    // a CA chain must end in a self-signed root
    expect(() => validateOwnChain(chain(intermediate.pem), { ...options, leaf: "CA" })).toThrow(
      expect.objectContaining({ code: "BR_0244" }),
    );
    expect(validateOwnChain(chain(intermediate.pem, root.pem), { ...options, leaf: "CA" }).notYetValid).toBe(false);
  });

  it("refuses unknown critical extensions (BR_0248) and exceeded path lengths (BR_0250)", async () => {
    const ES256 = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" } as const;
    const generate = async () =>
      (await webcrypto.subtle.generateKey(ES256, true, ["sign", "verify"])) as unknown as CryptoKeyPair;
    const rootKeys = await generate();
    const root = await x509.X509CertificateGenerator.createSelfSigned({
      serialNumber: "0a",
      name: "CN=path length 0",
      notBefore: new Date(Date.now() - HOUR),
      notAfter: new Date(Date.now() + 24 * HOUR),
      signingAlgorithm: ES256,
      keys: rootKeys,
      extensions: [
        new x509.BasicConstraintsExtension(true, 0, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign, true),
      ],
    });
    const issue = async (issuer: x509.X509Certificate, signingKey: CryptoKey, cn: string, ca: boolean) => {
      const keys = await generate();
      const certificate = await x509.X509CertificateGenerator.create({
        serialNumber: "0b",
        subject: `CN=${cn}`,
        issuer: issuer.subject,
        notBefore: new Date(Date.now() - HOUR),
        notAfter: new Date(Date.now() + 24 * HOUR),
        signingAlgorithm: ES256,
        publicKey: keys.publicKey,
        signingKey,
        extensions: [
          new x509.BasicConstraintsExtension(ca, undefined, true),
          new x509.KeyUsagesExtension(ca ? x509.KeyUsageFlags.keyCertSign : x509.KeyUsageFlags.digitalSignature, true),
          ...(ca ? [] : [new x509.Extension("1.3.6.1.4.1.99999.1", true, new Uint8Array([5, 0]))]),
        ],
      });
      return { certificate, keys };
    };
    const intermediate = await issue(root, rootKeys.privateKey, "intermediate", true);
    const leaf = await issue(intermediate.certificate, intermediate.keys.privateKey, "leaf", false);
    const node = (certificate: x509.X509Certificate) => new X509Certificate(Buffer.from(certificate.rawData));
    const options = { now: new Date(), leeway: 60, leaf: "END_ENTITY" as const };
    expect(() => validateOwnChain([node(leaf.certificate)], options)).toThrow(
      expect.objectContaining({ code: "BR_0248" }),
    );
    // the root allows no CA below it (One Core counts the chain's own CA certificate too)
    expect(() =>
      validateOwnChain([node(intermediate.certificate), node(root)], {
        ...options,
        leaf: "CA",
      }),
    ).toThrow(expect.objectContaining({ code: "BR_0250" }));
  });
});
