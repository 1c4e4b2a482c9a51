import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { KEY_ALGORITHM_TYPES, type KeyAlgorithmType } from "../../src/domain/enums.js";
import { encodeBase64url } from "../../src/encoding/base64url.js";
import { CredkitError } from "../../src/errors/index.js";
import type { KeyHandleRef } from "../../src/ports/key-storage.js";
import { createKeyAlgorithms } from "../../src/providers/key-algorithm/index.js";
import { createInternalKeyStorage } from "../../src/providers/key-storage/internal.js";

const algorithms = createKeyAlgorithms(["EDDSA", "ECDSA", "ML_DSA"]);
const encryptionKey = randomBytes(32).toString("hex");
const message = new TextEncoder().encode("header.payload");

async function expectCode(promise: Promise<unknown>, code: string): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error, "expected a CredkitError").toBeInstanceOf(CredkitError);
  expect((error as CredkitError).code).toBe(code);
}

describe("INTERNAL key storage", () => {
  const storage = createInternalKeyStorage({ encryptionKey, algorithms });

  it("declares its capabilities", () => {
    expect(storage.capabilities).toEqual({
      features: ["IMPORT"],
      algorithms: ["EDDSA", "ECDSA", "ML_DSA"],
      securityLevel: ["BASIC"],
    });
  });

  it.each(KEY_ALGORITHM_TYPES)(
    "%s: a generated key signs, and the signature verifies with its public key",
    async (type) => {
      const algorithm = algorithms.get(type)!;
      const material = await storage.generate("key-1", type);
      // 12-byte nonce + 32-byte private key + 16-byte tag; the private key itself is not in the reference
      expect(material.keyReference).toHaveLength(60);
      const handle: KeyHandleRef = { id: "key-1", keyType: type, ...material };
      const first = await storage.sign(handle, message);
      const second = await storage.sign(handle, message); // served from the prepared-key cache
      const publicKey = algorithm.preparePublicKey(material.publicKey);
      expect(algorithm.verify(publicKey, message, first)).toBe(true);
      expect(algorithm.verify(publicKey, message, second)).toBe(true);
      // a fresh handle object with copied bytes hits the same cache entry
      const copy = { ...handle, keyReference: Uint8Array.from(handle.keyReference) };
      expect(algorithm.verify(publicKey, message, await storage.sign(copy, message))).toBe(true);
    },
  );

  it("imports a private JWK", async () => {
    const algorithm = algorithms.get("ECDSA")!;
    const pair = algorithm.generateKeyPair();
    const jwk = { ...algorithm.publicKeyToJwk(pair.publicKey), d: encodeBase64url(pair.privateKey) };
    const material = await storage.importPrivateJwk("imported", "ECDSA", jwk);
    expect(material.publicKey).toEqual(pair.publicKey);
    const signature = await storage.sign({ id: "imported", keyType: "ECDSA", ...material }, message);
    expect(algorithm.verify(algorithm.preparePublicKey(pair.publicKey), message, signature)).toBe(true);
    await expectCode(storage.importPrivateJwk("bad", "ECDSA", { ...jwk, d: "AAAA" }), "BR_0096");
  });

  it("a wrong encryption key cannot open a reference (BR_0039)", async () => {
    const material = await storage.generate("key-2", "EDDSA");
    const other = createInternalKeyStorage({ encryptionKey: randomBytes(32).toString("hex"), algorithms });
    await expectCode(other.sign({ id: "key-2", keyType: "EDDSA", ...material }, message), "BR_0039");
  });

  it("a tampered reference fails (BR_0039)", async () => {
    const fresh = createInternalKeyStorage({ encryptionKey, algorithms });
    const material = await fresh.generate("key-3", "EDDSA");
    for (const index of [0, 20, 59]) {
      const keyReference = Uint8Array.from(material.keyReference);
      keyReference[index]! ^= 0x01;
      await expectCode(fresh.sign({ id: "key-3", keyType: "EDDSA", ...material, keyReference }, message), "BR_0039");
    }
    const truncated = material.keyReference.subarray(0, 20);
    await expectCode(
      fresh.sign({ id: "key-3", keyType: "EDDSA", ...material, keyReference: truncated }, message),
      "BR_0039",
    );
  });

  it("the reference of key A cannot be used for key B (BR_0039)", async () => {
    const fresh = createInternalKeyStorage({ encryptionKey, algorithms });
    const a = await fresh.generate("key-a", "EDDSA");
    const b = await fresh.generate("key-b", "EDDSA");
    // A's reference on B's row: the key id is the AAD, so the tag check fails
    await expectCode(
      fresh.sign({ id: "key-b", keyType: "EDDSA", ...b, keyReference: a.keyReference }, message),
      "BR_0039",
    );
    // A's reference with A's id but B's public key: opens, but holds the private key of another public key
    await expectCode(fresh.sign({ id: "key-a", keyType: "EDDSA", ...a, publicKey: b.publicKey }, message), "BR_0039");
    // a cached entry for A is never served for B, nor for a handle claiming another public key
    await fresh.sign({ id: "key-a", keyType: "EDDSA", ...a }, message);
    await expectCode(fresh.sign({ id: "key-a", keyType: "EDDSA", ...a, publicKey: b.publicKey }, message), "BR_0039");
    await expectCode(
      fresh.sign({ id: "key-b", keyType: "EDDSA", ...b, keyReference: a.keyReference }, message),
      "BR_0039",
    );
  });

  it("a handle with the wrong key type fails (BR_0039)", async () => {
    const material = await storage.generate("key-4", "ECDSA");
    await expectCode(storage.sign({ id: "key-4", keyType: "EDDSA", ...material }, message), "BR_0039");
  });

  it("bounds its cache", async () => {
    const small = createInternalKeyStorage({ encryptionKey, algorithms, cacheSize: 2 });
    const handles: KeyHandleRef[] = [];
    for (let i = 0; i < 5; i++)
      handles.push({ id: `k${i}`, keyType: "EDDSA", ...(await small.generate(`k${i}`, "EDDSA")) });
    for (const handle of [...handles, ...handles]) {
      const signature = await small.sign(handle, message);
      const algorithm = algorithms.get("EDDSA")!;
      expect(algorithm.verify(algorithm.preparePublicKey(handle.publicKey), message, signature)).toBe(true);
    }
  });

  it("rejects a malformed encryption key and a disabled algorithm", async () => {
    for (const bad of ["", "00", "zz".repeat(32), "0".repeat(63)]) {
      expect(() => createInternalKeyStorage({ encryptionKey: bad, algorithms })).toThrow(CredkitError);
    }
    const onlyEddsa = createInternalKeyStorage({ encryptionKey, algorithms: createKeyAlgorithms(["EDDSA"]) });
    await expectCode(onlyEddsa.generate("x", "ML_DSA" as KeyAlgorithmType), "BR_0043");
  });
});
