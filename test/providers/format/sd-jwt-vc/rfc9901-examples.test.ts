/**
 * RFC 9901 examples (test/fixtures/rfc9901, copied from the RFC): the §4.2 disclosure digests, the §5.1 issued SD-JWT
 * and the §5.2 SD-JWT+KB, signed with the example keys of Appendix A.5.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { PublicJwk } from "../../../../src/ports/key-algorithm.js";
import {
  applyDisclosures,
  createSdJwtVcFormatter,
  decodeDisclosure,
  digestDisclosure,
  splitSdJwt,
  verifyKeyBindingJwt,
} from "../../../../src/providers/format/sd-jwt-vc/index.js";
import { decodeCompactJws } from "../../../../src/providers/jose/decode-compact-jws.js";
import { createJwsVerifier } from "../../../../src/providers/jose/verify-jws-signature.js";
import { algorithms, expectCredkitError } from "../../jose/test-keys.js";

const fixture = (name: string) => readFileSync(new URL(`../../../fixtures/rfc9901/${name}`, import.meta.url), "utf8");
const text = (name: string) => fixture(name).trim();
const json = <T = Record<string, unknown>>(name: string) => JSON.parse(fixture(name)) as T;

const issuerKey = json<PublicJwk>("appendix-a.5-issuer-key.json");
const verifier = createJwsVerifier(algorithms);

describe("RFC 9901 §4.2: disclosure digests", () => {
  it.each([
    // §4.2.1 (object property) and §4.2.3 (its digest)
    [
      "WyJfMjZiYzRMVC1hYzZxMktJNmNCVzVlcyIsICJmYW1pbHlfbmFtZSIsICJNw7ZiaXVzIl0",
      "X9yH0Ajrdm1Oij4tWso9UzzKJvPoDxwmuEcO3XAdRC0",
      { salt: "_26bc4LT-ac6q2KI6cBW5es", name: "family_name", value: "Möbius" },
    ],
    // §4.2.2 (array element)
    [
      "WyJsa2x4RjVqTVlsR1RQVW92TU5JdkNBIiwgIkZSIl0",
      "w0I8EKcdCtUPkGCNUrfwVp2xEgNjtoIDlOxc9-PlOhs",
      { salt: "lklxF5jMYlGTPUovMNIvCA", value: "FR" },
    ],
  ])("%s hashes to %s", (encoded, digest, contents) => {
    expect(digestDisclosure(encoded)).toBe(digest);
    expect(decodeDisclosure(encoded)).toEqual({ encoded, digest, ...contents });
  });
});

describe("RFC 9901 §5.1: the issued SD-JWT", () => {
  const sdJwt = text("section-5.1-sd-jwt.txt");
  const parts = splitSdJwt(sdJwt);

  it("is the §5.1 issuer-signed JWT followed by ten Disclosures", () => {
    expect(parts.issuerJwt).toBe(text("section-5.1-issuer-signed-jwt.txt"));
    expect(parts.disclosures).toHaveLength(10);
    expect(parts.keyBindingJwt).toBeUndefined();
    expect(parts.sdJwt).toBe(sdJwt);
  });

  it("carries a valid ES256 signature by the Appendix A.5 issuer key", () => {
    const jws = decodeCompactJws(parts.issuerJwt);
    expect(jws.header).toEqual({ alg: "ES256", typ: "example+sd-jwt" });
    expect(verifier.verify("ES256", issuerKey, jws.signingInput, jws.signature)).toBe(true);
    const altered = Uint8Array.from(jws.signature);
    altered[0] = altered[0]! ^ 1;
    expect(verifier.verify("ES256", issuerKey, jws.signingInput, altered)).toBe(false);
  });

  it("reconstructs the §5.1 input claims from all Disclosures", () => {
    const { payload } = decodeCompactJws(parts.issuerJwt);
    const { claims, applied } = applyDisclosures(payload, parts.disclosures.map(decodeDisclosure));
    const { iss, iat, exp, cnf, ...subject } = claims;
    expect({ iss, iat, exp }).toEqual({ iss: "https://issuer.example.com", iat: 1683000000, exp: 1883000000 });
    expect(cnf).toEqual({ jwk: expect.objectContaining({ kty: "EC", crv: "P-256" }) });
    expect(subject).toEqual(json("section-5.1-input-claims.json"));
    expect(applied.map((entry) => entry.path)).toEqual(
      expect.arrayContaining([["given_name"], ["address"], ["nationalities", 0], ["nationalities", 1]]),
    );
  });

  it("is not an SD-JWT VC (typ example+sd-jwt, no vct): the formatter says so", async () => {
    const formatter = createSdJwtVcFormatter({ algorithms });
    await expectCredkitError(
      () =>
        formatter.verifyCredential(sdJwt, {
          resolveIssuerKey: async () => issuerKey,
          now: new Date(1_700_000_000_000),
          leeway: 0,
        }),
      "BR_0355",
      'typ must be "dc+sd-jwt", got "example+sd-jwt"',
    );
  });
});

describe("RFC 9901 §5.2: the SD-JWT+KB", () => {
  const presentation = text("section-5.2-sd-jwt-kb.txt");
  const parts = splitSdJwt(presentation);
  const kbIssuedAt = new Date(1748537244 * 1000);

  it("reconstructs the documented Processed SD-JWT Payload from the four Disclosures", () => {
    expect(parts.issuerJwt).toBe(text("section-5.1-issuer-signed-jwt.txt"));
    expect(parts.disclosures).toHaveLength(4);
    const jws = decodeCompactJws(parts.issuerJwt);
    expect(verifier.verify("ES256", issuerKey, jws.signingInput, jws.signature)).toBe(true);
    const { claims } = applyDisclosures(jws.payload, parts.disclosures.map(decodeDisclosure));
    expect(claims).toEqual(json("section-5.2-processed-payload.json"));
  });

  it("has a KB-JWT signed by the cnf.jwk holder key with the documented nonce, aud and sd_hash", () => {
    const { payload } = decodeCompactJws(parts.issuerJwt);
    const holderJwk = (payload.cnf as { jwk: PublicJwk }).jwk;
    const expected = {
      holderJwk,
      sdJwt: parts.sdJwt,
      audience: "https://verifier.example.org",
      nonce: "1234567890",
      now: kbIssuedAt,
      leeway: 60,
    };
    expect(verifyKeyBindingJwt(parts.keyBindingJwt!, expected, verifier)).toEqual({
      audience: "https://verifier.example.org",
      nonce: "1234567890",
      issuedAt: kbIssuedAt,
    });
    expect(decodeCompactJws(parts.keyBindingJwt!).payload.sd_hash).toBe("0_Af-2B-EhLWX5ydh_w2xzwmO6iM66B_2QCEanI4fUY");
  });

  it("fails the KB-JWT for another nonce, another key, fewer Disclosures, a later time", async () => {
    const { payload } = decodeCompactJws(parts.issuerJwt);
    const expected = {
      holderJwk: (payload.cnf as { jwk: PublicJwk }).jwk,
      sdJwt: parts.sdJwt,
      audience: "https://verifier.example.org",
      nonce: "1234567890",
      now: kbIssuedAt,
      leeway: 60,
    };
    const kb = parts.keyBindingJwt!;
    await expectCredkitError(() => verifyKeyBindingJwt(kb, { ...expected, nonce: "x" }, verifier), "BR_0355", "nonce");
    await expectCredkitError(
      () => verifyKeyBindingJwt(kb, { ...expected, holderJwk: issuerKey }, verifier),
      "BR_0355",
      "signature invalid",
    );
    // sd_hash covers the Disclosures: with one left out it no longer matches
    const fewer = `${parts.issuerJwt}~${parts.disclosures.slice(1).join("~")}~`;
    await expectCredkitError(
      () => verifyKeyBindingJwt(kb, { ...expected, sdJwt: fewer }, verifier),
      "BR_0355",
      "sd_hash",
    );
    await expectCredkitError(
      () => verifyKeyBindingJwt(kb, { ...expected, now: new Date(kbIssuedAt.getTime() + 3600_000) }, verifier),
      "BR_0355",
      "stale",
    );
  });
});
