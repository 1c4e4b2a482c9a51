import { randomUUID } from "node:crypto";
import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Credkit } from "../../src/credkit.js";
import { API_ROUTES } from "../../src/http/routes/api/index.js";
import type { ApiRoute } from "../../src/http/routes/api-route.js";
import { createTestKit } from "../../src/testing/create-test-kit.js";
import { createApiClient, HTTP_ADAPTERS, type MountedKit } from "../support/http-harness.js";
import { chooseSeed, type SeededRandom, seededRandom } from "../support/seeded-random.js";
import { describeOnStorage, STORAGE_ADAPTERS, type StorageFixture } from "../support/storage-adapters.js";

// memory (fast, always) and PostgreSQL (stricter about text than the others; required in CI): a 5xx that only one
// database produces must show here
const FUZZ_STORAGES = STORAGE_ADAPTERS.filter((adapter) => adapter.name !== "sqlite");

// Seeded malformed-request fuzzing of every mutating management route (POST/PUT/PATCH/DELETE in API_ROUTES) over real
// loopback HTTP in UNSAFE_NONE mode. Every request is built to be invalid, so every answer must be a 4xx with the
// One Core error body (reference §2), never a 5xx or a stack trace. Replay a run with FUZZ_SEED=<seed>.

const NODE_HTTP = HTTP_ADAPTERS.find((adapter) => adapter.name === "node:http")!;
const SEED = chooseSeed("FUZZ_SEED");
/** random cases on top of the fixed per-route baseline */
const RANDOM_CASES = 240;
const MAX_BODY = 1024 * 1024; // app.maxRequestBodyBytes default
const STACK_TRACE = [/\bat .+\.(ts|js|mjs|cjs):\d+/, /node:internal/, /node_modules/, /\/src\/\w+/];
const POLLUTED = "credkitFuzzPolluted";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Json = null | boolean | number | string | Json[] | JsonObject;
/** (`undefined` members are dropped by JSON.stringify; TypeScript infers them for mixed object literals) */
type JsonObject = { [key: string]: Json | undefined };
type Body = string | Uint8Array;
/** fields merged over a template body */
type Patch = JsonObject;

interface FuzzCase {
  route: string;
  kind: string;
  method: string;
  path: string;
  query?: string;
  headers?: Record<string, string>;
  body?: Body;
}

interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

interface Template {
  /** a valid body for this route (the fuzzer only ever sends broken variants of it) */
  body: () => JsonObject;
  /** fields of `body` where any value of another JSON type is invalid */
  typed: string[];
  /** typed string fields without a length limit (a 1 MB value there is valid) */
  unbounded?: string[];
  /** well-typed values that are still certain to be refused (unknown enum values, missing references…) */
  semantic?: (rnd: SeededRandom) => Patch[];
  /** strict nested objects: an extra key inside them must be refused */
  nested?: string[];
}

function routeKey(route: Pick<ApiRoute, "method" | "path">) {
  return `${route.method.toUpperCase()} ${route.path}`;
}

const ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

function nested(depth: number, leaf: Json = 1, asArray = false): string {
  return asArray
    ? `${"[".repeat(depth)}${JSON.stringify(leaf)}${"]".repeat(depth)}`
    : `${'{"a":'.repeat(depth)}${JSON.stringify(leaf)}${"}".repeat(depth)}`;
}

/** JSON text of `body` with `raw` (already JSON) spliced in as the first member */
function withRawMember(body: JsonObject, raw: string): string {
  const text = JSON.stringify(body);
  return text === "{}" ? `{${raw}}` : `{${raw},${text.slice(1)}`;
}

function wrongTypeFor(value: Json | undefined, rnd: SeededRandom): Json {
  if (typeof value === "string") return rnd.pick<Json>([123, -1.5, true, false, null, ["x"], { value: "x" }, []]);
  if (typeof value === "number") return rnd.pick<Json>(["1", true, null, [1], {}]);
  if (typeof value === "boolean") return rnd.pick<Json>(["true", "false", 1, 0, null, [true], {}]);
  if (Array.isArray(value)) return rnd.pick<Json>(["x", 1, true, null, {}]);
  return rnd.pick<Json>(["x", 1, true, null]);
}

function toHeaders(raw: Record<string, string | string[] | undefined>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, item);
  }
  return headers;
}

/**
 * One request over its own connection (`Connection: close`). `body` may be a function writing a chunked body; it
 * gets `stopped()`, true once the response has arrived. Errors after the response (EPIPE while still uploading) are
 * ignored: the answer is what counts.
 */
function sendOnFreshConnection(
  url: string,
  fuzzCase: Pick<FuzzCase, "method" | "headers"> & {
    body?: Body | ((write: (chunk: Uint8Array) => boolean, stopped: () => boolean) => Promise<void>);
  },
): Promise<Answer> {
  return new Promise<Answer>((resolve, reject) => {
    let answered = false;
    const streamed = typeof fuzzCase.body === "function";
    const request = httpRequest(
      url,
      {
        method: fuzzCase.method,
        agent: false,
        headers: {
          accept: "application/json",
          connection: "close",
          ...fuzzCase.headers,
          ...(typeof fuzzCase.body === "string" && { "content-length": Buffer.byteLength(fuzzCase.body) }),
          ...(fuzzCase.body instanceof Uint8Array && { "content-length": fuzzCase.body.byteLength }),
        },
      },
      (response) => {
        answered = true;
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          resolve({
            status: response.statusCode ?? 0,
            headers: toHeaders(response.headers),
            text: Buffer.concat(chunks).toString("utf8"),
          });
          request.destroy();
        });
        response.on("error", reject);
      },
    );
    request.on("error", (error) => {
      if (!answered) reject(error);
    });
    if (typeof fuzzCase.body === "function") {
      const writeBody = fuzzCase.body;
      void writeBody(
        (chunk) => request.write(chunk),
        () => answered || request.destroyed,
      ).then(() => {
        if (!request.destroyed) request.end();
      });
    } else if (!streamed) request.end(fuzzCase.body);
  });
}

for (const storageCase of FUZZ_STORAGES)
  describeOnStorage(
    storageCase,
    `fuzzing mutating routes over ${NODE_HTTP.name} on ${storageCase.name} (seed ${SEED})`,
    () => {
      let fixture: StorageFixture | undefined;
      let kit: Credkit;
      let mounted: MountedKit;
      let api: ReturnType<typeof createApiClient>;
      const consoleError = vi.spyOn(console, "error");
      const real: Record<string, string> = {};

      beforeAll(async () => {
        console.info(`[fuzz] seed=${SEED} (replay: FUZZ_SEED=${SEED} npx vitest run test/e2e/fuzz.e2e.test.ts)`);
        fixture = await storageCase.open();
        kit = await createTestKit({
          config: { app: { coreBaseUrl: "https://issuer.example.com", enableHistoryCreateEndpoint: true } },
          storage: fixture.storage,
        });
        mounted = await NODE_HTTP.mount(kit);
        api = createApiClient(mounted.baseUrl);
        real.org = (await kit.organisations.create({ name: "fuzz org" })).id;
        real.stsOrg = (await kit.organisations.create({ name: "fuzz sts org", slug: "fuzz-sts" })).id;
        real.key = (
          await kit.keys.create({
            organisationId: real.org,
            keyType: "EDDSA",
            keyParams: {},
            name: "fuzz key",
            storageType: "INTERNAL",
            storageParams: {},
          })
        ).id;
        const roles = {
          authentication: [real.key],
          assertionMethod: [real.key],
          keyAgreement: [],
          capabilityInvocation: [],
          capabilityDelegation: [],
        };
        real.did = (
          await kit.dids.create({ organisationId: real.org, name: "fuzz did", method: "KEY", keys: roles })
        ).id;
        real.identifier = (
          await kit.identifiers.create({ organisationId: real.org, name: "fuzz id", key: { keyId: real.key } })
        ).id;
      });

      afterAll(async () => {
        consoleError.mockRestore();
        await mounted?.close();
        await kit?.close();
        await fixture?.dispose();
      });

      /** the id of a real entity for a route's `{id}` (falls back to the organisation) */
      function realIdFor(path: string): string {
        if (path.startsWith("/api/sts/organisation/")) return real.stsOrg!;
        if (path.startsWith("/api/did/")) return real.did!;
        if (path.startsWith("/api/identifier/")) return real.identifier!;
        if (path.startsWith("/api/key/")) return real.key!;
        return real.org!;
      }

      function templates(): Record<string, Template> {
        const roles = () => ({
          authentication: [real.key!],
          assertionMethod: [real.key!],
          keyAgreement: [],
          capabilityInvocation: [],
          capabilityDelegation: [],
        });
        const unknownName = (rnd: SeededRandom) => `ZZ_${rnd.string(rnd.int(1, 12), ALNUM)}`;
        return {
          "POST /api/organisation/v1": {
            body: () => ({ id: randomUUID(), name: "fuzz new org" }),
            typed: ["name", "id"],
            semantic: (rnd) => [
              { id: real.org! },
              { name: "" },
              { name: "n".repeat(256) },
              { id: `${randomUUID()}x` },
              { name: rnd.string(300) },
            ],
          },
          "PATCH /api/organisation/v1/{id}": {
            body: () => ({ name: "fuzz renamed", deactivate: false }),
            typed: ["name", "deactivate"],
            semantic: () => [
              { name: "" },
              { name: "n".repeat(256) },
              { slug: "not-here" },
              { walletProviderIssuer: "nope" },
            ],
          },
          "POST /api/sts/organisation/v1": {
            body: () => ({ name: "fuzz sts", slug: "fuzz-sts-new" }),
            typed: ["name", "slug"],
            semantic: (rnd) => [
              { slug: "has space" },
              { slug: "under_score" },
              { slug: "" },
              { slug: `${rnd.string(5, ALNUM)}/../x` },
            ],
          },
          "PATCH /api/sts/organisation/v1/{id}": {
            body: () => ({ slug: "fuzz-sts-renamed", name: "fuzz sts renamed" }),
            typed: ["slug", "name"],
            semantic: () => [{ slug: "ünïcode" }, { slug: "x".repeat(256) }, { name: "" }],
          },
          "POST /api/key/v1": {
            body: () => ({
              organisationId: real.org!,
              keyType: "EDDSA",
              keyParams: {},
              name: "fuzz new key",
              storageType: "INTERNAL",
              storageParams: {},
            }),
            typed: ["organisationId", "keyType", "keyParams", "name", "storageType", "storageParams"],
            nested: ["storageParams"],
            semantic: (rnd) => [
              { keyType: unknownName(rnd) },
              { keyType: "eddsa" },
              { storageType: unknownName(rnd) },
              { organisationId: randomUUID() },
              { organisationId: "not-a-uuid" },
              { name: "" },
              { name: "fuzz key" }, // already exists (BR_0066)
              { storageParams: { jwk: { kty: "EC" } } },
              {
                storageParams: {
                  jwk: { kty: "OKP", crv: "Ed25519", x: rnd.string(43, ALNUM), d: rnd.string(43, ALNUM) },
                },
              },
              { storageParams: { jwk: "not a jwk" } },
            ],
          },
          "POST /api/did/v1": {
            body: () => ({ organisationId: real.org!, name: "fuzz new did", method: "KEY", keys: roles() }),
            typed: ["organisationId", "name", "method", "keys"],
            nested: ["keys"],
            semantic: (rnd) => [
              { method: unknownName(rnd) },
              { organisationId: randomUUID() },
              { keys: { ...roles(), authentication: [randomUUID()], assertionMethod: [randomUUID()] } },
              { keys: { ...roles(), authentication: ["not-a-uuid"] } },
              { keys: { authentication: [real.key!] } },
              { name: "" },
            ],
          },
          "PATCH /api/did/v1/{id}": {
            body: () => ({ deactivated: true }),
            typed: ["deactivated"],
          },
          "POST /api/identifier/v1": {
            body: () => ({ organisationId: real.org!, name: "fuzz new identifier", key: { keyId: real.key! } }),
            typed: ["organisationId", "name", "key"],
            nested: ["key"],
            semantic: () => [
              { key: { keyId: randomUUID() } },
              { key: { keyId: "123" } },
              { keyId: real.key! }, // both key and keyId (BR_0206)
              { did: { method: "KEY", keys: roles() } }, // both key and did
              { certificates: [{}] },
              { organisationId: randomUUID() },
              { name: "n".repeat(256) },
              {
                key: undefined,
                certificates: [
                  { keyId: real.key!, chain: "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----" },
                ],
              },
              { key: undefined, certificates: [{ keyId: real.key!, chain: "garbage" }] },
              { key: undefined, certificates: [] },
              {
                key: undefined,
                certificates: [
                  {
                    keyId: real.key!,
                    content: {
                      profile: "GENERIC",
                      subject: { commonName: "x" },
                      certificateAuthority: { identifierId: real.identifier! },
                      signer: "X509_CERTIFICATE",
                    },
                  },
                ],
              },
              {
                key: undefined,
                certificateAuthorities: [
                  { keyId: real.key!, selfSigned: { content: { subject: {} }, signer: "X509_CERTIFICATE" } },
                ],
              },
              { trustInformation: [{ type: "REGISTRATION_CERTIFICATE", data: "not.a.jwt" }] },
              { trustInformation: [{ type: "NOPE", data: "x" }] },
            ],
          },
          "POST /api/proof-schema/v1": {
            body: () => ({
              name: "fuzz proof schema",
              organisationId: real.org!,
              proofInputSchemas: [
                { credentialSchemaId: randomUUID(), claimSchemas: [{ id: randomUUID(), required: true }] },
              ],
            }),
            typed: ["name", "organisationId", "proofInputSchemas"],
            nested: ["proofInputSchemas"],
            semantic: () => [
              { credentialSets: [{ options: [] }] },
              { credentialSets: [{ options: [[randomUUID()]] }] },
              { credentialSets: [null] },
              { credentialSets: [{ options: [["not-a-uuid"]], required: "yes" }] },
              { proofInputSchemas: [] },
              { expireDuration: -1 },
            ],
          },
          "POST /api/proof-request/v1/{id}/share": {
            body: () => ({ params: { clientIdScheme: "x509_san_dns" } }),
            typed: ["params"],
            nested: ["params"],
            semantic: () => [
              { params: { clientIdScheme: "nope" } },
              { params: { clientIdScheme: "verifier_attestation", responseMode: "query" } },
              { params: null },
            ],
          },
          "POST /api/key/v1/{id}/generate-csr": {
            body: () => ({ profile: "GENERIC", subject: { commonName: "fuzz csr" } }),
            typed: ["profile", "subject"],
            nested: ["subject"],
            semantic: () => [
              { profile: "NOPE" },
              { subject: {} },
              { subject: { countryName: "Switzerland" } },
              { subject: { commonName: "x".repeat(100_000) } },
              { subject: { serialNumber: "ü-not-printable" } },
            ],
          },
          "POST /api/history/v1": {
            body: () => ({
              action: "CREATED",
              name: "fuzz event",
              entityType: "USER",
              source: "BRIDGE",
              organisationId: real.org!,
            }),
            typed: ["action", "name", "entityType", "source", "organisationId"],
            unbounded: ["name"],
            semantic: (rnd) => [
              { action: unknownName(rnd) },
              { entityType: "created" },
              { source: "CORE" },
              { entityId: "not-a-uuid" },
              { organisationId: `${real.org!}0` },
              { name: "" },
            ],
          },
        };
      }

      /** Every malformation, as (rnd) => case, for one route. Baseline runs each once; random cases pick among them. */
      function generatorsFor(route: ApiRoute, template: Template | undefined) {
        const key = routeKey(route);
        const method = route.method.toUpperCase();
        const hasId = /\{\w+\}/.test(route.path);
        const takesBody = method !== "DELETE" && method !== "GET";
        const realId = realIdFor(route.path);
        const garbageIds = (rnd: SeededRandom) => [
          randomUUID(),
          "..%2F",
          "..%2F..%2Fhealth",
          "%00",
          "...", // (".." or "%2e%2e" would be removed by URL normalisation and hit another, unmatched path)
          "%2e%2e%2e",
          "%ZZ",
          "%E0%A4%A",
          "not-a-uuid",
          `${realId}x`,
          "00000000-0000-0000-0000-000000000000",
          rnd.string(10 * 1024, ALNUM),
          encodeURIComponent(rnd.string(rnd.int(1, 64))),
        ];
        const pathWith = (id: string) => route.path.replace(/\{\w+\}/g, id);
        /** a path for a malformed body: mostly the real id (so the body is what fails), sometimes a garbage one */
        const bodyPath = (rnd: SeededRandom) => pathWith(rnd.bool(0.7) ? realId : rnd.pick(garbageIds(rnd)));
        const json = { "content-type": "application/json" };
        const base: () => JsonObject = template?.body ?? (() => ({}));
        const make = (kind: string, rest: Omit<FuzzCase, "route" | "kind" | "method">): FuzzCase => ({
          route: key,
          kind,
          method,
          ...rest,
        });

        type Generator = (rnd: SeededRandom) => FuzzCase;
        const generators: Record<string, Generator> = {};
        /** cases sent once each on top of one case per generator */
        const fixed: ((rnd: SeededRandom) => FuzzCase[])[] = [];

        // path and query malformations: valid body (when the route takes one) but a bad id or an unknown query param
        if (hasId) {
          generators["garbage id"] = (rnd) => {
            const id = rnd.pick(garbageIds(rnd));
            // a well-formed unknown UUID with a valid body could be a legitimate upsert (PATCH organisation): break the body
            const body = UUID.test(id) ? { ...base(), unknownField: 1 } : base();
            return make("garbage id", {
              path: pathWith(id),
              headers: json,
              ...(takesBody && { body: JSON.stringify(body) }),
            });
          };
        }
        generators["unknown query param"] = (rnd) =>
          make("unknown query param", {
            path: pathWith(realId),
            query: rnd.pick([
              `${rnd.string(rnd.int(1, 10), ALNUM)}=1`,
              "__proto__[polluted]=1",
              `constructor[prototype][${POLLUTED}]=1`,
              "page=0&pageSize=10",
              `${"x".repeat(2000)}=${"y".repeat(2000)}`,
            ]),
            headers: json,
            ...(takesBody && { body: JSON.stringify(base()) }),
          });

        if (takesBody) {
          generators["invalid JSON"] = (rnd) => {
            const text = JSON.stringify(base());
            const body = rnd.pick([
              text.slice(0, rnd.int(1, text.length - 1)),
              `${text}${rnd.pick(["x", "}", "]", ",", "{}", "null"])}`,
              "{not json",
              "{'name':'single quotes'}",
              '{"name":"trailing comma",}',
              "NaN",
              "undefined",
              "\u0000",
              "[1,2",
              '{"a":1}{"b":2}',
              `{"name":"${"\\u00"}zz"}`,
            ]);
            return make("invalid JSON", { path: bodyPath(rnd), headers: json, body });
          };
          generators["invalid UTF-8"] = (rnd) =>
            make("invalid UTF-8", {
              path: bodyPath(rnd),
              headers: json,
              body: new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]),
            });
          generators["non-object JSON"] = (rnd) =>
            make("non-object JSON", {
              path: bodyPath(rnd),
              headers: json,
              body: JSON.stringify(rnd.pick<Json>([[], [base()], "a string", 42, -0.5, null, true, false, ""])),
            });
          generators["wrong content type"] = (rnd) => {
            const contentType = rnd.pick([
              "text/plain",
              "text/plain;charset=UTF-8",
              "application/x-www-form-urlencoded",
              "multipart/form-data; boundary=xyz",
              "application/xml",
              "application/jsonx",
              "application/json-patch+json",
              "json",
              "",
            ]);
            return make("wrong content type", {
              path: bodyPath(rnd),
              headers: { "content-type": contentType },
              body: JSON.stringify(base()),
            });
          };
          generators["missing content type"] = (rnd) =>
            make("missing content type", {
              path: bodyPath(rnd),
              body: new TextEncoder().encode(JSON.stringify(base())),
            });
          generators["unknown field"] = (rnd) => {
            const name = rnd.pick(["extra", "id2", "ORGANISATIONID", "name ", rnd.string(rnd.int(1, 20), ALNUM)]);
            const body = {
              ...base(),
              [name in base() ? `${name}_x` : name]: rnd.pick<Json>([1, "x", null, {}, [], true]),
            };
            return make("unknown field", { path: bodyPath(rnd), headers: json, body: JSON.stringify(body) });
          };
          generators["prototype pollution"] = (rnd) => {
            const raw = rnd.pick([
              `"__proto__":{"${POLLUTED}":"yes"}`,
              `"constructor":{"prototype":{"${POLLUTED}":"yes"}}`,
              `"prototype":{"${POLLUTED}":"yes"}`,
              `"__proto__":null`,
            ]);
            return make("prototype pollution", {
              path: bodyPath(rnd),
              headers: json,
              body: withRawMember(base(), raw),
            });
          };
          generators["deep nesting"] = (rnd) => {
            const depth = rnd.pick([5000, 5000, 20_000]);
            const leaf = rnd.pick<Json>([1, "x", null]);
            let body: string;
            if (rnd.bool(0.3)) body = nested(depth, leaf, rnd.bool());
            else if (template && template.typed.length > 0 && rnd.bool()) {
              const field = rnd.pick(template.typed);
              // nested objects would be valid in an open record field (keyParams): nest arrays into object fields
              const original = base()[field];
              const asArray = (typeof original === "object" && original !== null) || rnd.bool();
              body = JSON.stringify({ ...base(), [field]: "__DEEP__" }).replace(
                '"__DEEP__"',
                nested(depth, leaf, asArray),
              );
            } else body = withRawMember(base(), `"deepUnknown":${nested(depth, leaf, rnd.bool())}`);
            return make("deep nesting", { path: bodyPath(rnd), headers: json, body });
          };
          generators["huge string"] = (rnd) => {
            const huge = rnd.string(1, ALNUM).repeat(MAX_BODY - 4096);
            const bounded = template?.typed.filter((name) => !template.unbounded?.includes(name)) ?? [];
            const field = bounded.length > 0 && rnd.bool(0.8) ? rnd.pick(bounded) : "hugeUnknown";
            const body = JSON.stringify({ ...base(), [field]: huge });
            expect(body.length).toBeLessThan(MAX_BODY);
            return make("huge string", { path: bodyPath(rnd), headers: json, body });
          };
          generators["too large"] = (rnd) =>
            make("too large", {
              path: bodyPath(rnd),
              headers: json,
              body: JSON.stringify({ ...base(), pad: "p".repeat(2 * MAX_BODY + rnd.int(0, 1000)) }),
            });
          if (template) {
            generators["wrong field type"] = (rnd) => {
              const body = base();
              const field = rnd.pick(template.typed);
              body[field] = wrongTypeFor(body[field], rnd);
              return make(`wrong field type (${field})`, {
                path: bodyPath(rnd),
                headers: json,
                body: JSON.stringify(body),
              });
            };
            generators["missing required fields"] = (rnd) => {
              // drop fields until the body holds a wrong-typed one: `{}` may be valid for routes with optional fields
              const body: Record<string, Json> = {};
              const field = rnd.pick(template.typed);
              body[field] = wrongTypeFor(base()[field], rnd);
              return make("missing fields + wrong type", {
                path: bodyPath(rnd),
                headers: json,
                body: JSON.stringify(body),
              });
            };
            if (template.nested && template.nested.length > 0) {
              const nestedFields = template.nested;
              generators["unknown nested field"] = (rnd) => {
                const body = base();
                const field = rnd.pick(nestedFields);
                body[field] = { ...(body[field] as Record<string, Json>), [`zz${rnd.string(4, ALNUM)}`]: 1 };
                return make(`unknown nested field (${field})`, {
                  path: bodyPath(rnd),
                  headers: json,
                  body: JSON.stringify(body),
                });
              };
            }
            if (template.semantic) {
              const semantic = template.semantic;
              const semanticCase = (patch: Patch) =>
                make(`semantically invalid (${Object.keys(patch).join(",")})`, {
                  path: hasId ? pathWith(realId) : route.path,
                  headers: json,
                  body: JSON.stringify({ ...base(), ...patch }),
                });
              generators["semantically invalid"] = (rnd) => semanticCase(rnd.pick(semantic(rnd)));
              fixed.push((rnd) => semantic(rnd).map(semanticCase));
            }
          }
        } else {
          // no body: the body is ignored, so only the id and the query can be wrong; add noise bodies to garbage-id cases
          generators["garbage id with noise body"] = (rnd) =>
            make("garbage id with noise body", {
              path: pathWith(rnd.pick(garbageIds(rnd))),
              headers: { "content-type": rnd.pick(["application/json", "text/plain"]) },
              body: rnd.pick(["{not json", "[]", "null", '{"__proto__":{}}']),
            });
        }
        return { generators, fixed };
      }

      async function send(fuzzCase: FuzzCase): Promise<Answer> {
        const url = `${mounted.baseUrl}${fuzzCase.path}${fuzzCase.query ? `?${fuzzCase.query}` : ""}`;
        // Oversized bodies go over a fresh connection: after a 413 the server's keep-alive connection is unusable (see the
        // "keep-alive after 413" test), which would break the next request fetch sends over its pooled socket.
        if (fuzzCase.kind === "too large") return sendOnFreshConnection(url, fuzzCase);
        const response = await fetch(url, {
          method: fuzzCase.method,
          headers: { accept: "application/json", ...fuzzCase.headers },
          ...(fuzzCase.body !== undefined && { body: fuzzCase.body as BodyInit }),
        });
        return { status: response.status, headers: response.headers, text: await response.text() };
      }

      function check(fuzzCase: FuzzCase, answer: Answer) {
        const label = `seed=${SEED} ${fuzzCase.method} ${fuzzCase.path.slice(0, 120)}${fuzzCase.query ? `?${fuzzCase.query.slice(0, 60)}` : ""} [${fuzzCase.kind}] → ${answer.status} ${answer.text.slice(0, 300)}`;
        expect(answer.status, label).toBeGreaterThanOrEqual(400);
        expect(answer.status, label).toBeLessThan(500);
        for (const pattern of STACK_TRACE) expect(answer.text, label).not.toMatch(pattern);
        expect(answer.headers.get("x-content-type-options"), label).toBe("nosniff");
        if (answer.status === 401 || answer.status === 403) {
          expect(answer.text, label).toBe("");
          return;
        }
        let body: unknown;
        expect(() => {
          body = JSON.parse(answer.text);
        }, label).not.toThrow();
        expect(answer.headers.get("content-type"), label).toMatch(/^application\/json/);
        expect(body, label).toMatchObject({ code: expect.stringMatching(/^BR_\d{4}$/), message: expect.any(String) });
        expect((body as { message: string }).message.length, label).toBeGreaterThan(0);
      }

      it("answers every malformed request with a 4xx error body, never a 5xx or a stack trace", async () => {
        const rnd = seededRandom(SEED);
        const all = templates();
        const routes = API_ROUTES.filter((route) => route.method !== "get" && (route.enabled?.(kit.config) ?? true));
        expect(routes.length).toBeGreaterThanOrEqual(9);
        for (const [key, template] of Object.entries(all)) {
          expect(Object.keys(template.body()), `${key}: typed fields must be in the template body`).toEqual(
            expect.arrayContaining(template.typed),
          );
        }
        const perRoute = routes.map((route) => ({ route, ...generatorsFor(route, all[routeKey(route)]) }));
        // every known mutating route has a template; a new route gets only the template-free malformations until added
        const withoutTemplate = routes.filter((route) => route.method !== "delete" && !all[routeKey(route)]);
        if (withoutTemplate.length > 0)
          console.info(`[fuzz] routes without a body template: ${withoutTemplate.map(routeKey).join(", ")}`);

        const cases: FuzzCase[] = [];
        for (const { generators, fixed } of perRoute) {
          for (const generate of Object.values(generators)) cases.push(generate(rnd));
          for (const generate of fixed) cases.push(...generate(rnd));
        }
        for (let i = 0; i < RANDOM_CASES; i++) {
          const { generators } = rnd.pick(perRoute);
          cases.push(rnd.pick(Object.values(generators))(rnd));
        }

        const started = performance.now();
        const statuses = new Map<number, number>();
        const kinds = new Map<string, number>();
        for (const fuzzCase of rnd.shuffle(cases)) {
          const answer = await send(fuzzCase);
          check(fuzzCase, answer);
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          const kind = fuzzCase.kind.replace(/ \(.*\)$/, "");
          kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
          if (fuzzCase.kind === "too large") expect(answer.status, `seed=${SEED} ${fuzzCase.route}`).toBe(413);
          if (fuzzCase.kind.startsWith("wrong content type") || fuzzCase.kind === "missing content type") {
            expect(answer.status, `seed=${SEED} ${fuzzCase.route} ${JSON.stringify(fuzzCase.headers)}`).toBe(415);
          }
        }
        console.info(
          `[fuzz] seed=${SEED}: ${cases.length} requests in ${Math.round(performance.now() - started)} ms; statuses ${JSON.stringify(Object.fromEntries(statuses))}; kinds ${JSON.stringify(Object.fromEntries(kinds))}`,
        );
        expect(cases.length).toBeGreaterThanOrEqual(300);
        expect(({} as Record<string, unknown>)[POLLUTED]).toBeUndefined();
        expect(Object.prototype).not.toHaveProperty(POLLUTED);
        expect(Object.prototype).not.toHaveProperty("polluted");
        const unexpected = consoleError.mock.calls.filter((call) => String(call[0]).includes("[credkit]"));
        expect(unexpected, `seed=${SEED}: unexpected errors were logged`).toEqual([]);
      });

      it("answers a chunked body over the limit with 413 before it has all been sent", async () => {
        const chunk = new TextEncoder().encode(`{"name":"${"c".repeat(64 * 1024)}`);
        let sent = 0;
        const answer = await sendOnFreshConnection(`${mounted.baseUrl}/api/key/v1`, {
          method: "POST",
          headers: { "content-type": "application/json", "transfer-encoding": "chunked" },
          body: async (write, stopped) => {
            while (!stopped() && sent < 8 * MAX_BODY) {
              sent += chunk.byteLength;
              if (!write(chunk)) await new Promise((resolve) => setTimeout(resolve, 1));
            }
          },
        });
        expect(answer.status).toBe(413);
        expect(JSON.parse(answer.text)).toMatchObject({ code: "BR_0084", message: expect.any(String) });
        expect(sent, "the server answered before the whole body was sent").toBeLessThan(8 * MAX_BODY);
      });

      it("keeps a keep-alive connection usable after a 413 (or closes it with Connection: close)", async () => {
        // One socket: an oversized POST (Content-Length 2 MiB), then GET /health. The 413 says "Connection: keep-alive", so
        // the connection must serve the GET; otherwise keep-alive clients (fetch/undici) fail their next request with
        // "other side closed".
        const { port } = new URL(mounted.baseUrl);
        const size = 2 * MAX_BODY;
        const transcript = await new Promise<string>((resolve) => {
          const socket = connect(Number(port), "127.0.0.1");
          let data = "";
          const finish = () => {
            socket.destroy();
            resolve(data);
          };
          const timer = setTimeout(finish, 2000);
          socket.on("data", (chunk) => {
            data += chunk.toString("latin1");
            if (/HTTP\/1\.1 204/.test(data)) {
              clearTimeout(timer);
              finish();
            }
          });
          socket.on("error", () => {});
          socket.on("close", () => {
            clearTimeout(timer);
            resolve(data);
          });
          socket.write(
            `POST /api/key/v1 HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${size}\r\n\r\n`,
          );
          socket.write("x".repeat(size), () => {
            setTimeout(() => socket.write("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n"), 20);
          });
        });
        expect(transcript).toMatch(/^HTTP\/1\.1 413 /);
        const closesConnection = /\r\nconnection: close\r\n/i.test(transcript);
        if (!closesConnection)
          expect(transcript, "GET /health on the kept-alive connection").toMatch(/HTTP\/1\.1 204 /);
      });

      it("is still healthy afterwards: /health is 204 and a normal key create works", async () => {
        expect((await api("GET", "/health")).status).toBe(204);
        const created = await api("POST", "/api/key/v1", {
          organisationId: real.org,
          keyType: "EDDSA",
          keyParams: {},
          name: `after fuzz ${randomUUID()}`,
          storageType: "INTERNAL",
          storageParams: {},
        });
        expect(created.status, created.text).toBe(201);
        expect((await api("GET", `/api/key/v1/${created.json.id}`)).json).toMatchObject({
          id: created.json.id,
          keyType: "EDDSA",
        });
        // the real entities the fuzzer aimed at are untouched
        expect((await api("GET", `/api/identifier/v1/${real.identifier}`)).status).toBe(200);
        expect((await api("GET", `/api/did/v1/${real.did}`)).json.deactivated).toBe(false);
        expect((await api("GET", `/api/organisation/v1/${real.org}`)).json).toMatchObject({ name: "fuzz org" });
        expect((await api("GET", `/api/organisation/v1/${real.org}`)).json).not.toHaveProperty("deactivatedAt");
        const keys = await api("GET", `/api/key/v1?page=0&pageSize=100&organisationId=${real.org}`);
        expect(keys.json.totalItems, "no fuzz request created a key").toBe(2);
        const organisations = await api("GET", "/api/organisation/v1?page=0&pageSize=100");
        expect(organisations.json.totalItems, "no fuzz request created (or upserted) an organisation").toBe(2);
        const dids = await api("GET", `/api/did/v1?page=0&pageSize=100&organisationId=${real.org}`);
        expect(dids.json.totalItems, "no fuzz request created a DID").toBe(1);
        const identifiers = await api("GET", `/api/identifier/v1?page=0&pageSize=100&organisationId=${real.org}`);
        expect(identifiers.json.totalItems, "no fuzz request created or deleted an identifier").toBe(1);
      });
    },
  );
