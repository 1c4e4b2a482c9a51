import { describe, expect, it } from "vitest";
import type { KeyAlgorithmType } from "../../../src/domain/enums.js";
import type { KeyAlgorithm } from "../../../src/ports/key-algorithm.js";
import { decodeCompactJws } from "../../../src/providers/jose/decode-compact-jws.js";
import { signCompactJws } from "../../../src/providers/jose/sign-compact-jws.js";
import { createJwsVerifier } from "../../../src/providers/jose/verify-jws-signature.js";
import { algorithms, createTestKey, expectCredkitError } from "./test-keys.js";

async function signed(type: KeyAlgorithmType) {
  const key = createTestKey(type);
  const token = await signCompactJws({ typ: "JWT" }, { iss: "me" }, key.signer);
  return { key, ...decodeCompactJws(token) };
}

/** The algorithms, with ECDSA's preparePublicKey counted. */
function countingAlgorithms() {
  const counter = { prepared: 0 };
  const map = new Map(algorithms);
  const ecdsa = algorithms.get("ECDSA")!;
  const counting: KeyAlgorithm = Object.create(ecdsa);
  counting.preparePublicKey = (publicKey: Uint8Array) => {
    counter.prepared++;
    return ecdsa.preparePublicKey(publicKey);
  };
  map.set("ECDSA", counting);
  return { map, counter };
}

describe("createJwsVerifier", () => {
  const verifier = createJwsVerifier(algorithms);

  it("lists the JOSE algs of the enabled algorithms", () => {
    expect([...verifier.algorithms].sort()).toEqual(["ES256", "EdDSA", "ML-DSA-65"]);
    expect(createJwsVerifier(new Map([["EDDSA", algorithms.get("EDDSA")!]])).algorithms).toEqual(["EdDSA"]);
  });

  it.each<KeyAlgorithmType>(["EDDSA", "ECDSA", "ML_DSA"])(
    "%s: valid signature true, altered input false",
    async (type) => {
      const { key, signingInput, signature } = await signed(type);
      expect(verifier.verify(key.signer.alg, key.publicJwk, signingInput, signature)).toBe(true);
      const altered = Uint8Array.from(signingInput);
      altered[altered.length - 1] = altered.at(-1)! ^ 1;
      expect(verifier.verify(key.signer.alg, key.publicJwk, altered, signature)).toBe(false);
      const other = createTestKey(type);
      expect(verifier.verify(key.signer.alg, other.publicJwk, signingInput, signature)).toBe(false);
    },
  );

  it("rejects alg none and algs no enabled algorithm implements", async () => {
    const { key, signingInput, signature } = await signed("ECDSA");
    await expectCredkitError(() => verifier.verify("none", key.publicJwk, signingInput, signature), "BR_0355", "none");
    await expectCredkitError(() => verifier.verify("NONE", key.publicJwk, signingInput, signature), "BR_0355", "none");
    await expectCredkitError(
      () => verifier.verify("HS256", key.publicJwk, signingInput, signature),
      "BR_0355",
      'unsupported JWS alg "HS256"',
    );
    await expectCredkitError(() => verifier.verify("", key.publicJwk, signingInput, signature), "BR_0355");
    const onlyEd = createJwsVerifier(new Map([["EDDSA", algorithms.get("EDDSA")!]]));
    await expectCredkitError(() => onlyEd.verify("ES256", key.publicJwk, signingInput, signature), "BR_0355", "ES256");
  });

  it("rejects a JWK that does not fit the alg", async () => {
    const { key, signingInput, signature } = await signed("ECDSA");
    const ed = createTestKey("EDDSA");
    await expectCredkitError(() => verifier.verify("ES256", ed.publicJwk, signingInput, signature), "BR_0096", "ES256");
    await expectCredkitError(
      () => verifier.verify("EdDSA", key.publicJwk, signingInput, signature),
      "BR_0096",
      "does not fit EdDSA",
    );
    await expectCredkitError(
      () => verifier.verify("ES256", { ...key.publicJwk, crv: "P-384" }, signingInput, signature),
      "BR_0096",
    );
    await expectCredkitError(
      () => verifier.verify("ES256", { ...key.publicJwk, alg: "ES384" }, signingInput, signature),
      "BR_0096",
      "ES384",
    );
    await expectCredkitError(
      () => verifier.verify("ES256", { ...key.publicJwk, use: "enc" }, signingInput, signature),
      "BR_0096",
      "use",
    );
    // the alg / use checks hold on a cache hit too
    expect(verifier.verify("ES256", key.publicJwk, signingInput, signature)).toBe(true);
    await expectCredkitError(
      () => verifier.verify("ES256", { ...key.publicJwk, alg: "ES384" }, signingInput, signature),
      "BR_0096",
    );
    await expectCredkitError(() => verifier.verify("ES256", { kty: "EC" }, signingInput, signature), "BR_0096");
  });

  it("prepares a public key once and reuses it (LRU, bounded)", async () => {
    const { map, counter } = countingAlgorithms();
    const cached = createJwsVerifier(map, { cacheSize: 2 });
    const a = await signed("ECDSA");
    const b = await signed("ECDSA");
    const c = await signed("ECDSA");
    for (let i = 0; i < 5; i++) expect(cached.verify("ES256", a.key.publicJwk, a.signingInput, a.signature)).toBe(true);
    expect(counter.prepared).toBe(1);
    // a JWK with extra members has the same thumbprint: same cache entry
    expect(cached.verify("ES256", { ...a.key.publicJwk, kid: "k" }, a.signingInput, a.signature)).toBe(true);
    expect(counter.prepared).toBe(1);
    cached.verify("ES256", b.key.publicJwk, b.signingInput, b.signature);
    expect(counter.prepared).toBe(2);
    cached.verify("ES256", a.key.publicJwk, a.signingInput, a.signature); // a becomes most recent
    cached.verify("ES256", c.key.publicJwk, c.signingInput, c.signature); // evicts b
    expect(counter.prepared).toBe(3);
    cached.verify("ES256", a.key.publicJwk, a.signingInput, a.signature);
    expect(counter.prepared).toBe(3);
    cached.verify("ES256", b.key.publicJwk, b.signingInput, b.signature);
    expect(counter.prepared).toBe(4);
  });
});
