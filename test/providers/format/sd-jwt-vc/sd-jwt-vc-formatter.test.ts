import { beforeAll, describe, expect, it } from "vitest";
import type { KeyAlgorithmType } from "../../../../src/domain/enums.js";
import type {
  FormatCredentialInput,
  IssuerKeyResolver,
  VerifyPresentationOptions,
} from "../../../../src/ports/credential-formatter.js";
import { createDisclosure } from "../../../../src/providers/format/sd-jwt-vc/create-disclosure.js";
import { createSdJwtVcFormatter } from "../../../../src/providers/format/sd-jwt-vc/index.js";
import { decodeCompactJws } from "../../../../src/providers/jose/decode-compact-jws.js";
import { numericDateOf } from "../../../../src/providers/jose/jwt-claims.js";
import { signCompactJws } from "../../../../src/providers/jose/sign-compact-jws.js";
import { algorithms, createTestKey, expectCredkitError, type TestKey } from "../../jose/test-keys.js";

const ISSUER = "did:example:issuer";
const KID = `${ISSUER}#key-1`;
const VCT = "https://credentials.example.com/identity_credential";
const AUDIENCE = "x509_san_dns:verifier.example.org";
const NONCE = "n-0S6_WzA2Mj";
const now = new Date("2026-03-01T12:00:00.000Z");
const issuedAt = new Date("2026-03-01T11:00:00.000Z");
const expiresAt = new Date("2027-03-01T00:00:00.000Z");

const claims = {
  given_name: "Erika",
  family_name: "Mustermann",
  birthdate: "1963-08-12",
  is_over_18: true,
  age: 62,
  middle_name: null,
  address: { street_address: "Heidestraße 17", locality: "Köln", country: "DE" },
  nationalities: ["DE", "FR"],
  degrees: [
    { type: "Bachelor", name: "Computer Science" },
    { type: "Master", name: "Mathematics" },
  ],
};

const formatter = createSdJwtVcFormatter({ algorithms });
let issuerKey: TestKey;
let holderKey: TestKey;
let credential: string;

function resolverFor(key: TestKey): IssuerKeyResolver {
  return async (issuer, header) => {
    if (issuer !== ISSUER || header.kid !== KID) throw new Error(`unknown issuer key ${issuer} ${String(header.kid)}`);
    return key.publicJwk;
  };
}

function input(overrides: Partial<FormatCredentialInput> = {}): FormatCredentialInput {
  return {
    issuer: ISSUER,
    type: VCT,
    claims,
    holderJwk: holderKey.publicJwk,
    issuedAt,
    expiresAt,
    status: { idx: 42, uri: "https://issuer.example.com/status/1" },
    signer: issuerKey.signer,
    ...overrides,
  };
}

const verifyOptions = () => ({ resolveIssuerKey: resolverFor(issuerKey), now, leeway: 30 });
const presentationOptions = (overrides: Partial<VerifyPresentationOptions> = {}): VerifyPresentationOptions => ({
  ...verifyOptions(),
  keyBinding: { audience: AUDIENCE, nonce: NONCE },
  ...overrides,
});

function partsOf(sdJwt: string) {
  const segments = sdJwt.split("~");
  return { jwt: segments[0]!, disclosures: segments.slice(1, -1), kb: segments.at(-1)! };
}

async function present(disclose: (string | number)[][], keyBinding = true): Promise<string> {
  return formatter.createPresentation(credential, {
    disclose,
    ...(keyBinding
      ? { keyBinding: { audience: AUDIENCE, nonce: NONCE, issuedAt: now, signer: holderKey.signer } }
      : {}),
  });
}

beforeAll(async () => {
  issuerKey = createTestKey("ECDSA", KID);
  holderKey = createTestKey("EDDSA");
  credential = await formatter.formatCredential(input());
});

describe("SD-JWT VC formatter: issuance", () => {
  it("declares its capabilities", () => {
    expect(formatter.capabilities).toEqual({
      features: ["SELECTIVE_DISCLOSURE", "HOLDER_BINDING"],
      signingAlgorithms: ["EdDSA", "ES256", "ML-DSA-65"],
    });
    const edOnly = createSdJwtVcFormatter({ algorithms: new Map([["EDDSA", algorithms.get("EDDSA")!]]) });
    expect(edOnly.capabilities.signingAlgorithms).toEqual(["EdDSA"]);
  });

  it("issues <jws>~<disclosures>~ with only registered claims in clear text", () => {
    const { jwt, disclosures, kb } = partsOf(credential);
    expect(kb).toBe("");
    const { header, payload } = decodeCompactJws(jwt);
    expect(header).toEqual({ typ: "dc+sd-jwt", alg: "ES256", kid: KID });
    expect(Object.keys(payload).sort()).toEqual(["_sd", "_sd_alg", "cnf", "exp", "iat", "iss", "status", "vct"]);
    expect(payload).toMatchObject({
      iss: ISSUER,
      iat: numericDateOf(issuedAt),
      exp: numericDateOf(expiresAt),
      vct: VCT,
      cnf: { jwk: holderKey.publicJwk },
      status: { status_list: { idx: 42, uri: "https://issuer.example.com/status/1" } },
      _sd_alg: "sha-256",
    });
    const digests = payload._sd as string[];
    expect(digests).toHaveLength(Object.keys(claims).length);
    expect([...digests].sort()).toEqual(digests);
    expect(jwt).not.toContain(Buffer.from("Erika").toString("base64url").slice(0, 5));
    // 9 top-level + 3 address members + 2 nationalities + 2 degrees (each with 2 members)
    expect(disclosures).toHaveLength(9 + 3 + 2 + 2 + 4);
  });

  it.each<KeyAlgorithmType>(["EDDSA", "ECDSA", "ML_DSA"])(
    "%s issuer: issue → verify gives back the claims",
    async (type) => {
      const key = createTestKey(type, KID);
      const issued = await formatter.formatCredential(input({ signer: key.signer, notBefore: issuedAt }));
      const parsed = await formatter.verifyCredential(issued, { resolveIssuerKey: resolverFor(key), now, leeway: 0 });
      expect(parsed).toEqual({
        issuer: ISSUER,
        type: VCT,
        claims,
        holderJwk: holderKey.publicJwk,
        issuedAt,
        expiresAt,
        notBefore: issuedAt,
        status: { idx: 42, uri: "https://issuer.example.com/status/1" },
        header: { typ: "dc+sd-jwt", alg: key.signer.alg, kid: KID },
      });
    },
  );

  it("issues without holder binding, status, expiry or claims", async () => {
    const issued = await formatter.formatCredential(
      input({ claims: {}, holderJwk: undefined, status: undefined, expiresAt: undefined }),
    );
    expect(issued.endsWith("~")).toBe(true);
    expect(partsOf(issued).disclosures).toEqual([]);
    const parsed = await formatter.verifyCredential(issued, verifyOptions());
    expect(parsed.claims).toEqual({});
    expect(parsed.holderJwk).toBeUndefined();
    expect(parsed.status).toBeUndefined();
  });

  it("rejects invalid issuance input", async () => {
    await expectCredkitError(() => formatter.formatCredential(input({ claims: { iss: "x" } })), "BR_0084", '"iss"');
    await expectCredkitError(() => formatter.formatCredential(input({ claims: { vct: "x" } })), "BR_0084", '"vct"');
    await expectCredkitError(
      () => formatter.formatCredential(input({ claims: { a: { _sd: ["x"] } } })),
      "BR_0084",
      '"_sd" is reserved',
    );
    await expectCredkitError(
      () => formatter.formatCredential(input({ claims: { a: [{ "...": "x" }] } })),
      "BR_0084",
      '"..." is reserved',
    );
    await expectCredkitError(
      () => formatter.formatCredential(input({ claims: { when: new Date() } })),
      "BR_0084",
      "claim when is an instance of Date",
    );
    await expectCredkitError(
      () => formatter.formatCredential(input({ claims: { n: [1, Number.NaN] } })),
      "BR_0084",
      "n[1]",
    );
    await expectCredkitError(
      () => formatter.formatCredential(input({ holderJwk: { ...holderKey.privateJwk } })),
      "BR_0096",
      "private member",
    );
    await expectCredkitError(
      () => formatter.formatCredential(input({ signer: { ...issuerKey.signer, alg: "RS256" } })),
      "BR_0381",
      "RS256",
    );
  });
});

describe("SD-JWT VC formatter: verification", () => {
  it("rejects a credential signed by another key", async () => {
    const other = createTestKey("ECDSA", KID);
    await expectCredkitError(
      () => formatter.verifyCredential(credential, { ...verifyOptions(), resolveIssuerKey: resolverFor(other) }),
      "BR_0355",
      "issuer signature invalid",
    );
    const forged = await formatter.formatCredential(input({ signer: other.signer }));
    await expectCredkitError(
      () => formatter.verifyCredential(forged, verifyOptions()),
      "BR_0355",
      "issuer signature invalid",
    );
  });

  it("rejects a payload changed after signing", async () => {
    const { jwt } = partsOf(credential);
    const [header, payload, signature] = jwt.split(".");
    const changed = JSON.parse(Buffer.from(payload!, "base64url").toString("utf8"));
    changed.exp = changed.exp + 3600 * 24 * 365;
    const tampered = `${header}.${Buffer.from(JSON.stringify(changed)).toString("base64url")}.${signature}`;
    await expectCredkitError(
      () => formatter.verifyCredential(credential.replace(jwt, tampered), verifyOptions()),
      "BR_0355",
      "issuer signature invalid",
    );
  });

  it("reports an issuer key that does not fit the alg or cannot be resolved", async () => {
    await expectCredkitError(
      () =>
        formatter.verifyCredential(credential, {
          ...verifyOptions(),
          resolveIssuerKey: async () => holderKey.publicJwk,
        }),
      "BR_0355",
      "issuer signature: JWK does not fit ES256",
    );
    await expectCredkitError(
      () =>
        formatter.verifyCredential(credential, {
          ...verifyOptions(),
          resolveIssuerKey: async () => {
            throw new Error("DID not found");
          },
        }),
      "BR_0355",
      "issuer key of did:example:issuer could not be resolved: DID not found",
    );
  });

  it("rejects a tampered disclosure", async () => {
    const { disclosures } = partsOf(credential);
    const original = disclosures.find((d) => Buffer.from(d, "base64url").toString("utf8").includes('"given_name"'))!;
    const [salt] = JSON.parse(Buffer.from(original, "base64url").toString("utf8"));
    const tampered = Buffer.from(JSON.stringify([salt, "given_name", "Mallory"])).toString("base64url");
    await expectCredkitError(
      () => formatter.verifyCredential(credential.replace(original, tampered), verifyOptions()),
      "BR_0355",
      'disclosure not referenced by the credential: "given_name"',
    );
  });

  it("rejects a disclosure taken from another credential", async () => {
    const other = await formatter.formatCredential(input({ claims: { given_name: "Mallory" } }));
    const foreign = partsOf(other).disclosures[0]!;
    await expectCredkitError(
      () => formatter.verifyCredential(`${credential}${foreign}~`, verifyOptions()),
      "BR_0355",
      "disclosure not referenced by the credential",
    );
  });

  it("rejects a disclosure sent twice and malformed disclosures", async () => {
    const first = partsOf(credential).disclosures[0]!;
    await expectCredkitError(
      () => formatter.verifyCredential(`${credential}${first}~`, verifyOptions()),
      "BR_0355",
      "more than once",
    );
    await expectCredkitError(
      () => formatter.verifyCredential(`${credential}e30~`, verifyOptions()),
      "BR_0189",
      "array",
    );
    await expectCredkitError(
      () => formatter.verifyCredential(`${credential}%%~`, verifyOptions()),
      "BR_0189",
      "base64url",
    );
    await expectCredkitError(
      () => formatter.verifyCredential(`${credential}~`, verifyOptions()),
      "BR_0189",
      "empty disclosure",
    );
  });

  it("rejects a wrong typ and accepts the legacy vc+sd-jwt", async () => {
    const { jwt, disclosures } = partsOf(credential);
    const { payload } = decodeCompactJws(jwt);
    const resign = async (typ: string | undefined) =>
      `${await signCompactJws(typ === undefined ? {} : { typ }, payload, issuerKey.signer)}~${disclosures.join("~")}~`;
    await expectCredkitError(
      async () => formatter.verifyCredential(await resign("JWT"), verifyOptions()),
      "BR_0355",
      'typ must be "dc+sd-jwt", got "JWT"',
    );
    await expectCredkitError(
      async () => formatter.verifyCredential(await resign(undefined), verifyOptions()),
      "BR_0355",
      "typ",
    );
    const legacy = await formatter.verifyCredential(await resign("vc+sd-jwt"), verifyOptions());
    expect(legacy.claims).toEqual(claims);
  });

  it("rejects an expired credential beyond leeway and accepts it within leeway", async () => {
    const afterExpiry = new Date(expiresAt.getTime() + 20_000);
    await expectCredkitError(
      () => formatter.verifyCredential(credential, { ...verifyOptions(), now: afterExpiry, leeway: 10 }),
      "BR_0355",
      `credential expired at ${expiresAt.toISOString()}`,
    );
    const parsed = await formatter.verifyCredential(credential, { ...verifyOptions(), now: afterExpiry, leeway: 30 });
    expect(parsed.expiresAt).toEqual(expiresAt);
  });

  it("rejects a credential not yet valid or issued in the future", async () => {
    const notBefore = new Date(now.getTime() + 3600_000);
    const later = await formatter.formatCredential(input({ notBefore }));
    await expectCredkitError(() => formatter.verifyCredential(later, verifyOptions()), "BR_0355", "not valid before");
    const future = await formatter.formatCredential(input({ issuedAt: new Date(now.getTime() + 120_000) }));
    await expectCredkitError(
      () => formatter.verifyCredential(future, verifyOptions()),
      "BR_0355",
      "issued in the future",
    );
  });

  it("rejects selectively disclosed protected claims and duplicate digests", async () => {
    const exp = createDisclosure("exp", numericDateOf(expiresAt));
    const name = createDisclosure("given_name", "Erika");
    const sign = (payload: Record<string, unknown>) =>
      signCompactJws({ typ: "dc+sd-jwt" }, { iss: ISSUER, vct: VCT, _sd_alg: "sha-256", ...payload }, issuerKey.signer);
    const hiddenExp = `${await sign({ _sd: [exp.digest] })}~${exp.encoded}~`;
    await expectCredkitError(
      () => formatter.verifyCredential(hiddenExp, verifyOptions()),
      "BR_0355",
      "claim exp must not be selectively disclosable",
    );
    const twice = `${await sign({ _sd: [name.digest], nested: { _sd: [name.digest] } })}~${name.encoded}~`;
    await expectCredkitError(
      () => formatter.verifyCredential(twice, verifyOptions()),
      "BR_0355",
      "occurs more than once",
    );
    const clash = `${await sign({ given_name: "Eve", _sd: [name.digest] })}~${name.encoded}~`;
    await expectCredkitError(() => formatter.verifyCredential(clash, verifyOptions()), "BR_0355", "already exists");
    const reserved = createDisclosure("x", 1);
    const reservedEncoded = Buffer.from(JSON.stringify([reserved.salt, "_sd", 1])).toString("base64url");
    await expectCredkitError(
      async () => formatter.verifyCredential(`${await sign({})}~${reservedEncoded}~`, verifyOptions()),
      "BR_0355",
      'reserved claim name "_sd"',
    );
    const sha512 = `${await sign({ _sd_alg: "sha-512" })}~`;
    await expectCredkitError(() => formatter.verifyCredential(sha512, verifyOptions()), "BR_0355", "_sd_alg");
    const noVct = `${await signCompactJws({ typ: "dc+sd-jwt" }, { iss: ISSUER }, issuerKey.signer)}~`;
    await expectCredkitError(() => formatter.verifyCredential(noVct, verifyOptions()), "BR_0355", "vct is missing");
  });

  it("rejects malformed input with BR_0189", async () => {
    await expectCredkitError(() => formatter.verifyCredential("not an sd-jwt", verifyOptions()), "BR_0189", "~");
    await expectCredkitError(() => formatter.verifyCredential("a.b~", verifyOptions()), "BR_0189", "three");
    await expectCredkitError(() => formatter.verifyCredential("~", verifyOptions()), "BR_0189");
  });

  it("does not accept a presentation with a KB-JWT as an issued credential", async () => {
    await expectCredkitError(
      async () => formatter.verifyCredential(await present([["given_name"]]), verifyOptions()),
      "BR_0355",
      "key binding JWT",
    );
  });
});

describe("SD-JWT VC formatter: presentation", () => {
  const cases: [string, (string | number)[][], Record<string, unknown>, number][] = [
    ["nothing", [], {}, 0],
    ["one top-level claim", [["given_name"]], { given_name: "Erika" }, 1],
    ["false and null values", [["is_over_18"], ["middle_name"]], { is_over_18: true, middle_name: null }, 2],
    ["a nested claim (with its parent)", [["address", "locality"]], { address: { locality: "Köln" } }, 2],
    ["a whole object", [["address"]], { address: claims.address }, 4],
    ["one array element", [["nationalities", 1]], { nationalities: ["FR"] }, 2],
    ["a whole array", [["nationalities"]], { nationalities: ["DE", "FR"] }, 3],
    ["a claim inside an array element", [["degrees", 1, "name"]], { degrees: [{ name: "Mathematics" }] }, 3],
    [
      "several paths sharing a parent",
      [["address", "street_address"], ["address", "country"], ["family_name"]],
      { address: { street_address: "Heidestraße 17", country: "DE" }, family_name: "Mustermann" },
      4,
    ],
  ];

  it.each(cases)("discloses %s", async (_name, disclose, expected, disclosureCount) => {
    const presentation = await present(disclose);
    expect(partsOf(presentation).disclosures).toHaveLength(disclosureCount);
    const parsed = await formatter.verifyPresentation(presentation, presentationOptions());
    expect(parsed.disclosedClaims).toEqual(expected);
    expect(parsed.claims).toEqual(expected);
    expect(parsed.keyBinding).toEqual({ audience: AUDIENCE, nonce: NONCE, issuedAt: now });
    expect(parsed.issuer).toBe(ISSUER);
    expect(parsed.type).toBe(VCT);
    expect(parsed.holderJwk).toEqual(holderKey.publicJwk);
  });

  it("presents without key binding when the verifier does not require it", async () => {
    const presentation = await present([["given_name"]], false);
    expect(presentation.endsWith("~")).toBe(true);
    const parsed = await formatter.verifyPresentation(presentation, presentationOptions({ keyBinding: undefined }));
    expect(parsed.disclosedClaims).toEqual({ given_name: "Erika" });
    expect(parsed.keyBinding).toBeUndefined();
  });

  it("verifies a KB-JWT that is present although not required (without comparing aud and nonce)", async () => {
    const parsed = await formatter.verifyPresentation(
      await present([]),
      presentationOptions({ keyBinding: undefined }),
    );
    expect(parsed.keyBinding?.nonce).toBe(NONCE);
  });

  it("rejects a path that is not in the credential", async () => {
    await expectCredkitError(() => present([["address", "postal_code"]]), "BR_0003", "address.postal_code");
    await expectCredkitError(() => present([["nationalities", 2]]), "BR_0003", "nationalities[2]");
    await expectCredkitError(() => present([["address", 0]]), "BR_0003");
  });

  it("rejects key binding for a credential without cnf.jwk", async () => {
    const unbound = await formatter.formatCredential(input({ holderJwk: undefined }));
    await expectCredkitError(
      () =>
        formatter.createPresentation(unbound, {
          disclose: [],
          keyBinding: { audience: AUDIENCE, nonce: NONCE, issuedAt: now, signer: holderKey.signer },
        }),
      "BR_0355",
      "cnf.jwk",
    );
    const kbJwt = partsOf(await present([])).kb;
    await expectCredkitError(
      () => formatter.verifyPresentation(`${unbound}${kbJwt}`, presentationOptions()),
      "BR_0355",
      "no holder binding key",
    );
  });

  it("rejects a missing KB-JWT when one is required", async () => {
    await expectCredkitError(
      async () => formatter.verifyPresentation(await present([["given_name"]], false), presentationOptions()),
      "BR_0355",
      "key binding JWT missing",
    );
  });

  it("rejects a KB-JWT with the wrong nonce or audience", async () => {
    const presentation = await present([["given_name"]]);
    await expectCredkitError(
      () =>
        formatter.verifyPresentation(
          presentation,
          presentationOptions({ keyBinding: { audience: AUDIENCE, nonce: "other" } }),
        ),
      "BR_0355",
      "key binding nonce mismatch",
    );
    await expectCredkitError(
      () =>
        formatter.verifyPresentation(
          presentation,
          presentationOptions({ keyBinding: { audience: "https://evil.example", nonce: NONCE } }),
        ),
      "BR_0355",
      "key binding aud mismatch",
    );
  });

  it("rejects a stale or future KB-JWT iat, accepts one within leeway", async () => {
    const presentation = await present([["given_name"]]);
    await expectCredkitError(
      () => formatter.verifyPresentation(presentation, presentationOptions({ now: new Date(now.getTime() + 120_000) })),
      "BR_0355",
      "key binding JWT is stale",
    );
    await expectCredkitError(
      () => formatter.verifyPresentation(presentation, presentationOptions({ now: new Date(now.getTime() - 120_000) })),
      "BR_0355",
      "issued in the future",
    );
    const parsed = await formatter.verifyPresentation(
      presentation,
      presentationOptions({ now: new Date(now.getTime() + 20_000) }),
    );
    expect(parsed.keyBinding?.issuedAt).toEqual(now);
  });

  it("rejects a KB-JWT signed by another key", async () => {
    const mallory = createTestKey("EDDSA");
    const presentation = await formatter.createPresentation(credential, {
      disclose: [["given_name"]],
      keyBinding: { audience: AUDIENCE, nonce: NONCE, issuedAt: now, signer: mallory.signer },
    });
    await expectCredkitError(
      () => formatter.verifyPresentation(presentation, presentationOptions()),
      "BR_0355",
      "key binding signature invalid",
    );
    const wrongAlg = await formatter.createPresentation(credential, {
      disclose: [],
      keyBinding: { audience: AUDIENCE, nonce: NONCE, issuedAt: now, signer: createTestKey("ECDSA").signer },
    });
    await expectCredkitError(
      () => formatter.verifyPresentation(wrongAlg, presentationOptions()),
      "BR_0355",
      "key binding signature: JWK does not fit ES256",
    );
  });

  it("rejects a KB-JWT whose sd_hash does not cover the presented disclosures", async () => {
    const presentation = await present([["given_name"], ["family_name"]]);
    const { jwt, disclosures, kb } = partsOf(presentation);
    // drop a disclosure: the KB-JWT still verifies, but no longer matches
    await expectCredkitError(
      () => formatter.verifyPresentation(`${jwt}~${disclosures[0]}~${kb}`, presentationOptions()),
      "BR_0355",
      "key binding sd_hash does not match",
    );
    // a KB-JWT with a made-up sd_hash
    const forged = await signCompactJws(
      { typ: "kb+jwt" },
      { iat: numericDateOf(now), aud: AUDIENCE, nonce: NONCE, sd_hash: "AAAA" },
      holderKey.signer,
    );
    await expectCredkitError(
      () => formatter.verifyPresentation(`${jwt}~${disclosures.join("~")}~${forged}`, presentationOptions()),
      "BR_0355",
      "sd_hash",
    );
  });

  it("rejects a KB-JWT with the wrong typ", async () => {
    const { jwt, disclosures } = partsOf(await present([["given_name"]], false));
    const sdJwt = `${jwt}~${disclosures.join("~")}~`;
    const { computeSdHash } = await import("../../../../src/providers/format/sd-jwt-vc/sd-hash.js");
    const kb = await signCompactJws(
      { typ: "JWT" },
      { iat: numericDateOf(now), aud: AUDIENCE, nonce: NONCE, sd_hash: computeSdHash(sdJwt) },
      holderKey.signer,
    );
    await expectCredkitError(
      () => formatter.verifyPresentation(sdJwt + kb, presentationOptions()),
      "BR_0355",
      'typ must be "kb+jwt"',
    );
  });

  it("rejects a presentation with a child disclosure but not its parent", async () => {
    const presentation = await present([["address", "locality"]], false);
    const { jwt, disclosures } = partsOf(presentation);
    const child = disclosures.find((d) => Buffer.from(d, "base64url").toString("utf8").includes('"locality"'))!;
    await expectCredkitError(
      () => formatter.verifyPresentation(`${jwt}~${child}~`, presentationOptions({ keyBinding: undefined })),
      "BR_0355",
      'disclosure not referenced by the credential: "locality"',
    );
  });

  it("refuses to present a presentation again", async () => {
    await expectCredkitError(
      async () => formatter.createPresentation(await present([]), { disclose: [] }),
      "BR_0355",
      "already carries a key binding JWT",
    );
  });
});
