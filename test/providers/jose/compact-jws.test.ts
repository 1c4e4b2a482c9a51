import { CompactSign, compactVerify, decodeProtectedHeader, importJWK } from "jose";
import { describe, expect, it } from "vitest";
import type { KeyAlgorithmType } from "../../../src/domain/enums.js";
import { decodeCompactJws } from "../../../src/providers/jose/decode-compact-jws.js";
import { signCompactJws } from "../../../src/providers/jose/sign-compact-jws.js";
import { createJwsVerifier } from "../../../src/providers/jose/verify-jws-signature.js";
import { algorithms, createTestKey, expectCredkitError } from "./test-keys.js";

const b64 = (text: string) => Buffer.from(text, "utf8").toString("base64url");

describe("signCompactJws", () => {
  it.each<KeyAlgorithmType>(["EDDSA", "ECDSA"])("%s: jose verifies what we sign", async (type) => {
    const key = createTestKey(type, "did:example:issuer#key-1");
    const token = await signCompactJws({ typ: "JWT" }, { sub: "alice", n: 1 }, key.signer);
    const jwk = await importJWK(key.publicJwk, key.signer.alg);
    const { payload, protectedHeader } = await compactVerify(token, jwk);
    expect(protectedHeader).toEqual({ typ: "JWT", alg: key.signer.alg, kid: "did:example:issuer#key-1" });
    expect(JSON.parse(Buffer.from(payload).toString("utf8"))).toEqual({ sub: "alice", n: 1 });
  });

  it("ML-DSA-65: our verifier accepts what we sign", async () => {
    const key = createTestKey("ML_DSA");
    const token = await signCompactJws({}, { a: "b" }, key.signer);
    const decoded = decodeCompactJws(token);
    expect(decoded.header).toEqual({ alg: "ML-DSA-65" });
    const verifier = createJwsVerifier(algorithms);
    expect(verifier.verify("ML-DSA-65", key.publicJwk, decoded.signingInput, decoded.signature)).toBe(true);
  });

  it("keeps a kid the caller gives, drops it when the caller sets it undefined, forces alg", async () => {
    const key = createTestKey("EDDSA", "signer-kid");
    const own = await signCompactJws({ kid: "mine", alg: "none" }, {}, key.signer);
    expect(decodeProtectedHeader(own)).toEqual({ kid: "mine", alg: "EdDSA" });
    const none = await signCompactJws({ typ: "kb+jwt", kid: undefined }, {}, key.signer);
    expect(decodeProtectedHeader(none)).toEqual({ typ: "kb+jwt", alg: "EdDSA" });
  });

  it("signs a byte payload as is and calls the signer once", async () => {
    const key = createTestKey("ECDSA");
    let calls = 0;
    const signer = {
      ...key.signer,
      sign: (data: Uint8Array) => {
        calls++;
        return key.signer.sign(data);
      },
    };
    const token = await signCompactJws({}, new Uint8Array([0, 255, 1]), signer);
    expect(calls).toBe(1);
    const { payload } = await compactVerify(token, await importJWK(key.publicJwk, "ES256"));
    expect([...payload]).toEqual([0, 255, 1]);
  });
});

describe("decodeCompactJws", () => {
  const header = b64('{"alg":"ES256"}');
  const payload = b64('{"iss":"x"}');
  const signature = Buffer.from([1, 2, 3]).toString("base64url");

  it("decodes a JWT signed by jose", async () => {
    const key = createTestKey("ECDSA");
    const privateKey = await importJWK(key.privateJwk, "ES256");
    const token = await new CompactSign(new TextEncoder().encode('{"iss":"https://issuer.example"}'))
      .setProtectedHeader({ alg: "ES256", typ: "dc+sd-jwt" })
      .sign(privateKey);
    const decoded = decodeCompactJws(token);
    expect(decoded.header).toEqual({ alg: "ES256", typ: "dc+sd-jwt" });
    expect(decoded.payload).toEqual({ iss: "https://issuer.example" });
    expect(Buffer.from(decoded.signingInput).toString("latin1")).toBe(token.slice(0, token.lastIndexOf(".")));
    expect(decoded.signature.length).toBe(64);
    expect(createJwsVerifier(algorithms).verify("ES256", key.publicJwk, decoded.signingInput, decoded.signature)).toBe(
      true,
    );
  });

  it.each([
    ["two parts", `${header}.${payload}`, "three dot-separated parts"],
    ["four parts", `${header}.${payload}.${signature}.x`, "three dot-separated parts"],
    ["a bad base64url character", `${header}.${payload}*.${signature}`, "payload is not valid base64url"],
    ["padding", `${header}.${payload}=.${signature}`, "payload is not valid base64url"],
    [
      "standard base64",
      `${header}.${Buffer.from('{"a":"??>"}').toString("base64")}.${signature}`,
      "not valid base64url",
    ],
    ["an empty header", `.${payload}.${signature}`, "header is empty"],
    ["a non-JSON header", `${b64("{alg")}.${payload}.${signature}`, "header is not valid JSON"],
    ["an array payload", `${header}.${b64("[1]")}.${signature}`, "payload is not a JSON object"],
    ["a null payload", `${header}.${b64("null")}.${signature}`, "payload is not a JSON object"],
    ["an empty signature", `${header}.${payload}.`, "signature is empty"],
    ["a crit header", `${b64('{"alg":"ES256","crit":["b64"],"b64":false}')}.${payload}.${signature}`, "crit"],
  ])("rejects %s with BR_0189", async (_case, token, detail) => {
    await expectCredkitError(() => decodeCompactJws(token, "credential"), "BR_0189", detail);
  });
});
