/**
 * x509_san_dns host matching of the wallet (OpenID4VP 1.0 §5.9.3): the deliberate, literal rules of docs/wallet.md —
 * ASCII case-insensitive, no wildcards, no trailing dots, A-labels for internationalised names, no IP addresses as
 * anything but dNSName text.
 */
import { describe, expect, it } from "vitest";
import {
  authenticateCertificateRequest,
  checkSanDnsResponseUri,
} from "../../src/engines/holder/openid4vp/verifier-authentication.js";

const refused = (run: () => unknown) =>
  expect(run).toThrowError(expect.objectContaining({ code: "BR_0085" }) as unknown as Error);

describe("x509_san_dns client identifier and response_uri host", () => {
  it("matches the response_uri host case-insensitively", () => {
    expect(() =>
      checkSanDnsResponseUri("Verifier.Example", { response_uri: "https://verifier.EXAMPLE/response" }),
    ).not.toThrow();
  });

  it("refuses a trailing dot, another host, a subdomain and a userinfo trick", () => {
    refused(() => checkSanDnsResponseUri("verifier.example", { response_uri: "https://verifier.example./r" }));
    refused(() => checkSanDnsResponseUri("verifier.example", { response_uri: "https://evil.example/r" }));
    refused(() => checkSanDnsResponseUri("verifier.example", { response_uri: "https://a.verifier.example/r" }));
    refused(() =>
      checkSanDnsResponseUri("verifier.example", { response_uri: "https://verifier.example@evil.example/r" }),
    );
    refused(() => checkSanDnsResponseUri("verifier.example", { response_uri: "not a url" }));
  });

  it("compares internationalised hosts in their A-label form", () => {
    expect(() =>
      checkSanDnsResponseUri("xn--bcher-kva.example", { response_uri: "https://bücher.example/response" }),
    ).not.toThrow();
  });

  it("refuses client identifiers that are not DNS names before looking at any certificate", () => {
    const decoded = { header: {}, payload: {}, signingInput: new Uint8Array(), signature: new Uint8Array() };
    const options = {
      trustAnchors: [],
      leeway: 0,
      now: new Date(),
      jwsVerifier: { algorithms: [], verify: () => true },
    };
    for (const value of ["*.example.com", "verifier.example.", "bücher.example", "[::1]", "a_b.example", ""]) {
      expect(() => authenticateCertificateRequest(decoded, "x509_san_dns", value, options)).toThrowError(
        expect.objectContaining({ code: "BR_0085", detail: expect.stringContaining("must be a DNS name") }),
      );
    }
  });
});
