import { deflateSync } from "node:zlib";
import { decodeProtectedHeader, jwtVerify } from "jose";
import { describe, expect, it } from "vitest";
import { decodeBase64urlUtf8, encodeBase64url, encodeBase64urlUtf8 } from "../../../../src/encoding/base64url.js";
import { isCredkitError } from "../../../../src/errors/index.js";
import type { Signer } from "../../../../src/ports/signer.js";
import {
  createStatusList,
  createStatusListToken,
  getStatus,
  type ParseStatusListTokenOptions,
  parseStatusListToken,
  STATUS_LIST_JWT_TYP,
  setStatus,
  TOKEN_STATUS,
} from "../../../../src/providers/revocation/token-status-list/index.js";
import { es256Key } from "./es256.js";

const URI = "https://issuer.example.com/ssi/revocation/v1/lists/7f3c";
const ISSUED_AT = new Date("2025-06-01T12:00:00.900Z");
const EXPIRES_AT = new Date("2025-06-02T12:00:00.000Z");
const key = es256Key();

function sampleList() {
  const list = createStatusList(2 ** 16, 2);
  setStatus(list, 0, TOKEN_STATUS.INVALID);
  setStatus(list, 4242, TOKEN_STATUS.SUSPENDED);
  setStatus(list, 65535, TOKEN_STATUS.INVALID);
  return list;
}

function options(overrides: Partial<ParseStatusListTokenOptions> = {}): ParseStatusListTokenOptions {
  return {
    verifySignature: key.verifier,
    now: new Date("2025-06-01T18:00:00Z"),
    leeway: 0,
    expectedSubject: URI,
    ...overrides,
  };
}

function issue(overrides: Partial<Parameters<typeof createStatusListToken>[0]> = {}) {
  return createStatusListToken({
    subject: URI,
    list: sampleList(),
    issuedAt: ISSUED_AT,
    expiresAt: EXPIRES_AT,
    ttl: 43_200,
    signer: key.signer,
    ...overrides,
  });
}

/** Signs arbitrary header/payload JSON with the test key, to build tokens createStatusListToken would never emit. */
async function signRaw(header: unknown, payload: unknown, signer: Signer = key.signer): Promise<string> {
  const input = `${encodeBase64urlUtf8(JSON.stringify(header))}.${encodeBase64urlUtf8(JSON.stringify(payload))}`;
  return `${input}.${encodeBase64url(await signer.sign(new TextEncoder().encode(input)))}`;
}

const validPayload = () => ({
  sub: URI,
  iat: 1_748_779_200,
  exp: 1_748_865_600,
  status_list: { bits: 1, lst: "eNrbuRgAAhcBXQ" },
});
const validHeader = () => ({ alg: "ES256", typ: "statuslist+jwt", kid: "k" });

async function expectRejected(promise: Promise<unknown>, code: string, detail: RegExp) {
  const error = await promise.then(
    () => expect.fail("expected a rejection"),
    (reason: unknown) => reason,
  );
  expect(isCredkitError(error)).toBe(true);
  expect((error as { code: string }).code).toBe(code);
  expect((error as { detail: string }).detail).toMatch(detail);
}

describe("createStatusListToken (draft-ietf-oauth-status-list §5.1)", () => {
  it("issues a JWT with typ statuslist+jwt, alg, kid and the §5.1 claims", async () => {
    const token = await issue({ issuer: "https://issuer.example.com" });
    const [header, payload] = token
      .split(".")
      .slice(0, 2)
      .map((part) => JSON.parse(decodeBase64urlUtf8(part!)));
    expect(header).toEqual({ typ: STATUS_LIST_JWT_TYP, alg: "ES256", kid: "status-key-1" });
    expect(payload).toEqual({
      iss: "https://issuer.example.com",
      sub: URI,
      iat: 1_748_779_200, // NumericDate: whole seconds, fraction dropped
      exp: 1_748_865_600,
      ttl: 43_200,
      status_list: { bits: 2, lst: expect.stringMatching(/^eN[A-Za-z0-9_-]+$/) },
    });
  });

  it("omits the optional claims and kid when not given", async () => {
    const signer: Signer = { alg: key.signer.alg, sign: key.signer.sign };
    const token = await createStatusListToken({ subject: URI, list: sampleList(), issuedAt: ISSUED_AT, signer });
    const [header, payload] = token
      .split(".")
      .slice(0, 2)
      .map((part) => JSON.parse(decodeBase64urlUtf8(part!)));
    expect(header).toEqual({ typ: "statuslist+jwt", alg: "ES256" });
    expect(Object.keys(payload).sort()).toEqual(["iat", "status_list", "sub"]);
  });

  it("produces a signature jose verifies with the public key", async () => {
    const token = await issue();
    const { payload, protectedHeader } = await jwtVerify(token, key.publicKey, {
      typ: "statuslist+jwt",
      algorithms: ["ES256"],
      subject: URI,
      currentDate: new Date("2025-06-01T18:00:00Z"),
    });
    expect(protectedHeader.kid).toBe("status-key-1");
    expect(payload.ttl).toBe(43_200);
    expect(decodeProtectedHeader(token).typ).toBe("statuslist+jwt");
  });

  it("rejects invalid input with BR_0084", async () => {
    await expectRejected(issue({ subject: "not a uri" }), "BR_0084", /subject must be an absolute URI/);
    await expectRejected(issue({ subject: "" }), "BR_0084", /subject must be an absolute URI/);
    await expectRejected(issue({ expiresAt: ISSUED_AT }), "BR_0084", /expiresAt .* must be after issuedAt/);
    await expectRejected(issue({ issuedAt: new Date(Number.NaN) }), "BR_0084", /issuedAt must be a valid Date/);
    await expectRejected(issue({ ttl: 0 }), "BR_0084", /ttl must be a positive number/);
    await expectRejected(issue({ ttl: -5 }), "BR_0084", /ttl must be a positive number/);
    await expectRejected(issue({ issuer: "" }), "BR_0084", /issuer must be a non-empty string/);
    await expectRejected(
      issue({ signer: { alg: "none", sign: async () => new Uint8Array(0) } }),
      "BR_0084",
      /signer must have a signature alg/,
    );
  });
});

describe("parseStatusListToken", () => {
  it("verifies and returns header, payload and the decoded list", async () => {
    const parsed = await parseStatusListToken(await issue(), options());
    expect(parsed.header).toEqual({ typ: "statuslist+jwt", alg: "ES256", kid: "status-key-1" });
    expect(parsed.payload.sub).toBe(URI);
    expect(parsed.payload.ttl).toBe(43_200);
    expect(parsed.list.bits).toBe(2);
    expect(parsed.list.size).toBe(2 ** 16);
    expect(getStatus(parsed.list, 0)).toBe(TOKEN_STATUS.INVALID);
    expect(getStatus(parsed.list, 4242)).toBe(TOKEN_STATUS.SUSPENDED);
    expect(getStatus(parsed.list, 65535)).toBe(TOKEN_STATUS.INVALID);
    expect(getStatus(parsed.list, 1)).toBe(TOKEN_STATUS.VALID);
  });

  it("hands the verifier the header, the exact signing input and the raw signature", async () => {
    const token = await issue();
    const calls: [unknown, string, number][] = [];
    await parseStatusListToken(token, {
      ...options(),
      verifySignature: async (header, signingInput, signature) => {
        calls.push([header, new TextDecoder().decode(signingInput), signature.byteLength]);
        return key.verifier(header, signingInput, signature);
      },
    });
    expect(calls).toEqual([[expect.objectContaining({ alg: "ES256" }), token.split(".").slice(0, 2).join("."), 64]]);
  });

  it("works without expectedSubject", async () => {
    const parsed = await parseStatusListToken(await issue(), options({ expectedSubject: undefined }));
    expect(parsed.payload.sub).toBe(URI);
  });

  it("rejects a signature by another key", async () => {
    const other = es256Key("other");
    await expectRejected(
      parseStatusListToken(await issue({ signer: other.signer }), options()),
      "BR_0101",
      /^status list token: invalid signature \(alg ES256, kid other\)$/,
    );
  });

  it("rejects a payload swapped under a valid signature", async () => {
    const token = await issue();
    const forged = await signRaw(validHeader(), { ...validPayload(), sub: URI }, es256Key().signer);
    const [header, , signature] = token.split(".");
    const tampered = [header, forged.split(".")[1], signature].join(".");
    await expectRejected(parseStatusListToken(tampered, options()), "BR_0101", /invalid signature/);
  });

  it("wraps a verifier that throws, and passes CredkitErrors through", async () => {
    const token = await issue();
    await expectRejected(
      parseStatusListToken(token, options({ verifySignature: () => Promise.reject(new Error("unknown kid")) })),
      "BR_0101",
      /signature verification failed: unknown kid/,
    );
    const { CredkitError } = await import("../../../../src/errors/index.js");
    await expectRejected(
      parseStatusListToken(
        token,
        options({
          verifySignature: () => {
            throw new CredkitError("BR_0037", "no key");
          },
        }),
      ),
      "BR_0037",
      /no key/,
    );
  });

  it("rejects a sub that is not the referenced uri (§8.3 step 4a)", async () => {
    await expectRejected(
      parseStatusListToken(
        await issue(),
        options({ expectedSubject: "https://issuer.example.com/ssi/revocation/v1/lists/other" }),
      ),
      "BR_0101",
      /sub "https:\/\/issuer\.example\.com\/ssi\/revocation\/v1\/lists\/7f3c" does not match the status list uri/,
    );
  });

  it("rejects an expired token, honouring the leeway", async () => {
    const token = await issue();
    const afterExp = new Date(EXPIRES_AT.getTime() + 30_000);
    await expectRejected(
      parseStatusListToken(token, options({ now: afterExp })),
      "BR_0101",
      /expired at 2025-06-02T12:00:00\.000Z \(now 2025-06-02T12:00:30\.000Z, leeway 0s\)/,
    );
    await expectRejected(parseStatusListToken(token, options({ now: EXPIRES_AT })), "BR_0101", /expired/);
    await expect(parseStatusListToken(token, options({ now: afterExp, leeway: 60 }))).resolves.toBeDefined();
  });

  it("rejects a token issued in the future or not yet valid", async () => {
    const early = new Date(ISSUED_AT.getTime() - 120_000);
    await expectRejected(
      parseStatusListToken(await issue(), options({ now: early })),
      "BR_0101",
      /issued in the future/,
    );
    await expect(parseStatusListToken(await issue(), options({ now: early, leeway: 300 }))).resolves.toBeDefined();
    const nbf = await signRaw(validHeader(), { ...validPayload(), nbf: 1_748_810_000 }); // 20:46:40Z, after now (18:00Z);
    await expectRejected(parseStatusListToken(nbf, options()), "BR_0101", /not valid before/);
  });

  it("checks typ, alg and crit of the header", async () => {
    const payload = validPayload();
    await expect(parseStatusListToken(await signRaw(validHeader(), payload), options())).resolves.toBeDefined();
    // RFC 7515 §4.1.9: the "application/" prefix may be present and media types compare case-insensitively
    await expect(
      parseStatusListToken(await signRaw({ ...validHeader(), typ: "application/StatusList+JWT" }, payload), options()),
    ).resolves.toBeDefined();
    for (const typ of [undefined, "JWT", "statuslist+cwt", "dc+sd-jwt"]) {
      await expectRejected(
        parseStatusListToken(await signRaw({ ...validHeader(), typ }, payload), options()),
        "BR_0101",
        /header typ must be "statuslist\+jwt"/,
      );
    }
    await expectRejected(
      parseStatusListToken(await signRaw({ typ: "statuslist+jwt" }, payload), options()),
      "BR_0101",
      /header alg is missing/,
    );
    await expectRejected(
      parseStatusListToken(await signRaw({ ...validHeader(), alg: "none" }, payload), options()),
      "BR_0101",
      /alg "none" is not accepted/,
    );
    await expectRejected(
      parseStatusListToken(await signRaw({ ...validHeader(), crit: ["exp"], exp: 1 }, payload), options()),
      "BR_0101",
      /header crit/,
    );
  });

  it("rejects an unsecured token", async () => {
    const unsigned = `${encodeBase64urlUtf8(JSON.stringify({ alg: "none", typ: "statuslist+jwt" }))}.${encodeBase64urlUtf8(JSON.stringify(validPayload()))}.`;
    await expectRejected(parseStatusListToken(unsigned, options()), "BR_0101", /unsigned/);
  });

  it("rejects malformed compact serializations", async () => {
    const token = await issue();
    const [header, payload, signature] = token.split(".") as [string, string, string];
    const cases: [string, RegExp][] = [
      [`${header}.${payload}`, /3 dot-separated segments, got 2/],
      [`${token}.x.y`, /got 5/],
      [`${header}..${signature}`, /payload segment is empty/],
      [`${header}=.${payload}.${signature}`, /header segment is not unpadded base64url/],
      [`${encodeBase64urlUtf8("{nope")}.${payload}.${signature}`, /header is not valid JSON/],
      [`${encodeBase64urlUtf8("[1]")}.${payload}.${signature}`, /header is not a JSON object/],
      [`${header}.${payload}.${signature}*`, /signature segment is not unpadded base64url/],
    ];
    for (const [bad, detail] of cases) await expectRejected(parseStatusListToken(bad, options()), "BR_0101", detail);
    await expectRejected(parseStatusListToken("", options()), "BR_0101", /non-empty JWT/);
  });

  it("requires well-typed claims (§5.1)", async () => {
    const { sub: _sub, ...withoutSub } = validPayload();
    const { iat: _iat, ...withoutIat } = validPayload();
    const { status_list: _list, ...withoutList } = validPayload();
    const cases: [unknown, RegExp][] = [
      [withoutSub, /claim sub is required/],
      [{ ...validPayload(), sub: 42 }, /claim sub is required/],
      [withoutIat, /claim iat is required/],
      [{ ...validPayload(), iat: "2025-06-01" }, /claim iat is required/],
      [{ ...validPayload(), exp: "tomorrow" }, /claim exp must be a NumericDate/],
      [{ ...validPayload(), ttl: 0 }, /claim ttl must be a positive number/],
      [{ ...validPayload(), ttl: "300" }, /claim ttl must be a positive number/],
      [{ ...validPayload(), iss: 1 }, /claim iss must be a string/],
      [withoutList, /claim status_list is required/],
      [[validPayload()], /payload is not a JSON object/],
    ];
    for (const [payload, detail] of cases) {
      await expectRejected(parseStatusListToken(await signRaw(validHeader(), payload), options()), "BR_0101", detail);
    }
  });

  it("reports a broken status_list as BR_0049, including a zip bomb", async () => {
    const broken = await signRaw(validHeader(), { ...validPayload(), status_list: { bits: 3, lst: "eNrbuRgAAhcBXQ" } });
    await expectRejected(parseStatusListToken(broken, options()), "BR_0049", /bits must be 1, 2, 4 or 8/);
    const bomb = encodeBase64url(deflateSync(Buffer.alloc(32 * 1024 * 1024), { level: 9 }));
    const bombToken = await signRaw(validHeader(), { ...validPayload(), status_list: { bits: 1, lst: bomb } });
    await expectRejected(parseStatusListToken(bombToken, options()), "BR_0049", /decompression bomb guard/);
    await expectRejected(
      parseStatusListToken(await issue(), options({ maxBytes: 1024 })),
      "BR_0049",
      /inflates to more than 1024 bytes/,
    );
  });

  it("validates its options with BR_0084", async () => {
    const token = await issue();
    await expectRejected(
      parseStatusListToken(token, options({ now: new Date(Number.NaN) })),
      "BR_0084",
      /now must be a valid Date/,
    );
    await expectRejected(
      parseStatusListToken(token, options({ leeway: -1 })),
      "BR_0084",
      /leeway must be a non-negative/,
    );
    await expectRejected(
      parseStatusListToken(token, { ...options(), verifySignature: undefined as never }),
      "BR_0084",
      /verifySignature must be a function/,
    );
  });
});
