import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Credkit } from "../../src/credkit.js";
import { createTestKit } from "../../src/testing/create-test-kit.js";
import { type ApiResponse, createApiClient, HTTP_ADAPTERS, type MountedKit } from "../support/http-harness.js";

// List conventions of the management API (platform spec §4.1, reference §3.0, §3.9, §6) on keys, identifiers and
// history, over real loopback HTTP. A controllable clock gives every entity its own createdDate, one minute apart.

const NODE_HTTP = HTTP_ADAPTERS.find((adapter) => adapter.name === "node:http")!;
const START = Date.parse("2030-01-01T00:00:00.000Z");
const STACK_TRACE = /\bat .+\.(ts|js|mjs|cjs):\d+/;

interface Item {
  id: string;
  name: string;
  createdDate: string;
  lastModified?: string;
  [field: string]: unknown;
}

function expectBadRequest(response: ApiResponse, causeMentions?: string) {
  expect(response.status, response.text).toBe(400);
  expect(response.json).toMatchObject({ code: "BR_0084", message: "General input validation error" });
  expect(response.text).not.toMatch(STACK_TRACE);
  if (causeMentions !== undefined) expect(response.json.cause?.message).toContain(causeMentions);
}

function expectPage(response: ApiResponse, totalItems: number, totalPages: number): Item[] {
  expect(response.status, response.text).toBe(200);
  expect(Object.keys(response.json).sort()).toEqual(["totalItems", "totalPages", "values"]);
  expect(response.json).toMatchObject({ totalItems, totalPages });
  return response.json.values as Item[];
}

/** values of a single-page answer (asserting totals match the page) */
function valuesOf(response: ApiResponse): Item[] {
  expect(response.status, response.text).toBe(200);
  const values = response.json.values as Item[];
  expect(response.json.totalItems).toBe(values.length);
  expect(response.json.totalPages).toBe(values.length === 0 ? 0 : 1);
  return values;
}

const iso = (ms: number) => new Date(ms).toISOString();
const names = (items: Item[]) => items.map((item) => item.name);
const idsOf = (items: Item[]) => items.map((item) => item.id);
const sorted = (values: string[]) => [...values].sort();

function expectNonDecreasing(values: string[]) {
  for (let i = 1; i < values.length; i++) expect(values[i - 1]! <= values[i]!, `${values}`).toBe(true);
}

describe(`list conventions over ${NODE_HTTP.name}`, () => {
  let kit: Credkit;
  let mounted: MountedKit;
  let api: ReturnType<typeof createApiClient>;
  let clockMs = START;
  /** advances the clock one minute and returns the new time */
  const tick = () => {
    clockMs += 60_000;
    return clockMs;
  };

  let orgA: string;
  let orgB: string;
  let orgC: string;
  /** keys of org A by name, in creation order */
  const keys: { name: string; keyType: string; id: string; at: number }[] = [];
  const keyId = (name: string) => keys.find((key) => key.name === name)!.id;
  /** identifiers of org A by name, in creation order (the deleted one excluded) */
  const identifiers: { name: string; type: string; id: string; at: number }[] = [];
  /** history of org C, oldest first */
  const history: { name: string; at: number; entityId?: string }[] = [];
  const credentialId = randomUUID();
  let historyIdentifierId: string;

  const roles = (id: string) => ({
    authentication: [id],
    assertionMethod: [id],
    keyAgreement: [],
    capabilityInvocation: [],
    capabilityDelegation: [],
  });

  async function createKey(organisationId: string, name: string, keyType: string): Promise<string> {
    const at = tick();
    const created = await api("POST", "/api/key/v1", {
      organisationId,
      keyType,
      keyParams: {},
      name,
      storageType: "INTERNAL",
      storageParams: {},
    });
    expect(created.status, created.text).toBe(201);
    if (organisationId === orgA) keys.push({ name, keyType, id: created.json.id, at });
    if (organisationId === orgC) history.push({ name, at, entityId: created.json.id });
    return created.json.id;
  }

  async function createIdentifier(organisationId: string, body: Record<string, unknown>, type: string) {
    const at = tick();
    const created = await api("POST", "/api/identifier/v1", { organisationId, ...body });
    expect(created.status, created.text).toBe(201);
    const name = body.name as string;
    if (organisationId === orgA) identifiers.push({ name, type, id: created.json.id, at });
    if (organisationId === orgC) history.push({ name, at, entityId: created.json.id });
    return created.json.id as string;
  }

  async function pushHistory(body: Record<string, unknown>) {
    const at = tick();
    const created = await api("POST", "/api/history/v1", { organisationId: orgC, ...body });
    expect(created.status, created.text).toBe(201);
    history.push({
      name: body.name as string,
      at,
      ...(typeof body.entityId === "string" && { entityId: body.entityId }),
    });
  }

  beforeAll(async () => {
    kit = await createTestKit({
      clock: { now: () => new Date(clockMs) },
      config: { app: { coreBaseUrl: "https://issuer.example.com", enableHistoryCreateEndpoint: true } },
    });
    mounted = await NODE_HTTP.mount(kit);
    api = createApiClient(mounted.baseUrl);
    const orgIds: string[] = [];
    for (const name of ["list org A", "list org B", "list org C"]) {
      const at = tick();
      const created = await api("POST", "/api/organisation/v1", { name });
      expect(created.status).toBe(201);
      orgIds.push(created.json.id);
      // an organisation's creation is recorded in its own history
      if (name === "list org C") history.push({ name, at, entityId: created.json.id });
    }
    [orgA, orgB, orgC] = orgIds as [string, string, string];

    // keys of org A (all names lower case so that any collation sorts them alike)
    await createKey(orgA, "apple key", "EDDSA");
    await createKey(orgA, "apricot key", "ECDSA");
    await createKey(orgA, "banana key", "EDDSA");
    await createKey(orgA, "blueberry key", "ECDSA");
    await createKey(orgA, "cherry", "EDDSA");
    await createKey(orgA, "cherry pie", "ML_DSA");
    await createKey(orgA, "date key", "ECDSA");
    // same name in another organisation: never listed for org A
    await createKey(orgB, "apple key", "EDDSA");

    // identifiers of org A
    await createIdentifier(
      orgA,
      { name: "did key ident", did: { method: "KEY", keys: roles(keyId("apple key")) } },
      "DID",
    );
    await createIdentifier(
      orgA,
      { name: "Did Web Ident", did: { method: "WEB", keys: roles(keyId("apricot key")) } },
      "DID",
    );
    await createIdentifier(orgA, { name: "key ident ed", key: { keyId: keyId("banana key") } }, "KEY");
    await createIdentifier(orgA, { name: "key ident ec", key: { keyId: keyId("blueberry key") } }, "KEY");
    await createIdentifier(
      orgA,
      { name: "did jwk ident", did: { method: "JWK", keys: roles(keyId("date key")) } },
      "DID",
    );
    const doomed = await createIdentifier(orgA, { name: "key ident doomed", key: { keyId: keyId("cherry") } }, "KEY");
    identifiers.pop();
    tick();
    expect((await api("DELETE", `/api/identifier/v1/${doomed}`)).status).toBe(204);

    // history of org C: its own creation, 2 key creations, 2 pushed events, an identifier created and deleted
    const histKey = await createKey(orgC, "hist key one", "EDDSA");
    await createKey(orgC, "hist key two", "EDDSA");
    await pushHistory({
      action: "ISSUED",
      name: "Issued to Alice",
      entityType: "CREDENTIAL",
      entityId: credentialId,
      source: "BRIDGE",
    });
    await pushHistory({
      action: "REVOKED",
      name: "revoked for bob",
      entityType: "CREDENTIAL",
      entityId: credentialId,
      source: "STS",
    });
    historyIdentifierId = await createIdentifier(orgC, { name: "hist ident", key: { keyId: histKey } }, "KEY");
    const deletedAt = tick();
    expect((await api("DELETE", `/api/identifier/v1/${historyIdentifierId}`)).status).toBe(204);
    history.push({ name: "hist ident", at: deletedAt, entityId: historyIdentifierId });
  });

  afterAll(async () => {
    await mounted?.close();
    await kit?.close();
  });

  const keyList = (query: string) => api("GET", `/api/key/v1?organisationId=${orgA}&${query}`);
  const identifierList = (query: string) => api("GET", `/api/identifier/v1?organisationId=${orgA}&${query}`);
  const historyList = (query: string) => api("GET", `/api/history/v1?organisationId=${orgC}&${query}`);

  /** the same checks on all three lists */
  const lists = [
    { name: "keys", list: (q: string) => keyList(q), total: () => keys.length, newestFirst: () => [...keys].reverse() },
    {
      name: "identifiers",
      list: (q: string) => identifierList(q),
      total: () => identifiers.length,
      newestFirst: () => [...identifiers].reverse(),
    },
    {
      name: "history",
      list: (q: string) => historyList(q),
      total: () => history.length,
      newestFirst: () => [...history].reverse(),
    },
  ];

  describe.each(lists)("common conventions: $name", ({ list, total, newestFirst }) => {
    it("requires page and pageSize, pageSize 1..1000, page 0-based", async () => {
      const n = total();
      expect(n).toBeGreaterThanOrEqual(5);
      expectBadRequest(await list("pageSize=10"), "page");
      expectBadRequest(await list("page=0"), "pageSize");
      expectBadRequest(await list(""));
      expectBadRequest(await list("page=0&pageSize=0"), "pageSize");
      expectBadRequest(await list("page=0&pageSize=1001"), "pageSize");
      expectBadRequest(await list("page=-1&pageSize=10"), "page");
      expectBadRequest(await list("page=0.5&pageSize=10"), "page");
      expectBadRequest(await list("page=first&pageSize=10"), "page");
      expectBadRequest(await list("page=0&pageSize=ten"), "pageSize");
      expectBadRequest(await list("page=0&page=1&pageSize=10"), "page");
      expect(expectPage(await list("page=0&pageSize=1"), n, n)).toHaveLength(1);
      expect(expectPage(await list("page=0&pageSize=1000"), n, 1)).toHaveLength(n);
    });

    it("pages through the envelope with exact counts, newest first by default", async () => {
      const n = total();
      for (const size of [2, 3, n - 1, n]) {
        const pages = Math.ceil(n / size);
        const seen: string[] = [];
        for (let page = 0; page < pages; page++) {
          const values = expectPage(await list(`page=${page}&pageSize=${size}`), n, pages);
          expect(values).toHaveLength(page < pages - 1 ? size : n - size * (pages - 1));
          seen.push(...idsOf(values));
        }
        expect(expectPage(await list(`page=${pages}&pageSize=${size}`), n, pages)).toEqual([]);
        expect(seen, `pageSize=${size}`).toEqual(idsOf(valuesOf(await list("page=0&pageSize=1000"))));
        expect(new Set(seen).size).toBe(n);
      }
      expect(expectPage(await list("page=99&pageSize=3"), n, Math.ceil(n / 3))).toEqual([]);
      expect(names(valuesOf(await list("page=0&pageSize=1000")))).toEqual(newestFirst().map((item) => item.name));
    });

    it("sorts by createdDate: DESC by default, ASC when sort is given alone, DESC on request", async () => {
      const newest = newestFirst().map((item) => item.name);
      expect(names(valuesOf(await list("page=0&pageSize=50")))).toEqual(newest);
      expect(names(valuesOf(await list("page=0&pageSize=50&sort=createdDate")))).toEqual([...newest].reverse());
      expect(names(valuesOf(await list("page=0&pageSize=50&sort=createdDate&sortDirection=ASC")))).toEqual(
        [...newest].reverse(),
      );
      expect(names(valuesOf(await list("page=0&pageSize=50&sort=createdDate&sortDirection=DESC")))).toEqual(newest);
      const createdDates = valuesOf(await list("page=0&pageSize=50&sort=createdDate")).map((item) => item.createdDate);
      expect(createdDates).toEqual(
        newestFirst()
          .map((item) => iso(item.at))
          .reverse(),
      );
    });

    it("refuses unknown sort columns and directions", async () => {
      expectBadRequest(await list("page=0&pageSize=10&sort=bogus"), "sort");
      expectBadRequest(await list("page=0&pageSize=10&sort=createdDate&sortDirection=UP"), "sortDirection");
      expectBadRequest(await list("page=0&pageSize=10&sort=createdDate&sortDirection=desc"), "sortDirection");
    });

    it("filters by created date range (RFC 3339) and refuses malformed dates", async () => {
      const all = newestFirst().reverse();
      const third = all[2]!.at;
      const fifth = all[4]!.at;
      const after = valuesOf(await list(`page=0&pageSize=50&createdDateAfter=${iso(third - 30_000)}`));
      expect(names(after)).toEqual(
        all
          .slice(2)
          .reverse()
          .map((item) => item.name),
      );
      const before = valuesOf(await list(`page=0&pageSize=50&createdDateBefore=${iso(third + 30_000)}`));
      expect(names(before)).toEqual(
        all
          .slice(0, 3)
          .reverse()
          .map((item) => item.name),
      );
      const between = valuesOf(
        await list(
          `page=0&pageSize=50&createdDateAfter=${iso(third - 30_000)}&createdDateBefore=${iso(fifth + 30_000)}`,
        ),
      );
      expect(names(between)).toEqual(
        all
          .slice(2, 5)
          .reverse()
          .map((item) => item.name),
      );
      // the same instant written with an offset (the "+" percent-encoded) and without fractional seconds
      const offsetForm = new Date(third - 30_000 + 3_600_000).toISOString().replace(/\.\d{3}Z$/, "%2B01:00");
      expect(names(valuesOf(await list(`page=0&pageSize=50&createdDateAfter=${offsetForm}`)))).toEqual(names(after));
      // RFC 3339 §5.6 allows lower-case "t" and "z"
      const lowerCase = iso(third - 30_000)
        .replace("T", "t")
        .replace("Z", "z");
      expect(names(valuesOf(await list(`page=0&pageSize=50&createdDateAfter=${lowerCase}`)))).toEqual(names(after));
      expect(valuesOf(await list(`page=0&pageSize=50&createdDateAfter=${iso(clockMs + 60_000)}`))).toEqual([]);

      for (const bad of ["yesterday", "2030-01-01", "2030-13-01T00:00:00Z", "2030-01-01T00:00:00", "1893456000"]) {
        expectBadRequest(await list(`page=0&pageSize=10&createdDateAfter=${bad}`), "createdDateAfter");
      }
      expectBadRequest(await list("page=0&pageSize=10&createdDateBefore=not-a-date"), "createdDateBefore");
    });

    it("filters by ids[] (array, repeated and single notation) and refuses non-UUIDs", async () => {
      const listed = valuesOf(await list("page=0&pageSize=50"));
      const [first, second] = [listed[0]!, listed[3]!];
      expect(sorted(idsOf(valuesOf(await list(`page=0&pageSize=50&ids[]=${first.id}&ids[]=${second.id}`))))).toEqual(
        sorted([first.id, second.id]),
      );
      expect(sorted(idsOf(valuesOf(await list(`page=0&pageSize=50&ids=${first.id}&ids=${second.id}`))))).toEqual(
        sorted([first.id, second.id]),
      );
      expect(idsOf(valuesOf(await list(`page=0&pageSize=50&ids=${first.id}`)))).toEqual([first.id]);
      expect(valuesOf(await list(`page=0&pageSize=50&ids[]=${randomUUID()}`))).toEqual([]);
      expectBadRequest(await list("page=0&pageSize=10&ids[]=not-a-uuid"), "ids");
    });

    it("refuses unknown query params, naming them", async () => {
      const unknown = await list("page=0&pageSize=10&bogusFilter=1");
      expectBadRequest(unknown, "bogusFilter");
      expectBadRequest(await list("page=0&pageSize=10&organisation_id=x"), "organisation_id");
      expectBadRequest(await list("page=0&pageSize=10&__proto__=1"), "__proto__");
      expectBadRequest(await list("page=0&pageSize=10&constructor[prototype][polluted]=1"), "constructor");
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });
  });

  describe("keys", () => {
    it("scopes to the organisation", async () => {
      const values = valuesOf(await keyList("page=0&pageSize=50"));
      expect(sorted(idsOf(values))).toEqual(sorted(keys.map((key) => key.id)));
      expect(names(valuesOf(await api("GET", `/api/key/v1?page=0&pageSize=50&organisationId=${orgB}`)))).toEqual([
        "apple key",
      ]);
    });

    it("sorts by name, keyType and other columns", async () => {
      const byName = keys.map((key) => key.name).sort();
      expect(names(valuesOf(await keyList("page=0&pageSize=50&sort=name")))).toEqual(byName);
      expect(names(valuesOf(await keyList("page=0&pageSize=50&sort=name&sortDirection=ASC")))).toEqual(byName);
      expect(names(valuesOf(await keyList("page=0&pageSize=50&sort=name&sortDirection=DESC")))).toEqual(
        [...byName].reverse(),
      );
      const byType = valuesOf(await keyList("page=0&pageSize=50&sort=keyType")).map((key) => key.keyType as string);
      expectNonDecreasing(byType);
      expect(byType).toEqual(sorted(keys.map((key) => key.keyType)));
      const byTypeDesc = valuesOf(await keyList("page=0&pageSize=50&sort=keyType&sortDirection=DESC"));
      expect(byTypeDesc.map((key) => key.keyType)).toEqual(sorted(keys.map((key) => key.keyType)).reverse());
      for (const column of ["publicKey", "storageType"]) {
        expect(valuesOf(await keyList(`page=0&pageSize=50&sort=${column}`))).toHaveLength(7);
      }
      expectBadRequest(await keyList("page=0&pageSize=10&sort=lastModified"), "sort");
    });

    it("pages a sorted list consistently", async () => {
      const byName = keys.map((key) => key.name).sort();
      const pages = [];
      for (let page = 0; page < 4; page++) {
        pages.push(...names(expectPage(await keyList(`page=${page}&pageSize=2&sort=name`), 7, 4)));
      }
      expect(pages).toEqual(byName);
    });

    it("matches name as a case-insensitive prefix, or exactly with exact[]=name", async () => {
      expect(names(valuesOf(await keyList("page=0&pageSize=50&name=ap&sort=name")))).toEqual([
        "apple key",
        "apricot key",
      ]);
      expect(names(valuesOf(await keyList("page=0&pageSize=50&name=AP&sort=name")))).toEqual([
        "apple key",
        "apricot key",
      ]);
      expect(names(valuesOf(await keyList("page=0&pageSize=50&name=Cherry&sort=name")))).toEqual([
        "cherry",
        "cherry pie",
      ]);
      expect(valuesOf(await keyList("page=0&pageSize=50&name=pple"))).toEqual([]);
      expect(valuesOf(await keyList("page=0&pageSize=50&name=key"))).toEqual([]);
      expect(names(valuesOf(await keyList("page=0&pageSize=50&name=CHERRY&exact[]=name")))).toEqual(["cherry"]);
      expect(names(valuesOf(await keyList("page=0&pageSize=50&name=cherry&exact=name")))).toEqual(["cherry"]);
      expect(names(valuesOf(await keyList("page=0&pageSize=50&name=Apple%20Key&exact[]=name")))).toEqual(["apple key"]);
      expect(valuesOf(await keyList("page=0&pageSize=50&name=apple&exact[]=name"))).toEqual([]);
      expectBadRequest(await keyList("page=0&pageSize=10&name=apple&exact[]=keyType"), "exact");
    });

    it("filters keyTypes[] in array, repeated, indexed and single notation", async () => {
      const edOrEc = sorted(keys.filter((key) => key.keyType !== "ML_DSA").map((key) => key.id));
      expect(sorted(idsOf(valuesOf(await keyList("page=0&pageSize=50&keyTypes[]=EDDSA&keyTypes[]=ECDSA"))))).toEqual(
        edOrEc,
      );
      expect(sorted(idsOf(valuesOf(await keyList("page=0&pageSize=50&keyTypes=EDDSA&keyTypes=ECDSA"))))).toEqual(
        edOrEc,
      );
      expect(sorted(idsOf(valuesOf(await keyList("page=0&pageSize=50&keyTypes[0]=EDDSA&keyTypes[1]=ECDSA"))))).toEqual(
        edOrEc,
      );
      expect(names(valuesOf(await keyList("page=0&pageSize=50&keyTypes=ML_DSA")))).toEqual(["cherry pie"]);
      expect(names(valuesOf(await keyList("page=0&pageSize=50&keyTypes[]=ML_DSA")))).toEqual(["cherry pie"]);
      expect(valuesOf(await keyList("page=0&pageSize=50&keyTypes=RSA"))).toEqual([]);
      expect(valuesOf(await keyList("page=0&pageSize=50&keyStorages[]=INTERNAL"))).toHaveLength(7);
      expect(
        names(valuesOf(await keyList("page=0&pageSize=50&keyTypes=ECDSA&name=a&sort=name"))),
        "filters combine with AND",
      ).toEqual(["apricot key"]);
    });

    it("filters by lastModified range", async () => {
      const fourth = keys[3]!.at;
      expect(
        names(valuesOf(await keyList(`page=0&pageSize=50&lastModifiedAfter=${iso(fourth - 1000)}&sort=createdDate`))),
      ).toEqual(keys.slice(3).map((key) => key.name));
      expect(
        names(valuesOf(await keyList(`page=0&pageSize=50&lastModifiedBefore=${iso(fourth + 1000)}&sort=createdDate`))),
      ).toEqual(keys.slice(0, 4).map((key) => key.name));
      expectBadRequest(await keyList("page=0&pageSize=10&lastModifiedAfter=2030-02-30T00:00:00Z"), "lastModifiedAfter");
    });

    it("takes isRemote as true or false only", async () => {
      expect(valuesOf(await keyList("page=0&pageSize=50&isRemote=false"))).toHaveLength(7);
      expect(valuesOf(await keyList("page=0&pageSize=50&isRemote=true"))).toEqual([]);
      for (const bad of ["TRUE", "1", "yes", "", "false&isRemote=true"]) {
        expectBadRequest(await keyList(`page=0&pageSize=10&isRemote=${bad}`), "isRemote");
      }
    });
  });

  describe("identifiers", () => {
    it("excludes deleted identifiers and sorts by type and state", async () => {
      const values = valuesOf(await identifierList("page=0&pageSize=50"));
      expect(sorted(idsOf(values))).toEqual(sorted(identifiers.map((identifier) => identifier.id)));
      const byType = valuesOf(await identifierList("page=0&pageSize=50&sort=type")).map((i) => i.type as string);
      expect(byType).toEqual(["DID", "DID", "DID", "KEY", "KEY"]);
      const byTypeDesc = valuesOf(await identifierList("page=0&pageSize=50&sort=type&sortDirection=DESC"));
      expect(byTypeDesc.map((i) => i.type)).toEqual(["KEY", "KEY", "DID", "DID", "DID"]);
      expect(valuesOf(await identifierList("page=0&pageSize=50&sort=state"))).toHaveLength(5);
      expect(names(valuesOf(await identifierList("page=0&pageSize=50&types[]=KEY&sort=name")))).toEqual([
        "key ident ec",
        "key ident ed",
      ]);
      expect(
        names(valuesOf(await identifierList("page=0&pageSize=50&types[]=KEY&sort=name&sortDirection=DESC"))),
      ).toEqual(["key ident ed", "key ident ec"]);
      expectBadRequest(await identifierList("page=0&pageSize=10&sort=did"), "sort");
    });

    it("matches name case-insensitively (prefix, or exact)", async () => {
      const didNames = sorted(["did key ident", "Did Web Ident", "did jwk ident"]);
      expect(sorted(names(valuesOf(await identifierList("page=0&pageSize=50&name=did"))))).toEqual(didNames);
      expect(sorted(names(valuesOf(await identifierList("page=0&pageSize=50&name=DID%20"))))).toEqual(didNames);
      expect(names(valuesOf(await identifierList("page=0&pageSize=50&name=did%20WEB"))).sort()).toEqual([
        "Did Web Ident",
      ]);
      expect(names(valuesOf(await identifierList("page=0&pageSize=50&name=DID%20WEB%20IDENT&exact[]=name")))).toEqual([
        "Did Web Ident",
      ]);
      expect(valuesOf(await identifierList("page=0&pageSize=50&name=did%20web&exact[]=name"))).toEqual([]);
    });

    it("filters types[], states[], didMethods[], keyAlgorithms[] and isRemote", async () => {
      const idsOfType = (type: string) => sorted(identifiers.filter((i) => i.type === type).map((i) => i.id));
      expect(sorted(idsOf(valuesOf(await identifierList("page=0&pageSize=50&types[]=DID"))))).toEqual(idsOfType("DID"));
      expect(sorted(idsOf(valuesOf(await identifierList("page=0&pageSize=50&types=KEY"))))).toEqual(idsOfType("KEY"));
      expect(valuesOf(await identifierList("page=0&pageSize=50&types[]=DID&types[]=KEY"))).toHaveLength(5);
      expect(valuesOf(await identifierList("page=0&pageSize=50&types=DID&types=KEY"))).toHaveLength(5);
      expect(valuesOf(await identifierList("page=0&pageSize=50&types[]=CERTIFICATE"))).toEqual([]);
      expectBadRequest(await identifierList("page=0&pageSize=10&types[]=PASSPORT"), "types");

      expect(valuesOf(await identifierList("page=0&pageSize=50&states[]=ACTIVE"))).toHaveLength(5);
      expect(valuesOf(await identifierList("page=0&pageSize=50&states=ACTIVE&states=DEACTIVATED"))).toHaveLength(5);
      expect(valuesOf(await identifierList("page=0&pageSize=50&states=DEACTIVATED"))).toEqual([]);
      expectBadRequest(await identifierList("page=0&pageSize=10&states[]=DELETED"), "states");

      expect(
        sorted(names(valuesOf(await identifierList("page=0&pageSize=50&didMethods[]=KEY&didMethods[]=JWK")))),
      ).toEqual(["did jwk ident", "did key ident"]);
      expect(names(valuesOf(await identifierList("page=0&pageSize=50&didMethods=WEB")))).toEqual(["Did Web Ident"]);
      expect(
        names(valuesOf(await identifierList("page=0&pageSize=50&didMethods=KEY&didMethods=WEB&types=KEY"))),
      ).toEqual([]);

      // keyAlgorithms[]: the identifier's own key, or a key of its DID
      expect(sorted(names(valuesOf(await identifierList("page=0&pageSize=50&keyAlgorithms[]=ECDSA"))))).toEqual([
        "Did Web Ident",
        "did jwk ident",
        "key ident ec",
      ]);
      expect(sorted(names(valuesOf(await identifierList("page=0&pageSize=50&keyAlgorithms=EDDSA"))))).toEqual([
        "did key ident",
        "key ident ed",
      ]);
      expect(names(valuesOf(await identifierList("page=0&pageSize=50&keyAlgorithms=ECDSA&types=KEY")))).toEqual([
        "key ident ec",
      ]);
      expect(valuesOf(await identifierList("page=0&pageSize=50&keyAlgorithms=ML_DSA"))).toEqual([]);

      expect(valuesOf(await identifierList("page=0&pageSize=50&isRemote=false"))).toHaveLength(5);
      expect(valuesOf(await identifierList("page=0&pageSize=50&isRemote=true"))).toEqual([]);
      for (const bad of ["False", "0", "no", "null"]) {
        expectBadRequest(await identifierList(`page=0&pageSize=10&isRemote=${bad}`), "isRemote");
      }
    });

    it("filters by lastModified range", async () => {
      const third = identifiers[2]!.at;
      expect(
        names(
          valuesOf(await identifierList(`page=0&pageSize=50&sort=createdDate&lastModifiedAfter=${iso(third - 1000)}`)),
        ),
      ).toEqual(identifiers.slice(2).map((i) => i.name));
      expect(
        names(
          valuesOf(await identifierList(`page=0&pageSize=50&sort=createdDate&lastModifiedBefore=${iso(third - 1000)}`)),
        ),
      ).toEqual(identifiers.slice(0, 2).map((i) => i.name));
      expectBadRequest(await identifierList("page=0&pageSize=10&lastModifiedBefore=2030-01-01T25:00:00Z"));
    });

    it("scopes to the organisation", async () => {
      expect(valuesOf(await api("GET", `/api/identifier/v1?page=0&pageSize=50&organisationId=${orgB}`))).toEqual([]);
    });
  });

  describe("history", () => {
    it("sorts by action, entityType and source", async () => {
      const byAction = valuesOf(await historyList("page=0&pageSize=50&sort=action")).map((h) => h.action as string);
      expect(byAction).toEqual(["CREATED", "CREATED", "CREATED", "CREATED", "DELETED", "ISSUED", "REVOKED"]);
      const byType = valuesOf(await historyList("page=0&pageSize=50&sort=entityType&sortDirection=DESC"));
      expect(byType.map((h) => h.entityType)).toEqual([
        "ORGANISATION",
        "KEY",
        "KEY",
        "IDENTIFIER",
        "IDENTIFIER",
        "CREDENTIAL",
        "CREDENTIAL",
      ]);
      const bySource = valuesOf(await historyList("page=0&pageSize=50&sort=source")).map((h) => h.source as string);
      expectNonDecreasing(bySource);
      expect(bySource).toEqual(["BRIDGE", "CORE", "CORE", "CORE", "CORE", "CORE", "STS"]);
      expect(valuesOf(await historyList("page=0&pageSize=50&sort=user"))).toHaveLength(7);
      expect(valuesOf(await historyList("page=0&pageSize=50&sort=organisationId"))).toHaveLength(7);
      expectBadRequest(await historyList("page=0&pageSize=10&sort=name"), "sort");
    });

    it("filters entityTypes[], actions[] and entityIds[]", async () => {
      expect(sorted(names(valuesOf(await historyList("page=0&pageSize=50&entityTypes[]=CREDENTIAL"))))).toEqual([
        "Issued to Alice",
        "revoked for bob",
      ]);
      expect(valuesOf(await historyList("page=0&pageSize=50&entityTypes=KEY&entityTypes=IDENTIFIER"))).toHaveLength(4);
      expect(valuesOf(await historyList("page=0&pageSize=50&entityTypes[]=KEY&entityTypes[]=IDENTIFIER"))).toHaveLength(
        4,
      );
      expect(valuesOf(await historyList("page=0&pageSize=50&entityTypes=PROOF"))).toEqual([]);
      expectBadRequest(await historyList("page=0&pageSize=10&entityTypes[]=SPACESHIP"), "entityTypes");

      const deleted = valuesOf(await historyList("page=0&pageSize=50&actions[]=DELETED"));
      expect(deleted).toMatchObject([{ name: "hist ident", entityType: "IDENTIFIER", entityId: historyIdentifierId }]);
      expect(sorted(names(valuesOf(await historyList("page=0&pageSize=50&actions=ISSUED&actions=REVOKED"))))).toEqual([
        "Issued to Alice",
        "revoked for bob",
      ]);
      expect(valuesOf(await historyList("page=0&pageSize=50&actions=CREATED"))).toHaveLength(4);
      expect(
        valuesOf(await historyList("page=0&pageSize=50&actions=CREATED&entityTypes=KEY")),
        "filters combine with AND",
      ).toHaveLength(2);
      expectBadRequest(await historyList("page=0&pageSize=10&actions=EXPLODED"), "actions");

      expect(sorted(names(valuesOf(await historyList(`page=0&pageSize=50&entityIds[]=${credentialId}`))))).toEqual([
        "Issued to Alice",
        "revoked for bob",
      ]);
      expect(valuesOf(await historyList(`page=0&pageSize=50&entityIds=${historyIdentifierId}`))).toHaveLength(2);
      expect(
        valuesOf(await historyList(`page=0&pageSize=50&entityIds=${historyIdentifierId}&entityIds=${credentialId}`)),
      ).toHaveLength(4);
      expectBadRequest(await historyList("page=0&pageSize=10&entityIds[]=123"), "entityIds");
    });

    it("searches text anywhere in the record, and refuses name together with searchText", async () => {
      expect(names(valuesOf(await historyList("page=0&pageSize=50&searchText=alice")))).toEqual(["Issued to Alice"]);
      expect(names(valuesOf(await historyList("page=0&pageSize=50&searchText=FOR%20B")))).toEqual(["revoked for bob"]);
      expect(valuesOf(await historyList("page=0&pageSize=50&searchText=key%20t"))).toMatchObject([
        { name: "hist key two" },
      ]);
      expect(valuesOf(await historyList("page=0&pageSize=50&searchText=nothing-like-this"))).toEqual([]);
      expectBadRequest(await historyList("page=0&pageSize=10&name=hist&searchText=key"), "searchText");
    });

    it("matches name as a case-insensitive prefix, or exactly with exact[]=name", async () => {
      expect(valuesOf(await historyList("page=0&pageSize=50&name=HIST"))).toHaveLength(4);
      expect(valuesOf(await historyList("page=0&pageSize=50&name=to%20alice"))).toEqual([]);
      expect(names(valuesOf(await historyList("page=0&pageSize=50&name=hist%20key%20ONE&exact[]=name")))).toEqual([
        "hist key one",
      ]);
      expect(valuesOf(await historyList("page=0&pageSize=50&name=hist%20key&exact[]=name"))).toEqual([]);
    });

    it("takes booleans as true or false only", async () => {
      expectBadRequest(await historyList("page=0&pageSize=10&showSystemHistory=maybe"), "showSystemHistory");
      expectBadRequest(await historyList("page=0&pageSize=10&showSystemHistory=1"), "showSystemHistory");
      expect(valuesOf(await historyList("page=0&pageSize=50&showSystemHistory=false"))).toHaveLength(7);
    });

    it("refuses lastModified filters (history events have no lastModified)", async () => {
      for (const param of ["lastModifiedAfter", "lastModifiedBefore"]) {
        expectBadRequest(await historyList(`page=0&pageSize=10&${param}=${iso(START)}`), param);
      }
    });

    it("scopes to the organisation", async () => {
      const otherOrg = valuesOf(await api("GET", `/api/history/v1?page=0&pageSize=100&organisationId=${orgA}`));
      expect(otherOrg.length).toBeGreaterThan(0);
      expect(otherOrg.every((event) => event.organisationId === orgA)).toBe(true);
    });
  });
});
