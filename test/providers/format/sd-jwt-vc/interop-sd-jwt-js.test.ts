/**
 * Interop with the OpenWallet Foundation TypeScript implementation (@sd-jwt/sd-jwt-vc 0.19.0): it verifies what we
 * issue and present, and we verify and present what it issues.
 */
import { digest, ES256, generateSalt } from "@sd-jwt/crypto-nodejs";
import { SDJwtVcInstance, type SdJwtVcPayload } from "@sd-jwt/sd-jwt-vc";
import type { DisclosureFrame, JwtPayload } from "@sd-jwt/types";
import { compactVerify, importJWK } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import type { PrivateJwk, PublicJwk } from "../../../../src/ports/key-algorithm.js";
import type { Signer } from "../../../../src/ports/signer.js";
import { createSdJwtVcFormatter } from "../../../../src/providers/format/sd-jwt-vc/index.js";
import { numericDateOf } from "../../../../src/providers/jose/jwt-claims.js";
import { algorithms, createTestKey, expectCredkitError, type TestKey } from "../../jose/test-keys.js";

const ISSUER = "https://issuer.example.com";
const KID = "issuer-key-1";
const VCT = "urn:eudi:pid:1";
const AUDIENCE = "https://verifier.example.org";
const NONCE = "nonce-5e1f";
const now = new Date("2026-03-01T12:00:00.000Z");
const iat = numericDateOf(now) - 3600;
const exp = numericDateOf(now) + 86400;

const claims = {
  given_name: "Erika",
  family_name: "Mustermann",
  age_over_18: true,
  address: { street_address: "Heidestraße 17", locality: "Köln", postal_code: "51147" },
  nationalities: ["DE", "AT"],
  degrees: [{ type: "Bachelor", field: "Physics" }],
};

const formatter = createSdJwtVcFormatter({ algorithms });

/** What the library gets as kbVerifier: the KB-JWT signature checked with jose against the credential's cnf.jwk. */
async function kbVerifier(data: string, signature: string, payload: JwtPayload): Promise<boolean> {
  const jwk = payload.cnf?.jwk as PublicJwk | undefined;
  if (jwk === undefined) return false;
  const alg = jwk.kty === "OKP" ? "EdDSA" : "ES256";
  try {
    await compactVerify(`${data}.${signature}`, await importJWK(jwk, alg));
    return true;
  } catch {
    return false;
  }
}

/** The registered claims the library returns along with the subject claims. */
function subjectClaimsOf(payload: Record<string, unknown>): Record<string, unknown> {
  const { iss: _iss, iat: _iat, exp: _exp, nbf: _nbf, vct: _vct, cnf: _cnf, status: _status, ...rest } = payload;
  return rest;
}

function signerFromPrivateJwk(privateJwk: PrivateJwk): Signer {
  const ecdsa = algorithms.get("ECDSA")!;
  const prepared = ecdsa.preparePrivateKey(ecdsa.privateKeyFromJwk(privateJwk).privateKey);
  return { alg: "ES256", sign: async (data) => ecdsa.sign(prepared, data) };
}

describe("interop (a): @sd-jwt/sd-jwt-vc verifies what credkit issues and presents", () => {
  let issuerKey: TestKey;
  let holderKey: TestKey;
  let credential: string;
  let library: SDJwtVcInstance;

  beforeAll(async () => {
    issuerKey = createTestKey("ECDSA", KID);
    holderKey = createTestKey("EDDSA");
    credential = await formatter.formatCredential({
      issuer: ISSUER,
      type: VCT,
      claims,
      holderJwk: holderKey.publicJwk,
      issuedAt: new Date(iat * 1000),
      expiresAt: new Date(exp * 1000),
      signer: issuerKey.signer,
    });
    library = new SDJwtVcInstance({
      hasher: digest,
      hashAlg: "sha-256",
      verifier: await ES256.getVerifier(issuerKey.publicJwk),
      kbVerifier,
    });
  });

  it("verifies the issued credential and finds every claim", async () => {
    const result = await library.verify(credential, { currentDate: numericDateOf(now) });
    expect(result.header).toEqual({ typ: "dc+sd-jwt", alg: "ES256", kid: KID });
    expect(result.payload).toMatchObject({ iss: ISSUER, vct: VCT, iat, exp, cnf: { jwk: holderKey.publicJwk } });
    expect(subjectClaimsOf(result.payload as Record<string, unknown>)).toEqual(claims);
    // the library's verifier is really checking: a credential signed by another key fails
    const other = await formatter.formatCredential({
      issuer: ISSUER,
      type: VCT,
      claims,
      issuedAt: new Date(iat * 1000),
      signer: createTestKey("ECDSA", KID).signer,
    });
    await expect(library.verify(other, { currentDate: numericDateOf(now) })).rejects.toThrow(/Signature/i);
    const keys = await library.keys(credential);
    expect(keys).toEqual(
      expect.arrayContaining(["given_name", "address.locality", "nationalities.1", "degrees.0.field"]),
    );
  });

  it("verifies a credkit presentation with the KB-JWT required", async () => {
    const presentation = await formatter.createPresentation(credential, {
      disclose: [["given_name"], ["address", "locality"], ["nationalities", 1], ["degrees", 0, "type"]],
      keyBinding: { audience: AUDIENCE, nonce: NONCE, issuedAt: now, signer: holderKey.signer },
    });
    const result = await library.verify(presentation, { currentDate: numericDateOf(now), keyBindingNonce: NONCE });
    expect(subjectClaimsOf(result.payload as Record<string, unknown>)).toEqual({
      given_name: "Erika",
      address: { locality: "Köln" },
      nationalities: ["AT"],
      degrees: [{ type: "Bachelor" }],
    });
    expect(result.kb?.header).toEqual({ typ: "kb+jwt", alg: "EdDSA" });
    expect(result.kb?.payload).toMatchObject({ aud: AUDIENCE, nonce: NONCE, iat: numericDateOf(now) });

    // the library enforces what it checks: nonce and KB-JWT presence
    await expect(
      library.verify(presentation, { currentDate: numericDateOf(now), keyBindingNonce: "x" }),
    ).rejects.toThrow();
    const withoutKb = await formatter.createPresentation(credential, { disclose: [["given_name"]] });
    await expect(
      library.verify(withoutKb, { currentDate: numericDateOf(now), keyBindingNonce: NONCE }),
    ).rejects.toThrow(/Key Binding JWT not exist/);
  });
});

describe("interop (b): credkit verifies and presents what @sd-jwt/sd-jwt-vc issues", () => {
  let issued: string;
  let library: SDJwtVcInstance;
  let issuerPublicJwk: PublicJwk;
  let holderPublicJwk: PublicJwk;
  let holderSigner: Signer;

  const resolveIssuerKey = async (issuer: string, header: Record<string, unknown>) => {
    if (issuer !== ISSUER || header.kid !== KID) throw new Error("unknown issuer key");
    return issuerPublicJwk;
  };
  const verifyOptions = () => ({ resolveIssuerKey, now, leeway: 30 });

  beforeAll(async () => {
    const issuer = await ES256.generateKeyPair();
    const holder = await ES256.generateKeyPair();
    issuerPublicJwk = issuer.publicKey as PublicJwk;
    holderPublicJwk = holder.publicKey as PublicJwk;
    holderSigner = signerFromPrivateJwk(holder.privateKey as PrivateJwk);
    library = new SDJwtVcInstance({
      signer: await ES256.getSigner(issuer.privateKey),
      signAlg: "ES256",
      verifier: await ES256.getVerifier(issuer.publicKey),
      kbSigner: await ES256.getSigner(holder.privateKey),
      kbSignAlg: "ES256",
      kbVerifier,
      hasher: digest,
      hashAlg: "sha-256",
      saltGenerator: generateSalt,
    });
    const payload: SdJwtVcPayload = { iss: ISSUER, iat, exp, vct: VCT, cnf: { jwk: holder.publicKey }, ...claims };
    const disclosureFrame = {
      _sd: ["given_name", "family_name", "age_over_18", "address", "nationalities", "degrees"],
      _sd_decoy: 2,
      address: { _sd: ["street_address", "locality", "postal_code"] },
      nationalities: { _sd: [0, 1] },
      degrees: { _sd: [0], 0: { _sd: ["type", "field"] } },
    } as unknown as DisclosureFrame<SdJwtVcPayload>;
    issued = await library.issue(payload, disclosureFrame, { header: { kid: KID } });
  });

  it("verifies the library's credential and reconstructs every claim (decoys ignored)", async () => {
    const [jwt] = issued.split("~");
    const issuerPayload = JSON.parse(Buffer.from(jwt!.split(".")[1]!, "base64url").toString("utf8"));
    expect(issuerPayload._sd).toHaveLength(6 + 2); // six claims and two decoys
    const parsed = await formatter.verifyCredential(issued, verifyOptions());
    expect(parsed.issuer).toBe(ISSUER);
    expect(parsed.type).toBe(VCT);
    expect(parsed.claims).toEqual(claims);
    expect(parsed.holderJwk).toEqual(holderPublicJwk);
    expect(parsed.issuedAt).toEqual(new Date(iat * 1000));
    expect(parsed.expiresAt).toEqual(new Date(exp * 1000));
    expect(parsed.header).toMatchObject({ typ: "dc+sd-jwt", alg: "ES256", kid: KID });
  });

  it("presents the library's credential selectively and verifies its own presentation", async () => {
    const presentation = await formatter.createPresentation(issued, {
      disclose: [["family_name"], ["address", "postal_code"], ["nationalities", 0], ["degrees", 0, "field"]],
      keyBinding: { audience: AUDIENCE, nonce: NONCE, issuedAt: now, signer: holderSigner },
    });
    const parsed = await formatter.verifyPresentation(presentation, {
      ...verifyOptions(),
      keyBinding: { audience: AUDIENCE, nonce: NONCE },
    });
    const expected = {
      family_name: "Mustermann",
      address: { postal_code: "51147" },
      nationalities: ["DE"],
      degrees: [{ field: "Physics" }],
    };
    expect(parsed.disclosedClaims).toEqual(expected);
    expect(parsed.keyBinding).toEqual({ audience: AUDIENCE, nonce: NONCE, issuedAt: now });

    // and the library accepts the presentation credkit made of its credential
    const result = await library.verify(presentation, { currentDate: numericDateOf(now), keyBindingNonce: NONCE });
    expect(subjectClaimsOf(result.payload as Record<string, unknown>)).toEqual(expected);
  });

  it("verifies a presentation the library makes, and rejects it for another nonce", async () => {
    const presentation = await library.present(
      issued,
      { given_name: true, address: { locality: true }, nationalities: { 1: true } },
      { kb: { payload: { iat: numericDateOf(now), aud: AUDIENCE, nonce: NONCE } } },
    );
    const parsed = await formatter.verifyPresentation(presentation, {
      ...verifyOptions(),
      keyBinding: { audience: AUDIENCE, nonce: NONCE },
    });
    expect(parsed.disclosedClaims).toEqual({
      given_name: "Erika",
      address: { locality: "Köln" },
      nationalities: ["AT"],
    });
    await expectCredkitError(
      () =>
        formatter.verifyPresentation(presentation, {
          ...verifyOptions(),
          keyBinding: { audience: AUDIENCE, nonce: "x" },
        }),
      "BR_0355",
      "nonce mismatch",
    );
  });
});
