import { describe, expect, it } from "vitest";
import { createSecretSealer } from "../../src/engines/common/secret-sealer.js";
import { CredkitError } from "../../src/errors/credkit-error.js";

const KEY = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

describe("interaction secret sealer", () => {
  it("seals to an opaque value that opens only in its context and with its key", () => {
    const sealer = createSecretSealer(KEY);
    const sealed = sealer.seal("access-token-123", "interaction-a");
    expect(sealed).toMatch(/^v1\./);
    expect(sealed).not.toContain("access-token-123");
    expect(sealer.seal("access-token-123", "interaction-a")).not.toBe(sealed);
    expect(sealer.open(sealed, "interaction-a")).toBe("access-token-123");
    expect(() => sealer.open(sealed, "interaction-b")).toThrow(CredkitError);
    expect(() => createSecretSealer("ff".repeat(32)).open(sealed, "interaction-a")).toThrow(CredkitError);
    const tampered = `${sealed.slice(0, -2)}${sealed.endsWith("A") ? "B" : "A"}A`;
    expect(() => sealer.open(tampered, "interaction-a")).toThrow(CredkitError);
    expect(() => sealer.open("plain", "interaction-a")).toThrow(CredkitError);
  });

  it("derives its key from the INTERNAL encryption key, stable across instances", () => {
    expect(createSecretSealer(KEY).open(createSecretSealer(KEY).seal("x", "c"), "c")).toBe("x");
    // without a configured key a random one is used: values do not open in another instance
    expect(() => createSecretSealer(undefined).open(createSecretSealer(undefined).seal("x", "c"), "c")).toThrow(
      CredkitError,
    );
  });
});
