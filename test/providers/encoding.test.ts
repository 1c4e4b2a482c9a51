import { describe, expect, it } from "vitest";
import { decodeBase58btc, encodeBase58btc } from "../../src/encoding/base58.js";
import {
  decodeBase64url,
  decodeBase64urlUtf8,
  encodeBase64url,
  encodeBase64urlUtf8,
} from "../../src/encoding/base64url.js";
import { decodeMultibase, encodeMultibase, MULTICODEC } from "../../src/encoding/multibase.js";

const hex = (value: string) => Uint8Array.from(Buffer.from(value, "hex"));

describe("base64url", () => {
  it("encodes without padding and decodes back", () => {
    // RFC 4648 §10 test vectors, base64url alphabet, padding stripped
    const cases: [string, string][] = [
      ["", ""],
      ["f", "Zg"],
      ["fo", "Zm8"],
      ["foo", "Zm9v"],
      ["foob", "Zm9vYg"],
      ["fooba", "Zm9vYmE"],
      ["foobar", "Zm9vYmFy"],
    ];
    for (const [plain, encoded] of cases) {
      expect(encodeBase64urlUtf8(plain)).toBe(encoded);
      expect(decodeBase64urlUtf8(encoded)).toBe(plain);
    }
    const bytes = hex("fbff00fe");
    expect(encodeBase64url(bytes)).toBe("-_8A_g");
    expect(decodeBase64url("-_8A_g")).toEqual(bytes);
  });

  it("encodes a view without copying the rest of its buffer", () => {
    const backing = hex("0001020304");
    expect(encodeBase64url(backing.subarray(1, 3))).toBe(encodeBase64url(hex("0102")));
  });

  it("rejects padding, standard-alphabet characters, whitespace and non-canonical trailing bits", () => {
    for (const bad of ["Zg==", "+/8A", "Zm 9v", "Zh", "Z", "Zm9v\n"]) {
      expect(() => decodeBase64url(bad), bad).toThrow(RangeError);
    }
  });
});

describe("base58btc", () => {
  it("matches known vectors (draft-msporny-base58 §5)", () => {
    expect(encodeBase58btc(new TextEncoder().encode("Hello World!"))).toBe("2NEpo7TZRRrLZSi2U");
    expect(encodeBase58btc(new TextEncoder().encode("The quick brown fox jumps over the lazy dog."))).toBe(
      "USm3fpXnKG5EUBx2ndxBDMPVciP5hGey2Jh4NDv6gmeo1LkMeiKrLJUUBk6Z",
    );
    expect(encodeBase58btc(hex("0000287fb4cd"))).toBe("11233QC4");
    expect(decodeBase58btc("11233QC4")).toEqual(hex("0000287fb4cd"));
    expect(encodeBase58btc(new Uint8Array())).toBe("");
    expect(decodeBase58btc("")).toEqual(new Uint8Array());
  });

  it("round-trips random bytes including leading zeros", () => {
    for (let length = 0; length < 70; length++) {
      const bytes = new Uint8Array(length);
      crypto.getRandomValues(bytes);
      if (length > 2) bytes[0] = 0;
      expect(decodeBase58btc(encodeBase58btc(bytes))).toEqual(bytes);
    }
  });

  it("rejects characters outside the alphabet", () => {
    for (const bad of ["0", "O", "I", "l", "abc+", "é"]) expect(() => decodeBase58btc(bad), bad).toThrow(RangeError);
  });
});

describe("multibase", () => {
  it("prefixes the multicodec varint: ed25519-pub gives z6Mk, p256-pub gives zDn", () => {
    expect(encodeMultibase(MULTICODEC.ED25519_PUB, new Uint8Array(32)).startsWith("z6Mk")).toBe(true);
    expect(encodeMultibase(MULTICODEC.P256_PUB, hex(`02${"11".repeat(32)}`)).startsWith("zDn")).toBe(true);
  });

  it("round-trips every codec", () => {
    for (const codec of Object.values(MULTICODEC)) {
      const bytes = Uint8Array.from({ length: 40 }, (_, i) => i);
      expect(decodeMultibase(encodeMultibase(codec, bytes))).toEqual({ codec, bytes });
    }
  });

  it("rejects other multibase encodings and malformed varints", () => {
    expect(() => decodeMultibase("uAAAA")).toThrow(RangeError);
    expect(() => decodeMultibase("z")).toThrow(RangeError);
    // 0xed encoded non-minimally as ed 81 00
    expect(() => decodeMultibase(`z${encodeBase58btc(hex("ed8100"))}`)).toThrow(RangeError);
    // a varint that never ends
    expect(() => decodeMultibase(`z${encodeBase58btc(hex("ffffffffff"))}`)).toThrow(RangeError);
  });
});
