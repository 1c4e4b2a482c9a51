/**
 * Certificate identifiers over real HTTP (reference §3.3, §3.2): CERTIFICATE identifiers from a chain and from
 * `content` a credkit CA signs, self-signed CA identifiers, identifier / certificate detail with x509Attributes, list
 * filters, CSR generation, the CERTIFICATE_CHECK task, and every refusal — on each storage adapter.
 */
import "reflect-metadata";
import { randomUUID, webcrypto, X509Certificate } from "node:crypto";
import * as x509 from "@peculiar/x509";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Credkit } from "../../src/credkit.js";
import { loadIdentifierCertificate } from "../../src/engines/common/identifier-certificate.js";
import { createTestKit } from "../../src/testing/create-test-kit.js";
import { ecdsaPublicJwk } from "../support/certificate-identifier.js";
import { type ApiResponse, createApiClient, HTTP_ADAPTERS, type MountedKit } from "../support/http-harness.js";
import { type ManualClock, manualClock } from "../support/notification-fixture.js";
import { describeOnStorage, STORAGE_ADAPTERS, type StorageFixture } from "../support/storage-adapters.js";
import { createTestCertificate, createTestRootCa, type TestCertificate } from "../support/x509-fixture.js";

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const HOUR = 3600_000;
const DAY = 24 * HOUR;
const MDL_DS = "1.0.18013.5.1.2";

function expectError(response: ApiResponse, status: number, code: string) {
  expect(response.status, response.text).toBe(status);
  expect(response.json).toMatchObject({ code, message: expect.any(String) });
}

const chainOf = (...certificates: TestCertificate[]) => certificates.map((c) => c.pem).join("\n");

for (const [index, storageCase] of STORAGE_ADAPTERS.entries()) {
  const adapter = HTTP_ADAPTERS[[0, 2, 3][index] ?? 0]!;
  describeOnStorage(storageCase, `certificate identifiers on ${storageCase.name} over ${adapter.name}`, () => {
    let fixture: StorageFixture;
    let clock: ManualClock;
    let kit: Credkit;
    let mounted: MountedKit;
    let api: ReturnType<typeof createApiClient>;
    let orgId: string;
    let root: TestCertificate;

    const newKey = async (keyType = "ECDSA") => {
      const created = await api("POST", "/api/key/v1", {
        organisationId: orgId,
        keyType,
        keyParams: {},
        name: `${keyType} ${randomUUID()}`,
        storageType: "INTERNAL",
        storageParams: {},
      });
      expect(created.status).toBe(201);
      const detail = await api("GET", `/api/key/v1/${created.json.id}`);
      return { id: created.json.id as string, publicKey: detail.json.publicKey as string };
    };
    /** an ECDSA credkit key and a leaf certificate for it issued by `issuer` */
    const certifiedKey = async (
      issuer: TestCertificate,
      cn: string,
      options: Parameters<typeof createTestCertificate>[2] = {},
    ) => {
      const key = await newKey();
      const leaf = await createTestCertificate(issuer, cn, {
        ...options,
        publicJwk: ecdsaPublicJwk(key.publicKey) as JsonWebKey,
      });
      return { key, leaf };
    };
    const createIdentifier = (body: Record<string, unknown>) =>
      api("POST", "/api/identifier/v1", { organisationId: orgId, name: `identifier ${randomUUID()}`, ...body });
    const identifierCount = async () =>
      (await api("GET", `/api/identifier/v1?page=0&pageSize=1&organisationId=${orgId}`)).json.totalItems as number;
    /** a refused request stores neither an identifier nor a certificate */
    const expectRefused = async (body: Record<string, unknown>, status: number, code: string) => {
      const identifiers = await identifierCount();
      const certificates = await kit.storage.certificates.count();
      expectError(await createIdentifier(body), status, code);
      expect(await identifierCount()).toBe(identifiers);
      expect(await kit.storage.certificates.count()).toBe(certificates);
    };
    const selfSignedCa = (keyId: string, extra: Record<string, unknown> = {}) => ({
      certificateAuthorities: [
        {
          keyId,
          selfSigned: {
            content: {
              subject: { commonName: "credkit test CA", countryName: "CH", organisationName: "Acme AG" },
              issuerAlternativeName: { type: "URI", name: "https://ca.example" },
            },
            signer: "X509_CERTIFICATE",
            ...extra,
          },
        },
      ],
    });

    beforeAll(async () => {
      fixture = await storageCase.open();
      clock = manualClock(new Date());
      kit = await createTestKit({ storage: fixture.storage, clock });
      mounted = await adapter.mount(kit);
      api = createApiClient(mounted.baseUrl);
      orgId = (await api("POST", "/api/organisation/v1", { name: "certificates" })).json.id;
      root = await createTestRootCa("credkit test root");
    });
    afterAll(async () => {
      await mounted?.close();
      await kit?.close();
      await fixture?.dispose();
    });

    it("creates a CERTIFICATE identifier from a chain certifying a credkit key", async () => {
      const intermediate = await createTestCertificate(root, "credkit test intermediate", { ca: true });
      const { key, leaf } = await certifiedKey(intermediate, "issuer.example", { dns: ["issuer.example"] });
      const created = await createIdentifier({
        certificates: [{ keyId: key.id, chain: chainOf(leaf, intermediate, root) }],
      });
      expect(created.status, created.text).toBe(201);

      // a commonName with control characters is no name to store (NUL is not even text in Postgres): give one
      const nul = await certifiedKey(intermediate, "evil\u0000name");
      await expectRefused(
        { certificates: [{ keyId: nul.key.id, chain: chainOf(nul.leaf, intermediate, root) }] },
        400,
        "BR_0224",
      );
      await expectRefused(
        { certificates: [{ keyId: nul.key.id, chain: chainOf(nul.leaf, intermediate, root), name: "a\u0000b" }] },
        400,
        "BR_0084",
      );
      const named = await createIdentifier({
        certificates: [{ keyId: nul.key.id, chain: chainOf(nul.leaf, intermediate, root), name: "named" }],
      });
      expect(named.status, named.text).toBe(201);

      const detail = await api("GET", `/api/identifier/v1/${created.json.id}`);
      expect(detail.status).toBe(200);
      expect(detail.json).toMatchObject({ id: created.json.id, type: "CERTIFICATE", state: "ACTIVE", isRemote: false });
      expect(detail.json).not.toHaveProperty("certificateAuthorities");
      expect(detail.json).not.toHaveProperty("key");
      expect(detail.json.certificates).toHaveLength(1);
      const certificate = detail.json.certificates[0];
      expect(certificate).toMatchObject({
        identifierId: created.json.id,
        organisationId: orgId,
        name: "issuer.example",
        state: "ACTIVE",
        roles: ["AUTHENTICATION", "ASSERTION_METHOD"],
        key: { id: key.id, keyType: "ECDSA", publicKey: key.publicKey },
      });
      expect(certificate.createdDate).toMatch(TIMESTAMP);
      expect(certificate.chain).toContain("-----BEGIN CERTIFICATE-----");
      const leafX509 = new X509Certificate(leaf.pem);
      expect(certificate.x509Attributes).toMatchObject({
        subject: "CN=issuer.example",
        issuer: "CN=credkit test intermediate",
        fingerprint: leafX509.fingerprint256.replace(/:/g, "").toLowerCase(),
        notAfter: new Date(leafX509.validTo).toISOString(),
      });
      expect(certificate.x509Attributes.notBefore).toMatch(TIMESTAMP);
      expect(certificate.x509Attributes.extensions).toEqual(
        expect.arrayContaining([
          { oid: "2.5.29.19", value: "Certificate Authority: false", critical: true },
          { oid: "2.5.29.15", value: "digitalSignature", critical: true },
          { oid: "2.5.29.17", value: "DNSName(issuer.example)", critical: false },
        ]),
      );

      const single = await api("GET", `/api/certificate/v1/${certificate.id}`);
      expect(single.status).toBe(200);
      expect(single.json).toEqual(certificate);
      expectError(await api("GET", `/api/certificate/v1/${randomUUID()}`), 404, "BR_0223");
      expectError(await api("GET", "/api/certificate/v1/not-a-uuid"), 404, "BR_0223");

      // protocol code signs with it
      const identifier = (await kit.storage.identifiers.get(created.json.id))!;
      const loaded = await loadIdentifierCertificate(kit.storage, identifier);
      expect(loaded.key.id).toBe(key.id);
      expect(loaded.chain.map((c) => c.subject)).toEqual([
        "CN=issuer.example",
        "CN=credkit test intermediate",
        "CN=credkit test root",
      ]);

      const history = await api(
        "GET",
        `/api/history/v1?page=0&pageSize=10&organisationId=${orgId}&entityTypes[]=CERTIFICATE&entityIds[]=${certificate.id}`,
      );
      expect(history.json.values.map((h: { action: string }) => h.action)).toEqual(["CREATED"]);
    });

    it("creates self-signed CA identifiers (ECDSA and EdDSA) and certificates they issue from content", async () => {
      const caKey = await newKey("ECDSA");
      const ca = await createIdentifier(selfSignedCa(caKey.id));
      expect(ca.status, ca.text).toBe(201);
      const caDetail = (await api("GET", `/api/identifier/v1/${ca.json.id}`)).json;
      expect(caDetail).toMatchObject({ type: "CA", state: "ACTIVE" });
      expect(caDetail).not.toHaveProperty("certificates");
      const caCertificate = caDetail.certificateAuthorities[0];
      expect(caCertificate).toMatchObject({
        name: "credkit test CA",
        state: "ACTIVE",
        roles: [],
        key: { id: caKey.id },
      });
      expect(caCertificate.x509Attributes.subject).toBe("CN=credkit test CA, C=CH, O=Acme AG");
      expect(caCertificate.x509Attributes.issuer).toBe(caCertificate.x509Attributes.subject);
      expect(caCertificate.x509Attributes.extensions).toEqual(
        expect.arrayContaining([
          { oid: "2.5.29.19", value: "Certificate Authority: true", critical: true },
          { oid: "2.5.29.15", value: "keyCertSign\ncrlSign", critical: true },
          { oid: "2.5.29.18", value: "URI(https://ca.example)", critical: false },
        ]),
      );
      const caX509 = new X509Certificate(caCertificate.chain);
      expect(caX509.ca).toBe(true);
      expect(caX509.verify(caX509.publicKey)).toBe(true);
      expect(caX509.publicKey.export({ format: "jwk" })).toMatchObject(ecdsaPublicJwk(caKey.publicKey));
      const peculiarCa = new x509.X509Certificate(caX509.raw);
      expect(await peculiarCa.verify({ publicKey: peculiarCa.publicKey })).toBe(true);

      // an MDL document signer certificate for an EdDSA key, signed by the ECDSA CA
      const edKey = await newKey("EDDSA");
      const issued = await createIdentifier({
        certificates: [
          {
            keyId: edKey.id,
            content: {
              profile: "MDL",
              subject: { commonName: "mdl issuer", countryName: "CH" },
              certificateAuthority: { identifierId: ca.json.id },
              signer: "X509_CERTIFICATE",
            },
          },
        ],
      });
      expect(issued.status, issued.text).toBe(201);
      const leafDto = (await api("GET", `/api/identifier/v1/${issued.json.id}`)).json.certificates[0];
      expect(leafDto).toMatchObject({ name: "mdl issuer", state: "ACTIVE", key: { id: edKey.id } });
      expect(leafDto.x509Attributes.issuer).toBe("CN=credkit test CA, C=CH, O=Acme AG");
      expect(leafDto.x509Attributes.subject).toBe("CN=mdl issuer, C=CH");
      expect(leafDto.x509Attributes.extensions).toEqual(
        expect.arrayContaining([{ oid: "2.5.29.37", value: MDL_DS, critical: true }]),
      );
      const [issuedLeaf, issuedCa] = leafDto.chain
        .split(/(?=-----BEGIN CERTIFICATE-----)/)
        .map((pem: string) => new X509Certificate(pem));
      expect(issuedCa.fingerprint256).toBe(caX509.fingerprint256);
      expect(issuedLeaf.verify(caX509.publicKey)).toBe(true);
      expect(issuedLeaf.checkIssued(caX509)).toBe(true);
      expect(issuedLeaf.publicKey.export({ format: "jwk" })).toMatchObject({
        kty: "OKP",
        crv: "Ed25519",
        x: edKey.publicKey,
      });
      // default validity: one year, capped by the CA's (itself one year from creation)
      expect(new Date(issuedLeaf.validTo).getTime()).toBeLessThanOrEqual(new Date(caX509.validTo).getTime());
      const ski = caCertificate.x509Attributes.extensions.find((e: { oid: string }) => e.oid === "2.5.29.14").value;
      expect(leafDto.x509Attributes.extensions.find((e: { oid: string }) => e.oid === "2.5.29.35").value).toBe(ski);

      // an EdDSA CA issuing for an ECDSA key, with an explicit validity and one role
      const edCaKey = await newKey("EDDSA");
      const edCa = await createIdentifier(selfSignedCa(edCaKey.id));
      expect(edCa.status, edCa.text).toBe(201);
      const ecKey = await newKey("ECDSA");
      const validityEnd = new Date(clock.now().getTime() + 30 * DAY);
      const generic = await createIdentifier({
        certificates: [
          {
            keyId: ecKey.id,
            name: "generic leaf",
            roles: ["AUTHENTICATION"],
            content: {
              profile: "GENERIC",
              subject: { commonName: "generic" },
              certificateAuthority: {
                identifierId: edCa.json.id,
                certificateId: (await api("GET", `/api/identifier/v1/${edCa.json.id}`)).json.certificateAuthorities[0]
                  .id,
              },
              signer: "X509_CERTIFICATE",
              validityEnd: validityEnd.toISOString(),
            },
          },
        ],
      });
      expect(generic.status, generic.text).toBe(201);
      const genericDto = (await api("GET", `/api/identifier/v1/${generic.json.id}`)).json.certificates[0];
      expect(genericDto).toMatchObject({ name: "generic leaf", roles: ["AUTHENTICATION"] });
      expect(new Date(genericDto.x509Attributes.notAfter).getTime()).toBe(
        Math.floor(validityEnd.getTime() / 1000) * 1000,
      );

      // list filters: type, certificate roles
      const list = async (query: string) =>
        (await api("GET", `/api/identifier/v1?page=0&pageSize=100&organisationId=${orgId}&${query}`)).json.values.map(
          (i: { id: string }) => i.id,
        ) as string[];
      const cas = await list("types[]=CA");
      expect(cas).toEqual(expect.arrayContaining([ca.json.id, edCa.json.id]));
      expect(cas).not.toContain(issued.json.id);
      const certificates = await list("types[]=CERTIFICATE");
      expect(certificates).toEqual(expect.arrayContaining([issued.json.id, generic.json.id]));
      expect(certificates).not.toContain(ca.json.id);
      const assertion = await list("certificateRoles[]=ASSERTION_METHOD");
      expect(assertion).toContain(issued.json.id);
      expect(assertion).not.toContain(generic.json.id);
      expect(await list("certificateRoles[]=ASSERTION_METHOD&certificateRoles[]=AUTHENTICATION")).toContain(
        generic.json.id,
      );
      const both = await list(
        "certificateRoles[]=ASSERTION_METHOD&certificateRoles[]=AUTHENTICATION&certificateRolesMatchMode=ALL",
      );
      expect(both).toContain(issued.json.id);
      expect(both).not.toContain(generic.json.id);
      expectError(
        await api("GET", `/api/identifier/v1?page=0&pageSize=10&organisationId=${orgId}&certificateRoles[]=NOPE`),
        400,
        "BR_0084",
      );

      // refusals of content
      const content = (overrides: Record<string, unknown>) => ({
        certificates: [
          {
            keyId: ecKey.id,
            content: {
              profile: "GENERIC",
              subject: { commonName: "refused" },
              certificateAuthority: { identifierId: ca.json.id },
              signer: "X509_CERTIFICATE",
              ...overrides,
            },
          },
        ],
      });
      await expectRefused(content({ signer: "REGISTRATION_CERTIFICATE" }), 400, "BR_0326");
      await expectRefused(
        content({ validityStart: new Date(clock.now().getTime() - DAY).toISOString() }),
        400,
        "BR_0324",
      );
      await expectRefused(
        content({ validityEnd: new Date(clock.now().getTime() + 2 * 365 * DAY).toISOString() }),
        400,
        "BR_0324",
      );
      await expectRefused(content({ certificateAuthority: { identifierId: issued.json.id } }), 400, "BR_0330");
      await expectRefused(content({ certificateAuthority: { identifierId: randomUUID() } }), 404, "BR_0207");
      await expectRefused(
        content({ certificateAuthority: { identifierId: ca.json.id, certificateId: leafDto.id } }),
        404,
        "BR_0223",
      );
      await expectRefused(content({ profile: "MDL" }), 400, "BR_0084");
      await expectRefused(content({ subject: {} }), 400, "BR_0084");
      await expectRefused(content({ subject: { countryName: "Switzerland" } }), 400, "BR_0084");
      // control characters (NUL cannot even be stored as text in Postgres; CR/LF forge lines in logs and DN strings)
      await expectRefused(content({ subject: { commonName: "evil\u0000name" } }), 400, "BR_0084");
      await expectRefused(content({ subject: { organisationName: "Acme\nCN=Bank" } }), 400, "BR_0084");
      // a CA whose certificate is not valid yet cannot sign
      const laterKey = await newKey();
      const later = await createIdentifier(
        selfSignedCa(laterKey.id, { validityStart: new Date(clock.now().getTime() + DAY).toISOString() }),
      );
      expect(later.status, later.text).toBe(201);
      expect((await api("GET", `/api/identifier/v1/${later.json.id}`)).json.certificateAuthorities[0].state).toBe(
        "NOT_YET_ACTIVE",
      );
      await expectRefused(content({ certificateAuthority: { identifierId: later.json.id } }), 400, "BR_0359");
      // ML-DSA keys cannot be certified
      const pq = await newKey("ML_DSA");
      await expectRefused(selfSignedCa(pq.id), 400, "BR_0043");
    });

    it("refuses bad chains and requests with {code, message}, storing nothing", async () => {
      const { key, leaf } = await certifiedKey(root, "refusals");
      const entry = (extra: Record<string, unknown>) => ({ certificates: [{ keyId: key.id, ...extra }] });

      await expectRefused(entry({ chain: "not a PEM" }), 400, "BR_0224");
      await expectRefused(
        entry({ chain: "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----" }),
        400,
        "BR_0224",
      );
      // the leaf certifies another key
      const stranger = await createTestCertificate(root, "stranger");
      await expectRefused(entry({ chain: chainOf(stranger, root) }), 400, "BR_0214");
      // expired
      const expired = await createTestCertificate(root, "expired", {
        publicJwk: ecdsaPublicJwk(key.publicKey) as JsonWebKey,
        notBefore: new Date(Date.now() - 10 * DAY),
        notAfter: new Date(Date.now() - DAY),
      });
      await expectRefused(entry({ chain: chainOf(expired, root) }), 400, "BR_0213");
      // broken chain: the next certificate did not sign the leaf
      const otherRoot = await createTestRootCa("other root");
      await expectRefused(entry({ chain: chainOf(leaf, otherRoot) }), 400, "BR_0211");
      // an issuer that is not a CA
      const notCa = await createTestCertificate(root, "not a CA");
      const underLeaf = await createTestCertificate(notCa, "under a leaf", {
        publicJwk: ecdsaPublicJwk(key.publicKey) as JsonWebKey,
      });
      await expectRefused(entry({ chain: chainOf(underLeaf, notCa, root) }), 400, "BR_0244");
      // a CA certificate (keyCertSign only) as the leaf of a CERTIFICATE identifier
      const caLeaf = await createTestCertificate(root, "ca as leaf", {
        ca: true,
        publicJwk: ecdsaPublicJwk(key.publicKey) as JsonWebKey,
      });
      await expectRefused(entry({ chain: chainOf(caLeaf, root) }), 400, "BR_0249");
      // an end-entity certificate as a CA
      await expectRefused({ certificateAuthorities: [{ keyId: key.id, chain: chainOf(leaf, root) }] }, 400, "BR_0249");

      // variants and shapes
      await expectRefused(
        { key: { keyId: key.id }, certificates: [{ keyId: key.id, chain: chainOf(leaf, root) }] },
        400,
        "BR_0206",
      );
      await expectRefused(
        { certificates: [{ keyId: key.id, chain: chainOf(leaf, root) }], certificateAuthorities: [] },
        400,
        "BR_0206",
      );
      await expectRefused({}, 400, "BR_0206");
      await expectRefused({ certificates: [] }, 400, "BR_0242");
      await expectRefused(entry({}), 400, "BR_0331");
      await expectRefused(
        entry({
          chain: chainOf(leaf, root),
          content: {
            profile: "GENERIC",
            subject: { commonName: "x" },
            certificateAuthority: { identifierId: randomUUID() },
            signer: "X509_CERTIFICATE",
          },
        }),
        400,
        "BR_0331",
      );
      await expectRefused({ certificateAuthorities: [{ keyId: key.id }] }, 400, "BR_0331");
      await expectRefused(entry({ chain: chainOf(leaf, root), unknown: 1 }), 400, "BR_0084");
      await expectRefused(entry({ chain: chainOf(leaf, root), roles: ["SIGNING"] }), 400, "BR_0084");
      await expectRefused({ certificates: [{ keyId: randomUUID(), chain: chainOf(leaf, root) }] }, 404, "BR_0037");

      // duplicates: twice on one identifier, then the same certificate on a second identifier
      const chain = chainOf(leaf, root);
      await expectRefused(
        {
          certificates: [
            { keyId: key.id, chain },
            { keyId: key.id, chain },
          ],
        },
        400,
        "BR_0408",
      );
      const first = await createIdentifier(entry({ chain }));
      expect(first.status, first.text).toBe(201);
      await expectRefused(entry({ chain }), 400, "BR_0247");
      // after deleting the identifier the certificate may be used again
      expect((await api("DELETE", `/api/identifier/v1/${first.json.id}`)).status).toBe(204);
      const certificateId = (await kit.storage.certificates.findOne({
        op: "eq",
        column: "identifierId",
        value: first.json.id,
      }))!.id;
      expectError(await api("GET", `/api/certificate/v1/${certificateId}`), 404, "BR_0223");
      expect((await createIdentifier(entry({ chain }))).status).toBe(201);
    });

    it("generates CSRs signed by the key", async () => {
      for (const keyType of ["ECDSA", "EDDSA"]) {
        const key = await newKey(keyType);
        const response = await api("POST", `/api/key/v1/${key.id}/generate-csr`, {
          profile: "MDL",
          subject: { commonName: "mdl issuer", countryName: "CH", organisationName: "Acme AG", serialNumber: "CHE-1" },
        });
        expect(response.status, response.text).toBe(201);
        expect(Object.keys(response.json)).toEqual(["content"]);
        const csr = new x509.Pkcs10CertificateRequest(response.json.content);
        expect(await csr.verify()).toBe(true);
        expect(csr.subject).toBe("CN=mdl issuer, C=CH, O=Acme AG, 2.5.4.5=CHE-1");
        const publicJwk = (await webcrypto.subtle.exportKey("jwk", await csr.publicKey.export())) as JsonWebKey;
        expect(publicJwk).toMatchObject(
          keyType === "ECDSA" ? ecdsaPublicJwk(key.publicKey) : { crv: "Ed25519", x: key.publicKey },
        );
        expect(csr.extensions.map((e) => e.type)).toEqual(["2.5.29.15", "2.5.29.37"]);
      }
      const key = await newKey();
      const ca = await api("POST", `/api/key/v1/${key.id}/generate-csr`, {
        profile: "CA",
        subject: { commonName: "ca" },
      });
      expect(ca.status).toBe(201);
      const caCsr = new x509.Pkcs10CertificateRequest(ca.json.content);
      expect((caCsr.extensions[0] as x509.KeyUsagesExtension).usages).toBe(
        x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign,
      );
      const history = await api(
        "GET",
        `/api/history/v1?page=0&pageSize=10&organisationId=${orgId}&entityIds[]=${key.id}&actions[]=CSR_GENERATED`,
      );
      expect(history.json.totalItems).toBe(1);

      const pq = await newKey("ML_DSA");
      expectError(
        await api("POST", `/api/key/v1/${pq.id}/generate-csr`, { profile: "GENERIC", subject: { commonName: "x" } }),
        400,
        "BR_0128",
      );
      expectError(
        await api("POST", `/api/key/v1/${randomUUID()}/generate-csr`, {
          profile: "GENERIC",
          subject: { commonName: "x" },
        }),
        404,
        "BR_0037",
      );
      expectError(
        await api("POST", `/api/key/v1/${key.id}/generate-csr`, { profile: "TLS", subject: { commonName: "x" } }),
        400,
        "BR_0084",
      );
      expectError(
        await api("POST", `/api/key/v1/${key.id}/generate-csr`, { profile: "GENERIC", subject: {} }),
        400,
        "BR_0084",
      );
      expectError(
        await api("POST", `/api/key/v1/${key.id}/generate-csr`, { profile: "GENERIC", subject: { cn: "x" } }),
        400,
        "BR_0084",
      );
    });

    // moves the clock: keep it last
    it("CERTIFICATE_CHECK activates and expires certificates by date and deactivates emptied identifiers", async () => {
      const now = clock.now().getTime();
      const pending = await certifiedKey(root, "pending", {
        notBefore: new Date(now + HOUR),
        notAfter: new Date(now + 2 * DAY),
      });
      const pendingIdentifier = await createIdentifier({
        certificates: [{ keyId: pending.key.id, chain: chainOf(pending.leaf, root) }],
      });
      expect(pendingIdentifier.status, pendingIdentifier.text).toBe(201);
      const shortLived = await certifiedKey(root, "short lived", { notAfter: new Date(now + 2 * HOUR) });
      const shortIdentifier = await createIdentifier({
        certificates: [{ keyId: shortLived.key.id, chain: chainOf(shortLived.leaf, root) }],
      });
      expect(shortIdentifier.status, shortIdentifier.text).toBe(201);
      const stateOf = async (identifierId: string) => {
        const detail = (await api("GET", `/api/identifier/v1/${identifierId}`)).json;
        return { identifier: detail.state, certificate: detail.certificates[0].state, id: detail.certificates[0].id };
      };
      expect(await stateOf(pendingIdentifier.json.id)).toMatchObject({
        identifier: "ACTIVE",
        certificate: "NOT_YET_ACTIVE",
      });
      // a NOT_YET_ACTIVE certificate does not sign
      const pendingRow = (await kit.storage.identifiers.get(pendingIdentifier.json.id))!;
      await expect(loadIdentifierCertificate(kit.storage, pendingRow)).rejects.toMatchObject({ code: "BR_0242" });

      const run = async () => {
        const response = await api("POST", "/api/task/v1/run", { name: "CERTIFICATE_CHECK" });
        expect(response.status, response.text).toBe(200);
        return response.json;
      };
      const quiet = await run();
      expect(quiet).toMatchObject({ revokedCertificateIds: [], checkFailures: [] });
      expect(quiet.activatedCertificateIds).not.toContain((await stateOf(pendingIdentifier.json.id)).id);
      expectError(
        await api("POST", "/api/task/v1/run", { name: "CERTIFICATE_CHECK", params: { x: 1 } }),
        400,
        "BR_0405",
      );

      clock.advance(3 * HOUR);
      const pendingState = await stateOf(pendingIdentifier.json.id);
      const shortState = await stateOf(shortIdentifier.json.id);
      const moved = await run();
      expect(moved.activatedCertificateIds).toContain(pendingState.id);
      expect(moved.expiredCertificateIds).toContain(shortState.id);
      expect(moved.deactivatedIdentifierIds).toContain(shortIdentifier.json.id);
      expect(moved.deactivatedIdentifierIds).not.toContain(pendingIdentifier.json.id);
      expect(await stateOf(pendingIdentifier.json.id)).toMatchObject({ identifier: "ACTIVE", certificate: "ACTIVE" });
      expect(await stateOf(shortIdentifier.json.id)).toMatchObject({
        identifier: "DEACTIVATED",
        certificate: "EXPIRED",
      });
      expect((await loadIdentifierCertificate(kit.storage, pendingRow)).key.id).toBe(pending.key.id);
      const again = await run();
      expect(again.activatedCertificateIds).not.toContain(pendingState.id);
      expect(again.expiredCertificateIds).not.toContain(shortState.id);

      const history = await api(
        "GET",
        `/api/history/v1?page=0&pageSize=10&organisationId=${orgId}&entityIds[]=${pendingState.id}&entityIds[]=${shortState.id}&entityIds[]=${shortIdentifier.json.id}&sort=createdDate&sortDirection=ASC`,
      );
      const actions = history.json.values.map(
        (h: { entityType: string; action: string; entityId: string }) =>
          `${h.entityType} ${h.action} ${h.entityId === pendingState.id ? "pending" : h.entityId === shortState.id ? "short" : "identifier"}`,
      );
      expect(actions).toEqual(
        expect.arrayContaining([
          "CERTIFICATE CREATED pending",
          "CERTIFICATE ACTIVATED pending",
          "CERTIFICATE EXPIRED short",
          "IDENTIFIER DEACTIVATED identifier",
        ]),
      );

      clock.advance(2 * DAY);
      expect((await run()).expiredCertificateIds).toContain(pendingState.id);
      expect(await stateOf(pendingIdentifier.json.id)).toMatchObject({
        identifier: "DEACTIVATED",
        certificate: "EXPIRED",
      });
    });
  });
}
