import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DidDocument } from "../../src/domain/did.js";
import type { DidKeyRole } from "../../src/domain/enums.js";
import { decodeBase64urlUtf8 } from "../../src/encoding/base64url.js";
import { encodeMultibase, MULTICODEC } from "../../src/encoding/multibase.js";
import { CredkitError } from "../../src/errors/index.js";
import type { DidCreateInput, DidCreateKey } from "../../src/ports/did-method.js";
import { createJwkDidMethod, createKeyDidMethod, createWebDidMethod, parseDid } from "../../src/providers/did/index.js";
import { createKeyAlgorithms } from "../../src/providers/key-algorithm/index.js";

const algorithms = createKeyAlgorithms();

async function expectCode(action: () => unknown, code: string): Promise<void> {
  let error: unknown;
  try {
    await action();
  } catch (caught) {
    error = caught;
  }
  expect(error, "expected a CredkitError").toBeInstanceOf(CredkitError);
  expect((error as CredkitError).code).toBe(code);
}

function keyOf(keyId: string, keyType: DidCreateKey["keyType"]): DidCreateKey {
  return { keyId, keyType, publicKey: algorithms.get(keyType)!.generateKeyPair().publicKey };
}

function inputWith(
  keys: Partial<Record<DidKeyRole, DidCreateKey[]>>,
  id = "0b9f7a4e-3c1d-4f57-9d1e-5e2a8b6c7d10",
): DidCreateInput {
  return { id, keys: keys as Record<DidKeyRole, DidCreateKey[]>, params: {} };
}

describe("parseDid (DID Core §3.1)", () => {
  it("splits method and method-specific id", () => {
    expect(parseDid("did:web:example.com%3A8443:a:b")).toEqual({
      did: "did:web:example.com%3A8443:a:b",
      method: "web",
      methodSpecificId: "example.com%3A8443:a:b",
    });
  });

  it("rejects values that are not DIDs with BR_0364", async () => {
    for (const bad of [
      "",
      "did:",
      "did:key",
      "did:KEY:z6Mk",
      "did:key:",
      "did:key:a#b",
      "did:key:a/b",
      "did:web:a:",
      "urn:x:y",
      "did:key:a%zz",
    ]) {
      await expectCode(() => parseDid(bad), "BR_0364");
    }
  });
});

describe("did:key", () => {
  const method = createKeyDidMethod({ algorithms });

  it("declares its capabilities", () => {
    expect(method.capabilities).toEqual({
      operations: ["RESOLVE", "CREATE"],
      keyAlgorithms: ["EDDSA", "ECDSA"],
      methodNames: ["key"],
    });
  });

  it("resolves the Ed25519 test vector of the did:key spec", async () => {
    const did = "did:key:z6MkiTBz1ymuepAQ4HEHYSF1H8quG5GLVVQR3djdX3mDooWp";
    const vm = `${did}#z6MkiTBz1ymuepAQ4HEHYSF1H8quG5GLVVQR3djdX3mDooWp`;
    expect(await method.resolve(did)).toEqual({
      "@context": ["https://www.w3.org/ns/did/v1", "https://w3id.org/security/suites/jws-2020/v1"],
      id: did,
      verificationMethod: [
        {
          id: vm,
          type: "JsonWebKey2020",
          controller: did,
          publicKeyJwk: { kty: "OKP", crv: "Ed25519", x: "O2onvM62pC1io6jQKm8Nc2UyFXcd4kOmOsBIoYtZ2ik" },
        },
      ],
      authentication: [vm],
      assertionMethod: [vm],
      capabilityInvocation: [vm],
      capabilityDelegation: [vm],
    });
  });

  it("resolves the P-256 test vector of the did:key spec (with keyAgreement)", async () => {
    const did = "did:key:zDnaerDaTF5BXEavCrfRZEk316dpbLsfPDZ3WJ5hRTPFU2169";
    const document = await method.resolve(did);
    const vm = `${did}#zDnaerDaTF5BXEavCrfRZEk316dpbLsfPDZ3WJ5hRTPFU2169`;
    expect(document.verificationMethod).toEqual([
      {
        id: vm,
        type: "JsonWebKey2020",
        controller: did,
        publicKeyJwk: {
          kty: "EC",
          crv: "P-256",
          x: "fyNYMN0976ci7xqiSdag3buk-ZCwgXU4kz9XNkBlNUI",
          y: "hW2ojTNfH7Jbi8--CJUo3OCbH3y5n91g-IMA9MLMbTU",
        },
      },
    ]);
    expect(document.keyAgreement).toEqual([vm]);
    expect(document.assertionMethod).toEqual([vm]);
  });

  it.each(["EDDSA", "ECDSA"] as const)("%s: create then resolve gives back the key", async (type) => {
    const key = keyOf("k1", type);
    const created = await method.create(inputWith({ AUTHENTICATION: [key], ASSERTION_METHOD: [key] }));
    const multibase = created.did.slice("did:key:".length);
    expect(created.references).toEqual({ k1: multibase });
    expect(multibase.startsWith(type === "EDDSA" ? "z6Mk" : "zDn")).toBe(true);
    const document = await method.resolve(created.did);
    const jwk = document.verificationMethod[0]!.publicKeyJwk!;
    expect(algorithms.get(type)!.publicKeyFromJwk(jwk as never)).toEqual(key.publicKey);
  });

  it("holds exactly one key (BR_0030) of a supported type (BR_0065)", async () => {
    const a = keyOf("a", "EDDSA");
    const b = keyOf("b", "EDDSA");
    await expectCode(() => method.create(inputWith({})), "BR_0030");
    await expectCode(() => method.create(inputWith({ AUTHENTICATION: [a], ASSERTION_METHOD: [b] })), "BR_0030");
    await expectCode(() => method.validateKeys!(inputWith({ AUTHENTICATION: [a, b] })), "BR_0030");
    await expectCode(() => method.create(inputWith({ AUTHENTICATION: [keyOf("m", "ML_DSA")] })), "BR_0065");
  });

  it("rejects malformed and unsupported did:key values", async () => {
    await expectCode(() => method.resolve("did:key:z6MkiTBz1ymuepAQ4HEHYSF1H8quG5GLVVQR3djdX3mDooW0"), "BR_0364");
    await expectCode(() => method.resolve("did:key:uAAAA"), "BR_0364");
    // did:key §3.1.3 invalidPublicKeyLength: an ed25519-pub of 31 bytes, a p256-pub of 32 bytes
    await expectCode(
      () => method.resolve(`did:key:${encodeMultibase(MULTICODEC.ED25519_PUB, new Uint8Array(31))}`),
      "BR_0364",
    );
    await expectCode(
      () => method.resolve(`did:key:${encodeMultibase(MULTICODEC.P256_PUB, new Uint8Array(32))}`),
      "BR_0364",
    );
    // secp256k1 (0xe7) is a valid did:key credkit does not handle
    await expectCode(() => method.resolve("did:key:zQ3shokFTS3brHcDQrn82RUDfCZESWL1ZdCEJwekUDPQiYBme"), "BR_0363");
    await expectCode(() => method.resolve("did:jwk:abc"), "BR_0026");
  });
});

describe("did:jwk", () => {
  const method = createJwkDidMethod({ algorithms });

  it("resolves the P-256 example of the did:jwk spec", async () => {
    const did =
      "did:jwk:eyJjcnYiOiJQLTI1NiIsImt0eSI6IkVDIiwieCI6ImFjYklRaXVNczNpOF91c3pFakoydHBUdFJNNEVVM3l6OTFQSDZDZEgyVjAiLCJ5IjoiX0tjeUxqOXZXTXB0bm1LdG00NkdxRHo4d2Y3NEk1TEtncmwyR3pIM25TRSJ9";
    const vm = `${did}#0`;
    expect(await method.resolve(did)).toEqual({
      "@context": ["https://www.w3.org/ns/did/v1", "https://w3id.org/security/suites/jws-2020/v1"],
      id: did,
      verificationMethod: [
        {
          id: vm,
          type: "JsonWebKey2020",
          controller: did,
          publicKeyJwk: {
            crv: "P-256",
            kty: "EC",
            x: "acbIQiuMs3i8_uszEjJ2tpTtRM4EU3yz91PH6CdH2V0",
            y: "_KcyLj9vWMptnmKtm46GqDz8wf74I5LKgrl2GzH3nSE",
          },
        },
      ],
      assertionMethod: [vm],
      authentication: [vm],
      capabilityInvocation: [vm],
      capabilityDelegation: [vm],
      keyAgreement: [vm],
    });
  });

  it("creates the spec's DID from the same P-256 key (RFC 7638 member order)", async () => {
    const publicKey = algorithms.get("ECDSA")!.publicKeyFromJwk({
      kty: "EC",
      crv: "P-256",
      x: "acbIQiuMs3i8_uszEjJ2tpTtRM4EU3yz91PH6CdH2V0",
      y: "_KcyLj9vWMptnmKtm46GqDz8wf74I5LKgrl2GzH3nSE",
    });
    const created = await method.create(inputWith({ ASSERTION_METHOD: [{ keyId: "p", keyType: "ECDSA", publicKey }] }));
    expect(created).toEqual({
      did: "did:jwk:eyJjcnYiOiJQLTI1NiIsImt0eSI6IkVDIiwieCI6ImFjYklRaXVNczNpOF91c3pFakoydHBUdFJNNEVVM3l6OTFQSDZDZEgyVjAiLCJ5IjoiX0tjeUxqOXZXTXB0bm1LdG00NkdxRHo4d2Y3NEk1TEtncmwyR3pIM25TRSJ9",
      references: { p: "0" },
    });
  });

  it('resolves the X25519 example of the did:jwk spec (use "enc": keyAgreement only)', async () => {
    const did =
      "did:jwk:eyJrdHkiOiJPS1AiLCJjcnYiOiJYMjU1MTkiLCJ1c2UiOiJlbmMiLCJ4IjoiM3A3YmZYdDl3YlRUVzJIQzdPUTFOei1EUThoYmVHZE5yZngtRkctSUswOCJ9";
    const document = await method.resolve(did);
    expect(document.verificationMethod[0]!.publicKeyJwk).toEqual({
      kty: "OKP",
      crv: "X25519",
      use: "enc",
      x: "3p7bfXt9wbTTW2HC7OQ1Nz-DQ8hbeGdNrfx-FG-IK08",
    });
    expect(document.keyAgreement).toEqual([`${did}#0`]);
    expect(document.assertionMethod).toBeUndefined();
    expect(document.authentication).toBeUndefined();
  });

  it.each(["EDDSA", "ECDSA", "ML_DSA"] as const)("%s: create then resolve gives back the key", async (type) => {
    const key = keyOf("k", type);
    const created = await method.create(inputWith({ AUTHENTICATION: [key] }));
    expect(created.references).toEqual({ k: "0" });
    const jwk = JSON.parse(decodeBase64urlUtf8(created.did.slice("did:jwk:".length)));
    expect(Object.keys(jwk)).toEqual([...Object.keys(jwk)].sort());
    const document = await method.resolve(created.did);
    expect(document.verificationMethod[0]!.id).toBe(`${created.did}#0`);
    expect(algorithms.get(type)!.publicKeyFromJwk(document.verificationMethod[0]!.publicKeyJwk as never)).toEqual(
      key.publicKey,
    );
  });

  it("rejects malformed did:jwk values with BR_0364", async () => {
    const encode = (value: unknown) => `did:jwk:${Buffer.from(JSON.stringify(value)).toString("base64url")}`;
    await expectCode(() => method.resolve("did:jwk:not-json"), "BR_0364");
    await expectCode(() => method.resolve(encode([1, 2])), "BR_0364");
    await expectCode(() => method.resolve(encode({ crv: "P-256" })), "BR_0364");
    await expectCode(
      () =>
        method.resolve(
          encode({
            kty: "OKP",
            crv: "Ed25519",
            x: "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo",
            d: "nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A",
          }),
        ),
      "BR_0364",
    );
    await expectCode(() => method.resolve(encode({ kty: "EC", crv: "P-256", x: "AAAA", y: "AAAA" })), "BR_0364");
    await expectCode(
      () => method.create(inputWith({ AUTHENTICATION: [keyOf("a", "EDDSA"), keyOf("b", "EDDSA")] })),
      "BR_0030",
    );
  });
});

describe("did:web", () => {
  const served = new Map<string, unknown>();
  const requests: string[] = [];
  let server: Server;
  let origin: string;

  beforeAll(async () => {
    server = createServer((request, response) => {
      requests.push(request.url ?? "");
      const body = served.get(request.url ?? "");
      if (body === undefined) {
        response.writeHead(404).end();
        return;
      }
      response
        .writeHead(200, { "content-type": "application/did+json" })
        .end(typeof body === "string" ? body : JSON.stringify(body));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  function webMethod(documentLoader?: (did: string) => Promise<DidDocument | undefined>) {
    return createWebDidMethod({ baseUrl: origin, fetch, documentLoader, algorithms, resolveToInsecureHttp: true });
  }

  it("derives the DID from the base URL, percent-encoding the port colon", async () => {
    const method = createWebDidMethod({ baseUrl: "https://example.com:8443/credkit/", fetch, algorithms });
    const key = keyOf("k", "EDDSA");
    const created = await method.create(inputWith({ ASSERTION_METHOD: [key] }, "abc-123"));
    expect(created).toEqual({
      did: "did:web:example.com%3A8443:credkit:ssi:did-web:v1:abc-123",
      references: { k: "key-0" },
    });
    const bare = createWebDidMethod({ baseUrl: "https://example.com", fetch, algorithms });
    expect((await bare.create(inputWith({ ASSERTION_METHOD: [key] }, "x"))).did).toBe(
      "did:web:example.com:ssi:did-web:v1:x",
    );
    expect(method.capabilities.methodNames).toEqual(["web"]);
    expect(method.capabilities.keyAlgorithms).toEqual(["EDDSA", "ECDSA", "ML_DSA"]);
  });

  it("creates one verification method per distinct key, referenced per role, and resolves it over HTTP", async () => {
    const method = webMethod();
    const signing = keyOf("signing", "ECDSA");
    const pq = keyOf("pq", "ML_DSA");
    const agreement = keyOf("agreement", "ECDSA");
    const keys = {
      AUTHENTICATION: [signing],
      ASSERTION_METHOD: [signing, pq],
      KEY_AGREEMENT: [agreement],
      CAPABILITY_INVOCATION: [],
      CAPABILITY_DELEGATION: [pq],
    };
    const id = "5f0c6f1e-8a3b-4f1d-9d2e-1b2c3d4e5f60";
    const created = await method.create(inputWith(keys, id));
    const port = new URL(origin).port;
    expect(created.did).toBe(`did:web:127.0.0.1%3A${port}:ssi:did-web:v1:${id}`);
    expect(created.references).toEqual({ signing: "key-0", pq: "key-1", agreement: "key-2" });

    served.set(`/ssi/did-web/v1/${id}/did.json`, method.buildDocument(created.did, keys));
    const document = await method.resolve(created.did);
    expect(requests).toContain(`/ssi/did-web/v1/${id}/did.json`);
    const ref = (fragment: string) => `${created.did}#${fragment}`;
    expect(document.verificationMethod.map((vm) => vm.id)).toEqual([ref("key-0"), ref("key-1"), ref("key-2")]);
    expect(document.authentication).toEqual([ref("key-0")]);
    expect(document.assertionMethod).toEqual([ref("key-0"), ref("key-1")]);
    expect(document.keyAgreement).toEqual([ref("key-2")]);
    expect(document.capabilityInvocation).toBeUndefined();
    expect(document.capabilityDelegation).toEqual([ref("key-1")]);
    const pqJwk = document.verificationMethod[1]!.publicKeyJwk!;
    expect(algorithms.get("ML_DSA")!.publicKeyFromJwk(pqJwk as never)).toEqual(pq.publicKey);
  });

  it("resolves a bare host from /.well-known/did.json", async () => {
    const port = new URL(origin).port;
    const did = `did:web:127.0.0.1%3A${port}`;
    served.set("/.well-known/did.json", { "@context": "https://www.w3.org/ns/did/v1", id: did });
    const document = await webMethod().resolve(did);
    expect(document.id).toBe(did);
    expect(document.verificationMethod).toEqual([]);
  });

  it("uses the injected document loader before HTTP", async () => {
    const did = "did:web:unreachable.invalid:ssi:did-web:v1:local";
    const local: DidDocument = { "@context": "https://www.w3.org/ns/did/v1", id: did, verificationMethod: [] };
    const method = webMethod(async (requested) => (requested === did ? local : undefined));
    expect(await method.resolve(did)).toBe(local);
    await expectCode(() => method.resolve("did:web:unreachable.invalid:ssi:did-web:v1:other"), "BR_0363");
  });

  it("fails with BR_0363 on 404, non-JSON, a non-object or a mismatched id", async () => {
    const port = new URL(origin).port;
    const didOf = (name: string) => `did:web:127.0.0.1%3A${port}:bad:${name}`;
    served.set("/bad/text/did.json", "not json");
    served.set("/bad/array/did.json", [1]);
    served.set("/bad/other/did.json", { id: "did:web:example.com", verificationMethod: [] });
    served.set("/bad/vm/did.json", { id: didOf("vm"), verificationMethod: "nope" });
    const method = webMethod();
    for (const name of ["missing", "text", "array", "other", "vm"]) {
      await expectCode(() => method.resolve(didOf(name)), "BR_0363");
    }
  });

  it("rejects invalid did:web values and key sets", async () => {
    const method = webMethod();
    await expectCode(() => method.resolve("did:web:exa%2Fmple.com"), "BR_0364");
    await expectCode(() => method.resolve("did:key:z6Mk"), "BR_0026");
    await expectCode(() => method.create(inputWith({})), "BR_0030");
  });
});
