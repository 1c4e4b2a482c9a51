import { createHash, X509Certificate } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import {
  certificateHash,
  parsePemChain,
  parseX5c,
  subjectAltNames,
  toPemChain,
  toX5c,
  validateCertificateChain,
} from "../../../src/providers/x509/index.js";
import { createTestCertificate, createTestRootCa, type TestCertificate } from "../../support/x509-fixture.js";

let root: TestCertificate;
let intermediate: TestCertificate;
let leaf: TestCertificate;
let otherRoot: TestCertificate;

beforeAll(async () => {
  root = await createTestRootCa();
  intermediate = await createTestCertificate(root, "intermediate", { ca: true });
  leaf = await createTestCertificate(intermediate, "verifier", {
    dns: ["verifier.example", "127.0.0.1.nip.io"],
    uris: ["https://verifier.example/a,b"],
  });
  otherRoot = await createTestRootCa("other root");
});

const now = () => new Date();
const anchors = () => [new X509Certificate(root.pem)];

describe("parsing", () => {
  it("reads a PEM bundle leaf first and answers it back", () => {
    const chain = parsePemChain(`${leaf.pem}\n${intermediate.pem}`);
    expect(chain).toHaveLength(2);
    expect(chain[0]!.subject).toContain("CN=verifier");
    expect(parsePemChain(toPemChain(chain)).map((c) => c.fingerprint256)).toEqual(chain.map((c) => c.fingerprint256));
    expect(parseX5c(toX5c(chain))[1]!.subject).toContain("CN=intermediate");
  });

  it("refuses what is not a certificate with BR_0224", () => {
    expect(() => parsePemChain("hello")).toThrowError(expect.objectContaining({ code: "BR_0224" }));
    expect(() => parsePemChain("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----")).toThrowError(
      expect.objectContaining({ code: "BR_0224" }),
    );
    expect(() => parsePemChain(`${leaf.pem}\ntrailing`)).toThrowError(expect.objectContaining({ code: "BR_0224" }));
    expect(() => parseX5c([])).toThrowError(expect.objectContaining({ code: "BR_0224" }));
    expect(() => parseX5c(["not_base64!"])).toThrowError(expect.objectContaining({ code: "BR_0224" }));
  });

  it("lists subject alternative names and the x509_hash value", () => {
    const [certificate] = parsePemChain(leaf.pem);
    expect(subjectAltNames(certificate!, "DNS")).toEqual(["verifier.example", "127.0.0.1.nip.io"]);
    expect(subjectAltNames(certificate!, "URI")).toEqual(["https://verifier.example/a,b"]);
    expect(certificateHash(certificate!)).toBe(createHash("sha256").update(certificate!.raw).digest("base64url"));
  });
});

describe("validateCertificateChain", () => {
  it("trusts a chain issued by an anchor, and one that contains it", () => {
    const chain = parsePemChain(`${leaf.pem}\n${intermediate.pem}`);
    const result = validateCertificateChain(chain, { now: now(), leeway: 0, trustAnchors: anchors() });
    expect(result.trusted).toBe(true);
    expect(result.leaf.subject).toContain("verifier");
    const withRoot = parsePemChain(`${leaf.pem}\n${intermediate.pem}\n${root.pem}`);
    expect(validateCertificateChain(withRoot, { now: now(), leeway: 0, trustAnchors: anchors() }).trusted).toBe(true);
  });

  it("answers untrusted for a sound chain under another root", () => {
    const chain = parsePemChain(`${leaf.pem}\n${intermediate.pem}`);
    const result = validateCertificateChain(chain, {
      now: now(),
      leeway: 0,
      trustAnchors: [new X509Certificate(otherRoot.pem)],
    });
    expect(result.trusted).toBe(false);
  });

  it("refuses broken links, non-CA issuers and certificates out of their validity period", async () => {
    expect(() =>
      validateCertificateChain(parsePemChain(`${leaf.pem}\n${otherRoot.pem}`), {
        now: now(),
        leeway: 0,
        trustAnchors: anchors(),
      }),
    ).toThrowError(expect.objectContaining({ code: "BR_0211" }));
    const underLeaf = await createTestCertificate(leaf, "under a leaf");
    expect(() =>
      validateCertificateChain(parsePemChain(`${underLeaf.pem}\n${leaf.pem}`), {
        now: now(),
        leeway: 0,
        trustAnchors: anchors(),
      }),
    ).toThrowError(expect.objectContaining({ code: "BR_0244" }));
    const expired = await createTestCertificate(root, "expired", {
      notBefore: new Date(Date.now() - 10 * 86400_000),
      notAfter: new Date(Date.now() - 86400_000),
    });
    expect(() =>
      validateCertificateChain(parsePemChain(expired.pem), { now: now(), leeway: 60, trustAnchors: anchors() }),
    ).toThrowError(expect.objectContaining({ code: "BR_0213" }));
    const future = await createTestCertificate(root, "future", {
      notBefore: new Date(Date.now() + 86400_000),
      notAfter: new Date(Date.now() + 2 * 86400_000),
    });
    expect(() =>
      validateCertificateChain(parsePemChain(future.pem), { now: now(), leeway: 60, trustAnchors: anchors() }),
    ).toThrowError(expect.objectContaining({ code: "BR_0359" }));
  });

  it("refuses a leaf whose keyUsage does not allow digitalSignature (a keyCertSign-only certificate signing requests)", async () => {
    const certSignOnly = await createTestCertificate(intermediate, "cert-sign only", {
      keyUsage: 32, // @peculiar/x509 KeyUsageFlags.keyCertSign
    });
    expect(() =>
      validateCertificateChain(parsePemChain(`${certSignOnly.pem}\n${intermediate.pem}`), {
        now: now(),
        leeway: 0,
        trustAnchors: anchors(),
      }),
    ).toThrowError(expect.objectContaining({ code: "BR_0249" }));
  });

  it("enforces pathLenConstraint, also of an anchor that is not sent", async () => {
    const limited = await createTestCertificate(root, "limited intermediate", { ca: true, pathLength: 0 });
    const sub = await createTestCertificate(limited, "sub CA", { ca: true });
    const below = await createTestCertificate(sub, "leaf below the limit", {});
    // limited (pathLen 0) may issue the leaf directly ...
    const direct = await createTestCertificate(limited, "direct leaf", {});
    expect(
      validateCertificateChain(parsePemChain(`${direct.pem}\n${limited.pem}`), {
        now: now(),
        leeway: 0,
        trustAnchors: anchors(),
      }).trusted,
    ).toBe(true);
    // ... but not a CA below it
    expect(() =>
      validateCertificateChain(parsePemChain(`${below.pem}\n${sub.pem}\n${limited.pem}`), {
        now: now(),
        leeway: 0,
        trustAnchors: anchors(),
      }),
    ).toThrowError(expect.objectContaining({ code: "BR_0250" }));
    // the same when the limited CA is the (unsent) trust anchor
    expect(() =>
      validateCertificateChain(parsePemChain(`${below.pem}\n${sub.pem}`), {
        now: now(),
        leeway: 0,
        trustAnchors: [new X509Certificate(limited.pem)],
      }),
    ).toThrowError(
      expect.objectContaining({
        code: "BR_0250",
        detail: expect.stringContaining("the trust anchor has pathLenConstraint 0"),
      }),
    );
  });

  it("refuses an x5c longer than 10 certificates before parsing it (BR_0224)", () => {
    expect(() => parseX5c(Array.from({ length: 11 }, () => leaf.der))).toThrowError(
      expect.objectContaining({ code: "BR_0224" }),
    );
    expect(parseX5c(Array.from({ length: 10 }, () => leaf.der))).toHaveLength(10);
  });
});
