import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { ConfigOverrides } from "../../src/config/load-config.js";
import type { Credkit } from "../../src/credkit.js";
import { credkitNode } from "../../src/http/mount.js";
import type { Clock } from "../../src/ports/clock.js";
import type { Storage } from "../../src/ports/storage.js";
import { createTestKit } from "../../src/testing/create-test-kit.js";
import { type ApiResponse, createApiClient } from "./http-harness.js";

// Boots an issuer credkit on a real loopback port whose `app.coreBaseUrl` is its own URL (so the URLs it puts in
// offers, metadata and credentials are reachable by a wallet), and sets up an organisation, an EdDSA did:key issuer
// identifier, optionally an ECDSA KEY identifier, and an SD-JWT VC credential schema.

export const PROTOCOL = "OPENID4VCI_FINAL1";
export const PRE_AUTHORIZED_GRANT = "urn:ietf:params:oauth:grant-type:pre-authorized_code";

/** Claim values as a JSON tree: nested objects for OBJECT claims, arrays for array claims. */
export type ClaimTree = Record<string, unknown>;

export const DEFAULT_CLAIMS: ClaimTree = {
  given_name: "Erika",
  age: 42,
  address: { street: "Heidestraße 17", city: "Köln" },
  nationalities: ["DE", "FR"],
};

export interface SchemaOptions {
  name?: string;
  transactionCode?: { type: "NUMERIC" | "ALPHANUMERIC"; length: number; description?: string };
  /** TOKENSTATUSLIST when true */
  revocation?: boolean;
  allowSuspension?: boolean;
}

export interface IssuerFixtureOptions extends SchemaOptions {
  /** also create an ECDSA (P-256) KEY identifier */
  keyIdentifier?: boolean;
  clock?: Clock;
  /** default in-memory storage (see `withLatency` to make concurrent requests interleave) */
  storage?: Storage;
  /** extra configuration, merged under the fixture's coreBaseUrl */
  config?: ConfigOverrides;
}

export interface OfferOptions {
  /** issuer identifier id; default the did:key identifier */
  issuer?: string;
  protocol?: string;
}

export interface CreatedOffer {
  credentialId: string;
  /** `openid-credential-offer://?credential_offer_uri=…` */
  url: string;
  /** the by-reference offer URL inside `url` */
  offerUri: string;
  transactionCode?: string;
  expiresAt?: string;
}

export interface SchemaHandle {
  id: string;
  /** the schema's `schemaId`: credential configuration id and `vct` */
  vct: string;
  /** claim schema id by slash path (`address/street`) */
  claimIds: Record<string, string>;
  /** POST /api/credential/v1 → credential id (CREATED) */
  createCredential(claims?: ClaimTree, options?: OfferOptions): Promise<string>;
  /** creates and shares a credential (PENDING) */
  createOffer(claims?: ClaimTree, options?: OfferOptions): Promise<CreatedOffer>;
  /** the credential issuer identifier of this schema */
  credentialIssuer: string;
  /** `{credentialIssuer}` endpoints */
  endpoints: { token: string; credential: string; notification: string; nonce: string };
}

export interface IssuerFixture extends SchemaHandle {
  kit: Credkit;
  baseUrl: string;
  api: ReturnType<typeof createApiClient>;
  organisationId: string;
  didIdentifierId: string;
  /** the did:key of the DID identifier */
  did: string;
  keyIdentifierId?: string;
  schema: SchemaHandle;
  /** another schema in the same organisation */
  addSchema(options?: SchemaOptions): Promise<SchemaHandle>;
  /** GET /api/credential/v1/{id} → state */
  credentialState(credentialId: string): Promise<string>;
  close(): Promise<void>;
}

const REPOSITORIES = [
  "organisations",
  "keys",
  "dids",
  "identifiers",
  "certificates",
  "history",
  "credentialSchemas",
  "credentials",
  "interactions",
  "revocationLists",
  "revocationEntries",
  "nonces",
  "proofSchemas",
  "proofs",
  "notifications",
] as const;

/**
 * Storage whose every repository call first waits a random 0..maxMs milliseconds, like a database round trip. In-memory
 * calls otherwise resolve in microtasks, so concurrent HTTP requests would run one after the other and races (double
 * redemption, shared tx_code attempts) would never show.
 */
export function withLatency(storage: Storage, maxMs = 3): Storage {
  const pause = () => new Promise<void>((resolve) => setTimeout(resolve, Math.floor(Math.random() * (maxMs + 1))));
  const wrap = (inner: Storage): Storage => {
    const repositories = Object.fromEntries(
      REPOSITORIES.map((name) => {
        const repository = inner[name] as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
        const wrapped = Object.fromEntries(
          Object.keys(repository).map((method) => [
            method,
            async (...args: unknown[]) => {
              await pause();
              return repository[method]!(...args);
            },
          ]),
        );
        return [name, wrapped];
      }),
    );
    return {
      ...(repositories as unknown as Omit<Storage, "kind" | "transaction" | "close">),
      kind: inner.kind,
      transaction: (fn) => inner.transaction((tx) => fn(wrap(tx))),
      close: () => inner.close(),
    };
  };
  return wrap(storage);
}

function expectStatus(response: ApiResponse, status: number, what: string): ApiResponse {
  if (response.status !== status)
    throw new Error(`${what}: expected HTTP ${status}, got ${response.status} ${response.text}`);
  return response;
}

/** Flattens a claim tree into `claimValues` of POST /api/credential/v1. */
export function toClaimValues(claims: ClaimTree, claimIds: Record<string, string>) {
  const values: { claimId: string; path: string; value: string }[] = [];
  const walk = (value: unknown, path: string, shape: string) => {
    if (Array.isArray(value)) {
      for (const [index, item] of value.entries()) walk(item, `${path}/${index}`, shape);
    } else if (value !== null && typeof value === "object") {
      for (const [key, child] of Object.entries(value)) walk(child, `${path}/${key}`, `${shape}/${key}`);
    } else {
      const claimId = claimIds[shape];
      if (!claimId) throw new Error(`no claim schema for ${shape}`);
      values.push({ claimId, path, value: String(value) });
    }
  };
  for (const [key, value] of Object.entries(claims)) walk(value, key, key);
  return values;
}

export async function startIssuerFixture(options: IssuerFixtureOptions = {}): Promise<IssuerFixture> {
  // listen first with a late-bound handler: the kit's coreBaseUrl must be the URL the server answers on
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  const server = createServer((req, res) => {
    if (handler) handler(req, res);
    else res.writeHead(503).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const closeServer = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });

  let kit: Credkit;
  try {
    kit = await createTestKit({
      config: { ...options.config, app: { ...options.config?.app, coreBaseUrl: baseUrl } },
      ...(options.clock && { clock: options.clock }),
      ...(options.storage && { storage: options.storage }),
    });
  } catch (error) {
    await closeServer();
    throw error;
  }
  handler = credkitNode(kit);
  const api = createApiClient(baseUrl);
  const close = async () => {
    await closeServer();
    await kit.close();
  };

  try {
    const organisationId = expectStatus(
      await api("POST", "/api/organisation/v1", { name: `Issuer ${baseUrl}` }),
      201,
      "organisation",
    ).json.id as string;
    const createKey = async (keyType: "EDDSA" | "ECDSA", name: string) =>
      expectStatus(
        await api("POST", "/api/key/v1", {
          organisationId,
          keyType,
          keyParams: {},
          name,
          storageType: "INTERNAL",
          storageParams: {},
        }),
        201,
        `key ${keyType}`,
      ).json.id as string;

    const eddsaKey = await createKey("EDDSA", "issuer eddsa");
    const didIdentifierId = expectStatus(
      await api("POST", "/api/identifier/v1", {
        organisationId,
        name: "issuer did:key",
        did: {
          method: "KEY",
          keys: {
            authentication: [eddsaKey],
            assertionMethod: [eddsaKey],
            keyAgreement: [],
            capabilityInvocation: [],
            capabilityDelegation: [],
          },
        },
      }),
      201,
      "DID identifier",
    ).json.id as string;
    const did = expectStatus(await api("GET", `/api/identifier/v1/${didIdentifierId}`), 200, "identifier detail").json
      .did.did as string;

    let keyIdentifierId: string | undefined;
    if (options.keyIdentifier) {
      const ecdsaKey = await createKey("ECDSA", "issuer ecdsa");
      keyIdentifierId = expectStatus(
        await api("POST", "/api/identifier/v1", { organisationId, name: "issuer key", key: { keyId: ecdsaKey } }),
        201,
        "KEY identifier",
      ).json.id as string;
    }

    let schemaCount = 0;
    const addSchema = async (schemaOptions: SchemaOptions = {}): Promise<SchemaHandle> => {
      schemaCount++;
      const created = expectStatus(
        await api("POST", "/api/credential-schema/v1", {
          organisationId,
          name: schemaOptions.name ?? `Identity ${schemaCount}`,
          format: "SD_JWT_VC",
          ...(schemaOptions.revocation && { revocationMethod: "TOKENSTATUSLIST" }),
          ...(schemaOptions.allowSuspension !== undefined && { allowSuspension: schemaOptions.allowSuspension }),
          ...(schemaOptions.transactionCode && { transactionCode: schemaOptions.transactionCode }),
          claims: [
            { key: "given_name", datatype: "STRING", required: true },
            { key: "age", datatype: "NUMBER", required: false },
            {
              key: "address",
              datatype: "OBJECT",
              required: false,
              claims: [
                { key: "street", datatype: "STRING", required: true },
                { key: "city", datatype: "STRING", required: false },
              ],
            },
            { key: "nationalities", datatype: "STRING", required: false, array: true },
          ],
        }),
        201,
        "credential schema",
      );
      const id = created.json.id as string;
      const detail = expectStatus(await api("GET", `/api/credential-schema/v1/${id}`), 200, "schema detail").json;
      const claimIds: Record<string, string> = {};
      const walk = (claims: { id: string; key: string; claims?: unknown[] }[], prefix: string) => {
        for (const claim of claims) {
          const path = prefix ? `${prefix}/${claim.key}` : claim.key;
          claimIds[path] = claim.id;
          walk((claim.claims ?? []) as never, path);
        }
      };
      walk(detail.claims, "");

      const createCredential = async (claims: ClaimTree = DEFAULT_CLAIMS, offer: OfferOptions = {}) =>
        expectStatus(
          await api("POST", "/api/credential/v1", {
            credentialSchemaId: id,
            issuer: offer.issuer ?? didIdentifierId,
            protocol: offer.protocol ?? PROTOCOL,
            claimValues: toClaimValues(claims, claimIds),
          }),
          201,
          "credential",
        ).json.id as string;

      const credentialIssuer = `${baseUrl}/ssi/openid4vci/final-1.0/${PROTOCOL}/${id}`;
      return {
        id,
        vct: detail.schemaId as string,
        claimIds,
        createCredential,
        async createOffer(claims, offer) {
          const credentialId = await createCredential(claims, offer);
          const shared = expectStatus(await api("POST", `/api/credential/v1/${credentialId}/share`), 201, "share").json;
          return {
            credentialId,
            url: shared.url as string,
            offerUri: new URL(shared.url as string).searchParams.get("credential_offer_uri")!,
            ...(shared.transactionCode !== undefined && { transactionCode: shared.transactionCode as string }),
            ...(shared.expiresAt !== undefined && { expiresAt: shared.expiresAt as string }),
          };
        },
        credentialIssuer,
        endpoints: {
          token: `${baseUrl}/ssi/openid4vci/final-1.0/${id}/token`,
          credential: `${baseUrl}/ssi/openid4vci/final-1.0/${id}/credential`,
          notification: `${baseUrl}/ssi/openid4vci/final-1.0/${id}/notification`,
          nonce: `${baseUrl}/ssi/openid4vci/final-1.0/${PROTOCOL}/nonce`,
        },
      };
    };

    const schema = await addSchema(options);
    return {
      ...schema,
      kit,
      baseUrl,
      api,
      organisationId,
      didIdentifierId,
      did,
      ...(keyIdentifierId !== undefined && { keyIdentifierId }),
      schema,
      addSchema,
      async credentialState(credentialId) {
        return expectStatus(await api("GET", `/api/credential/v1/${credentialId}`), 200, "credential detail").json
          .state as string;
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
