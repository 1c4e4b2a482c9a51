import { CompactSign, calculateJwkThumbprint, compactVerify, importJWK } from "jose";
import { describe, expect, it } from "vitest";
import type { KeyAlgorithmType } from "../../src/domain/enums.js";
import { decodeBase64url, encodeBase64url } from "../../src/encoding/base64url.js";
import { CredkitError } from "../../src/errors/index.js";
import type { KeyAlgorithm, PrivateJwk, PublicJwk } from "../../src/ports/key-algorithm.js";
import {
  computeJwkThumbprint,
  createKeyAlgorithm,
  createKeyAlgorithms,
  EcdsaKeyAlgorithm,
  EddsaKeyAlgorithm,
  MlDsaKeyAlgorithm,
} from "../../src/providers/key-algorithm/index.js";

const utf8 = (text: string) => new TextEncoder().encode(text);

function expectInvalidKey(fn: () => unknown, code = "BR_0096"): void {
  let thrown: unknown;
  try {
    fn();
  } catch (error) {
    thrown = error;
  }
  expect(thrown, "expected a CredkitError").toBeInstanceOf(CredkitError);
  expect((thrown as CredkitError).code).toBe(code);
}

/** The private JWK of a generated pair: the public JWK plus `d` (or `priv` for AKP). */
function privateJwkOf(algorithm: KeyAlgorithm, publicKey: Uint8Array, privateKey: Uint8Array): PrivateJwk {
  const member = algorithm.type === "ML_DSA" ? "priv" : "d";
  return { ...algorithm.publicKeyToJwk(publicKey), [member]: encodeBase64url(privateKey) };
}

const cases: { type: KeyAlgorithmType; publicLength: number; signatureLength: number; jws: string; cose: number }[] = [
  { type: "EDDSA", publicLength: 32, signatureLength: 64, jws: "EdDSA", cose: -8 },
  { type: "ECDSA", publicLength: 33, signatureLength: 64, jws: "ES256", cose: -7 },
  { type: "ML_DSA", publicLength: 1952, signatureLength: 3309, jws: "ML-DSA-65", cose: -49 },
];

describe.each(cases)("$type", ({ type, publicLength, signatureLength, jws, cose }) => {
  const algorithm = createKeyAlgorithm(type);
  const pair = algorithm.generateKeyPair();
  const message = utf8("credkit signs this");

  it("declares its JOSE and COSE identifiers", () => {
    expect(algorithm.type).toBe(type);
    expect(algorithm.jwsAlgorithm).toBe(jws);
    expect(algorithm.coseAlgorithm).toBe(cose);
    expect(pair.publicKey).toHaveLength(publicLength);
    expect(pair.privateKey).toHaveLength(32);
    expect(algorithm.derivePublicKey(pair.privateKey)).toEqual(pair.publicKey);
  });

  it("signs and verifies; a tampered message or signature fails", () => {
    const signature = algorithm.sign(algorithm.preparePrivateKey(pair.privateKey), message);
    expect(signature).toHaveLength(signatureLength);
    const publicKey = algorithm.preparePublicKey(pair.publicKey);
    expect(algorithm.verify(publicKey, message, signature)).toBe(true);
    expect(algorithm.verify(publicKey, utf8("credkit signs that"), signature)).toBe(false);
    const tampered = Uint8Array.from(signature);
    tampered[10]! ^= 1;
    expect(algorithm.verify(publicKey, message, tampered)).toBe(false);
    expect(algorithm.verify(publicKey, message, signature.subarray(1))).toBe(false);
    const other = algorithm.generateKeyPair();
    expect(algorithm.verify(algorithm.preparePublicKey(other.publicKey), message, signature)).toBe(false);
  });

  it("round-trips the public key through JWK, COSE_Key and the thumbprint", async () => {
    const jwk = algorithm.publicKeyToJwk(pair.publicKey);
    expect(algorithm.publicKeyFromJwk(jwk)).toEqual(pair.publicKey);
    expect(algorithm.publicKeyFromJwk(JSON.parse(JSON.stringify(jwk)))).toEqual(pair.publicKey);
    expect(algorithm.publicKeyFromCose(algorithm.publicKeyToCose(pair.publicKey))).toEqual(pair.publicKey);
    expect(algorithm.publicKeyFromJwk({ ...jwk, alg: jws, kid: "k1", use: "sig" })).toEqual(pair.publicKey);
    expect(computeJwkThumbprint(jwk)).toBe(
      await calculateJwkThumbprint(jwk as Parameters<typeof calculateJwkThumbprint>[0]),
    );
  });

  it("imports a private JWK and signs with it", () => {
    const imported = algorithm.privateKeyFromJwk(privateJwkOf(algorithm, pair.publicKey, pair.privateKey));
    expect(imported.publicKey).toEqual(pair.publicKey);
    expect(imported.privateKey).toEqual(pair.privateKey);
    const signature = algorithm.sign(algorithm.preparePrivateKey(imported.privateKey), message);
    expect(algorithm.verify(algorithm.preparePublicKey(pair.publicKey), message, signature)).toBe(true);
  });

  it("rejects invalid public JWKs with BR_0096", () => {
    const jwk = algorithm.publicKeyToJwk(pair.publicKey);
    const keyMember = type === "ML_DSA" ? "pub" : "x";
    const value = jwk[keyMember] as string;
    const invalid: unknown[] = [
      null,
      "not a jwk",
      [],
      {},
      { ...jwk, kty: "RSA" },
      { ...jwk, crv: "P-384" },
      { ...jwk, alg: "RS256" },
      { ...jwk, use: "enc" },
      { ...jwk, [keyMember]: undefined },
      { ...jwk, [keyMember]: 42 },
      { ...jwk, [keyMember]: value.slice(0, -4) }, // too short
      { ...jwk, [keyMember]: `${value}AAAA` }, // too long
      { ...jwk, [keyMember]: `${value.slice(0, -1)}+` }, // not base64url
      { ...jwk, [keyMember]: `${value}==` }, // padded
      privateJwkOf(algorithm, pair.publicKey, pair.privateKey), // private member in a public key
    ];
    if (type === "ML_DSA") invalid.push({ kty: "AKP", pub: value }); // AKP requires alg
    for (const candidate of invalid) expectInvalidKey(() => algorithm.publicKeyFromJwk(candidate as PublicJwk));
  });

  it("rejects invalid private JWKs with BR_0096", () => {
    const jwk = privateJwkOf(algorithm, pair.publicKey, pair.privateKey);
    const privateMember = type === "ML_DSA" ? "priv" : "d";
    const other = algorithm.generateKeyPair();
    const invalid: unknown[] = [
      { ...jwk, kty: "oct" },
      { ...jwk, [privateMember]: undefined },
      { ...jwk, [privateMember]: encodeBase64url(new Uint8Array(31)) },
      // private key of another pair: the public members do not match
      { ...jwk, [privateMember]: encodeBase64url(other.privateKey) },
    ];
    for (const candidate of invalid) expectInvalidKey(() => algorithm.privateKeyFromJwk(candidate as PrivateJwk));
  });

  it("rejects invalid COSE keys and raw keys with BR_0096", () => {
    const cose = algorithm.publicKeyToCose(pair.publicKey);
    const withKty = new Map(cose).set(1, 99);
    const withAlg = new Map(cose).set(3, -999);
    const withPrivate = new Map(cose).set(type === "ML_DSA" ? -2 : -4, new Uint8Array(32));
    const truncated = new Map(cose);
    for (const [label, value] of truncated) if (value instanceof Uint8Array) truncated.set(label, value.subarray(1));
    for (const candidate of [withKty, withAlg, withPrivate, truncated]) {
      expectInvalidKey(() => algorithm.publicKeyFromCose(candidate));
    }
    expectInvalidKey(() => algorithm.preparePublicKey(new Uint8Array(publicLength - 1)));
    expectInvalidKey(() => algorithm.preparePrivateKey(new Uint8Array(16)));
    expectInvalidKey(() => algorithm.publicKeyToJwk(new Uint8Array(5)));
  });
});

describe("EDDSA (RFC 8037)", () => {
  const algorithm = new EddsaKeyAlgorithm();
  // RFC 8037 Appendix A.1
  const rfcKey = {
    kty: "OKP",
    crv: "Ed25519",
    d: "nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A",
    x: "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo",
  };
  const signingInput = "eyJhbGciOiJFZERTQSJ9.RXhhbXBsZSBvZiBFZDI1NTE5IHNpZ25pbmc";
  const rfcSignature = "hgyY0il_MGCjP0JzlnLWG1PPOt7-09PGcvMg3AIbQR6dWbhijcNR4ki4iylGjg5BhVsPt9g7sVvpAr_MuM0KAg";

  it("A.4: signing the example gives the published signature (Ed25519 is deterministic)", () => {
    const { privateKey } = algorithm.privateKeyFromJwk(rfcKey);
    const signature = algorithm.sign(algorithm.preparePrivateKey(privateKey), utf8(signingInput));
    expect(encodeBase64url(signature)).toBe(rfcSignature);
  });

  it("A.5: the published signature verifies with the A.2 public key", () => {
    const publicKey = algorithm.publicKeyFromJwk({ kty: "OKP", crv: "Ed25519", x: rfcKey.x });
    const prepared = algorithm.preparePublicKey(publicKey);
    expect(algorithm.verify(prepared, utf8(signingInput), decodeBase64url(rfcSignature))).toBe(true);
  });

  it("A.3: the JWK thumbprint of the A.2 public key", () => {
    expect(computeJwkThumbprint({ kty: "OKP", crv: "Ed25519", x: rfcKey.x })).toBe(
      "kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k",
    );
  });
});

describe("ECDSA points", () => {
  const algorithm = new EcdsaKeyAlgorithm();

  it("rejects a JWK whose point is not on P-256", () => {
    const jwk = algorithm.publicKeyToJwk(algorithm.generateKeyPair().publicKey);
    const y = decodeBase64url(jwk.y as string);
    y[31]! ^= 1;
    expectInvalidKey(() => algorithm.publicKeyFromJwk({ ...jwk, y: encodeBase64url(y) }));
    expectInvalidKey(() =>
      algorithm.publicKeyFromJwk({
        ...jwk,
        x: encodeBase64url(new Uint8Array(32)),
        y: encodeBase64url(new Uint8Array(32)),
      }),
    );
  });

  it("rejects a compressed point with a bad prefix or an x off the curve", () => {
    const { publicKey } = algorithm.generateKeyPair();
    const badPrefix = Uint8Array.from(publicKey);
    badPrefix[0] = 0x05;
    expectInvalidKey(() => algorithm.preparePublicKey(badPrefix));
    expectInvalidKey(() => algorithm.publicKeyToJwk(badPrefix));
    // find an x with no point (about half of all x values)
    const offCurve = Uint8Array.from(publicKey);
    let rejected = false;
    for (let i = 0; i < 64 && !rejected; i++) {
      offCurve[32] = i;
      try {
        algorithm.publicKeyToJwk(offCurve);
      } catch (error) {
        expect((error as CredkitError).code).toBe("BR_0096");
        rejected = true;
      }
    }
    expect(rejected).toBe(true);
  });

  it("rejects a private scalar of zero or >= n", () => {
    expectInvalidKey(() => algorithm.derivePublicKey(new Uint8Array(32)));
    expectInvalidKey(() => algorithm.derivePublicKey(new Uint8Array(32).fill(0xff)));
  });
});

describe("thumbprints (RFC 7638)", () => {
  it("§3.1 example RSA key", () => {
    const n =
      "0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw";
    expect(computeJwkThumbprint({ kty: "RSA", n, e: "AQAB", alg: "RS256", kid: "2011-04-29" })).toBe(
      "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs",
    );
  });

  it("rejects unknown key types and missing members with BR_0096", () => {
    expectInvalidKey(() => computeJwkThumbprint({ kty: "XYZ" }));
    expectInvalidKey(() => computeJwkThumbprint({ kty: "EC", crv: "P-256", x: "AA" }));
  });
});

describe("registry", () => {
  it("builds the enabled algorithms and rejects unknown names with BR_0043", () => {
    expect([...createKeyAlgorithms(["EDDSA", "ML_DSA"]).keys()]).toEqual(["EDDSA", "ML_DSA"]);
    expect([...createKeyAlgorithms().keys()]).toEqual(["EDDSA", "ECDSA", "ML_DSA"]);
    expectInvalidKey(() => createKeyAlgorithms(["EDDSA", "RSA"]), "BR_0043");
    expect(new MlDsaKeyAlgorithm().type).toBe("ML_DSA");
  });
});

describe("JOSE interop with jose", () => {
  const joseCases: { type: KeyAlgorithmType; alg: string }[] = [
    { type: "EDDSA", alg: "EdDSA" },
    { type: "ECDSA", alg: "ES256" },
  ];

  it.each(joseCases)("$alg: a compact JWS signed by jose verifies with our verify", async ({ type, alg }) => {
    const algorithm = createKeyAlgorithm(type);
    const pair = algorithm.generateKeyPair();
    const joseKey = await importJWK(privateJwkOf(algorithm, pair.publicKey, pair.privateKey) as never, alg);
    const jws = await new CompactSign(utf8('{"iss":"jose"}')).setProtectedHeader({ alg }).sign(joseKey);
    const [header, payload, signature] = jws.split(".");
    const prepared = algorithm.preparePublicKey(pair.publicKey);
    expect(algorithm.verify(prepared, utf8(`${header}.${payload}`), decodeBase64url(signature!))).toBe(true);
    expect(algorithm.verify(prepared, utf8(`${header}.${payload}x`), decodeBase64url(signature!))).toBe(false);
  });

  it.each(joseCases)("$alg: our signature verifies with jose compactVerify", async ({ type, alg }) => {
    const algorithm = createKeyAlgorithm(type);
    const pair = algorithm.generateKeyPair();
    const signingInput = `${encodeBase64url(utf8(JSON.stringify({ alg })))}.${encodeBase64url(utf8('{"iss":"credkit"}'))}`;
    const signature = algorithm.sign(algorithm.preparePrivateKey(pair.privateKey), utf8(signingInput));
    const joseKey = await importJWK(algorithm.publicKeyToJwk(pair.publicKey) as never, alg);
    const { payload, protectedHeader } = await compactVerify(`${signingInput}.${encodeBase64url(signature)}`, joseKey);
    expect(new TextDecoder().decode(payload)).toBe('{"iss":"credkit"}');
    expect(protectedHeader.alg).toBe(alg);
  });
});
