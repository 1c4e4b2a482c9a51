import { createHash } from "node:crypto";
import { ES256 } from "@sd-jwt/crypto-nodejs";
import { SDJwtVcInstance } from "@sd-jwt/sd-jwt-vc";
import type { PresentationFrame } from "@sd-jwt/types";
import { CompactEncrypt, exportJWK, generateKeyPair, importJWK, type JWK, SignJWT } from "jose";
import type { Clock } from "../../src/ports/clock.js";
import type { ApiResponse } from "./http-harness.js";
import {
  type ClaimTree,
  DEFAULT_CLAIMS,
  type IssuerFixture,
  type IssuerFixtureOptions,
  PRE_AUTHORIZED_GRANT,
  type SchemaHandle,
  startIssuerFixture,
} from "./issuer-fixture.js";

// A credkit that issues and verifies, on a real loopback port (see issuer-fixture.ts), plus an independent holder:
// its keys are jose keys that never enter credkit, it obtains SD-JWT VCs over OpenID4VCI 1.0 with plain fetch, and it
// builds presentations with @sd-jwt/sd-jwt-vc. The verifier side is driven through the management API: proof schemas,
// proof requests, share (openid4vp:// URL) and the request object behind its request_uri.

export const VP_PROTOCOL = "OPENID4VP_FINAL1";

/** a holder key pair (ES256) that only the test knows */
export interface HolderKey {
  privateKey: CryptoKey;
  privateJwk: JWK;
  publicJwk: JWK;
}

export async function newHolderKey(): Promise<HolderKey> {
  const pair = await generateKeyPair("ES256", { extractable: true });
  return {
    privateKey: pair.privateKey,
    privateJwk: await exportJWK(pair.privateKey),
    publicJwk: await exportJWK(pair.publicKey),
  };
}

export interface IssuedCredential {
  credentialId: string;
  /** `<issuer-jwt>~<disclosure>~…~` as the holder received it */
  sdJwt: string;
  vct: string;
  holder: HolderKey;
}

export interface DcqlClaimJson {
  id: string;
  path: (string | number | null)[];
}

export interface DcqlCredentialQueryJson {
  id: string;
  format: string;
  meta: { vct_values: string[] };
  claims: DcqlClaimJson[];
  claim_sets?: string[][];
  require_cryptographic_holder_binding?: boolean;
}

export interface RequestObjectPayload {
  response_type: string;
  client_id: string;
  response_mode: "direct_post" | "direct_post.jwt";
  response_uri: string;
  nonce: string;
  state: string;
  dcql_query: { credentials: DcqlCredentialQueryJson[] };
  client_metadata: {
    vp_formats_supported: Record<string, Record<string, string[]>>;
    jwks?: { keys: JWK[] };
    encrypted_response_enc_values_supported?: string[];
  };
  aud: string;
  iat: number;
  exp: number;
  [name: string]: unknown;
}

export interface SharedRequest {
  proofId: string;
  /** `openid4vp://?client_id=…&request_uri=…` */
  url: string;
  /** client_id of the URL */
  clientId: string;
  requestUri: string;
  expiresAt?: string;
  /** the request object (compact JWS) */
  requestObject: string;
  header: Record<string, unknown>;
  payload: RequestObjectPayload;
}

/** one input of a proof schema: the claims by slash path (`address/street`) */
export interface ProofInputSpec {
  schema: SchemaHandle;
  claims: { path: string; required: boolean }[];
}

export interface ShareParams {
  clientIdScheme?: "redirect_uri" | "decentralized_identifier" | "did";
  responseMode?: "direct_post" | "direct_post.jwt";
}

export interface KeyBindingOptions {
  aud: string;
  nonce: string;
  /** seconds; default the kit's now */
  iat?: number;
}

export interface HttpResult {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: protocol responses are inspected freely
  body: any;
}

export interface VerifierFixtureOptions extends IssuerFixtureOptions {
  /** app.maxOid4vpResponseBodyBytes */
  maxOid4vpResponseBodyBytes?: number;
}

export interface VerifierFixture {
  issuer: IssuerFixture;
  api: IssuerFixture["api"];
  baseUrl: string;
  organisationId: string;
  /** the kit's clock */
  now(): Date;
  /** the wallet's default holder key */
  holder: HolderKey;
  /** a did:key (P-256) DID identifier of the verifier, used for the decentralized_identifier prefix */
  verifierIdentifierId: string;
  verifierDid: string;
  /** POST /ssi/openid4vp/final-1.0/response */
  responseUri: string;
  /** offer → token → nonce → credential (OpenID4VCI 1.0, plain fetch), bound to `holder` */
  issueCredential(options?: {
    schema?: SchemaHandle;
    claims?: ClaimTree;
    holder?: HolderKey;
  }): Promise<IssuedCredential>;
  /** POST /api/proof-schema/v1 → id */
  createProofSchema(
    inputs: ProofInputSpec[],
    options?: {
      name?: string;
      expireDuration?: number;
      /** alternatives: options as positions in `inputs` */
      credentialSets?: { options: number[][]; required?: boolean }[];
    },
  ): Promise<string>;
  /** POST /api/proof-request/v1 → id; `verifier: null` leaves the verifier identifier out */
  createProofRequest(
    proofSchemaId: string,
    options?: { verifier?: string | null; redirectUri?: string },
  ): Promise<string>;
  /** POST …/share and GET the request object behind the request_uri */
  share(proofId: string, params?: ShareParams): Promise<SharedRequest>;
  /** proof schema + proof request (verifier = the DID identifier) + share (default prefix redirect_uri) in one go */
  request(inputs: ProofInputSpec[], params?: ShareParams): Promise<SharedRequest>;
  /** an SD-JWT VC presentation disclosing `frame`, with a KB-JWT unless `keyBinding` is null */
  present(
    credential: IssuedCredential,
    frame: PresentationFrame<Record<string, unknown>>,
    keyBinding: KeyBindingOptions | null,
  ): Promise<string>;
  /** the KB-JWT options a correct holder uses for this request */
  keyBindingFor(request: SharedRequest): KeyBindingOptions;
  /** POST a form to the response endpoint */
  postResponse(form: Record<string, string>): Promise<HttpResult>;
  /** direct_post: `vp_token` as the JSON object keyed by credential query id, plus the request's state */
  submitVpToken(request: SharedRequest, vpToken: Record<string, string[]>): Promise<HttpResult>;
  /** direct_post.jwt: the response parameters as a JWE to the request's `use: enc` key (kid header = its kid) */
  encryptResponse(
    request: SharedRequest,
    parameters: Record<string, unknown>,
    enc?: "A128GCM" | "A256GCM",
  ): Promise<string>;
  /** GET /api/proof-request/v1/{id} */
  proof(proofId: string): Promise<ApiResponse["json"]>;
  /** history entries of a proof (newest first) */
  history(proofId: string): Promise<{ action: string; name: string; metadata?: unknown }[]>;
  close(): Promise<void>;
}

const sha256 = (data: string | ArrayBuffer) =>
  new Uint8Array(
    createHash("sha256")
      .update(typeof data === "string" ? data : Buffer.from(data))
      .digest(),
  );

function expectStatus(response: ApiResponse, status: number, what: string): ApiResponse {
  if (response.status !== status)
    throw new Error(`${what}: expected HTTP ${status}, got ${response.status} ${response.text}`);
  return response;
}

async function send(url: string, init: RequestInit = {}): Promise<HttpResult> {
  const response = await fetch(url, init);
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = text;
  }
  return { status: response.status, headers: response.headers, text, body };
}

/** decodes a compact JWS without verifying it */
export function decodeJws(jws: string): { header: Record<string, unknown>; payload: Record<string, unknown> } {
  const [header, payload] = jws.split(".");
  const decode = (part: string | undefined) => JSON.parse(Buffer.from(part ?? "", "base64url").toString("utf8"));
  return { header: decode(header), payload: decode(payload) };
}

/** the disclosures of an SD-JWT (or of a presentation), encoded and decoded */
export function disclosuresOf(sdJwt: string): { encoded: string; decoded: unknown[] }[] {
  return sdJwt
    .split("~")
    .slice(1)
    .filter((part) => part !== "" && !part.includes("."))
    .map((encoded) => ({ encoded, decoded: JSON.parse(Buffer.from(encoded, "base64url").toString("utf8")) }));
}

export async function startVerifierFixture(options: VerifierFixtureOptions = {}): Promise<VerifierFixture> {
  const clock: Clock = options.clock ?? { now: () => new Date() };
  const issuer = await startIssuerFixture({
    ...options,
    clock,
    config: {
      ...options.config,
      app: {
        ...options.config?.app,
        // status lists live on the loopback kit itself
        http: { allowInsecureHttpTransport: true },
        ...(options.maxOid4vpResponseBodyBytes !== undefined && {
          maxOid4vpResponseBodyBytes: options.maxOid4vpResponseBodyBytes,
        }),
      },
    },
  });
  const { api, baseUrl, organisationId } = issuer;
  const nowSeconds = () => Math.floor(clock.now().getTime() / 1000);

  try {
    const keyId = expectStatus(
      await api("POST", "/api/key/v1", {
        organisationId,
        keyType: "ECDSA",
        keyParams: {},
        name: "verifier ecdsa",
        storageType: "INTERNAL",
        storageParams: {},
      }),
      201,
      "verifier key",
    ).json.id as string;
    const verifierIdentifierId = expectStatus(
      await api("POST", "/api/identifier/v1", {
        organisationId,
        name: "verifier did:key",
        did: {
          method: "KEY",
          keys: {
            authentication: [keyId],
            assertionMethod: [keyId],
            keyAgreement: [],
            capabilityInvocation: [],
            capabilityDelegation: [],
          },
        },
      }),
      201,
      "verifier identifier",
    ).json.id as string;
    const verifierDid = expectStatus(await api("GET", `/api/identifier/v1/${verifierIdentifierId}`), 200, "identifier")
      .json.did.did as string;

    const holder = await newHolderKey();
    let proofSchemaCount = 0;

    const fixture: VerifierFixture = {
      issuer,
      api,
      baseUrl,
      organisationId,
      now: () => clock.now(),
      holder,
      verifierIdentifierId,
      verifierDid,
      responseUri: `${baseUrl}/ssi/openid4vp/final-1.0/response`,

      async issueCredential({ schema = issuer.schema, claims = DEFAULT_CLAIMS, holder: key = holder } = {}) {
        const offer = await schema.createOffer(claims);
        const fetched = await send(offer.offerUri);
        if (fetched.status !== 200) throw new Error(`offer: HTTP ${fetched.status}`);
        const code = fetched.body.grants[PRE_AUTHORIZED_GRANT]["pre-authorized_code"] as string;
        const token = await send(schema.endpoints.token, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ grant_type: PRE_AUTHORIZED_GRANT, "pre-authorized_code": code }),
        });
        if (token.status !== 200) throw new Error(`token: HTTP ${token.status} ${token.text}`);
        const nonce = await send(schema.endpoints.nonce, { method: "POST" });
        const proof = await new SignJWT({ nonce: nonce.body.c_nonce })
          .setProtectedHeader({ alg: "ES256", typ: "openid4vci-proof+jwt", jwk: key.publicJwk })
          .setAudience(schema.credentialIssuer)
          .setIssuedAt(nowSeconds())
          .sign(key.privateKey);
        const credential = await send(schema.endpoints.credential, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${token.body.access_token}` },
          body: JSON.stringify({ credential_configuration_id: schema.vct, proofs: { jwt: [proof] } }),
        });
        if (credential.status !== 200) throw new Error(`credential: HTTP ${credential.status} ${credential.text}`);
        return {
          credentialId: offer.credentialId,
          sdJwt: credential.body.credentials[0].credential as string,
          vct: schema.vct,
          holder: key,
        };
      },

      async createProofSchema(inputs, { name, expireDuration, credentialSets } = {}) {
        proofSchemaCount++;
        return expectStatus(
          await api("POST", "/api/proof-schema/v1", {
            name: name ?? `Proof schema ${proofSchemaCount}`,
            organisationId,
            ...(expireDuration !== undefined && { expireDuration }),
            proofInputSchemas: inputs.map((input) => ({
              credentialSchemaId: input.schema.id,
              claimSchemas: input.claims.map((claim) => {
                const id = input.schema.claimIds[claim.path];
                if (!id) throw new Error(`no claim schema ${claim.path}`);
                return { id, required: claim.required };
              }),
            })),
            ...(credentialSets && {
              credentialSets: credentialSets.map((set) => ({
                ...set,
                options: set.options.map((option) => option.map((index) => inputs[index]!.schema.id)),
              })),
            }),
          }),
          201,
          "proof schema",
        ).json.id as string;
      },

      async createProofRequest(proofSchemaId, { verifier = verifierIdentifierId, redirectUri } = {}) {
        return expectStatus(
          await api("POST", "/api/proof-request/v1", {
            proofSchemaId,
            protocol: VP_PROTOCOL,
            ...(verifier !== null && { verifier }),
            ...(redirectUri !== undefined && { redirectUri }),
          }),
          201,
          "proof request",
        ).json.id as string;
      },

      async share(proofId, params) {
        const shared = expectStatus(
          await api("POST", `/api/proof-request/v1/${proofId}/share`, params ? { params } : undefined),
          201,
          "share",
        ).json;
        const url = new URL(shared.url as string);
        // redirect_uri requests travel by value; the request object stays available at client-request
        const requestUri =
          url.searchParams.get("request_uri") ?? `${baseUrl}/ssi/openid4vp/final-1.0/${proofId}/client-request`;
        const response = await fetch(requestUri);
        if (response.status !== 200) throw new Error(`request object: HTTP ${response.status}`);
        const requestObject = await response.text();
        const { header, payload } = decodeJws(requestObject);
        return {
          proofId,
          url: shared.url as string,
          clientId: url.searchParams.get("client_id")!,
          requestUri,
          ...(shared.expiresAt !== undefined && { expiresAt: shared.expiresAt as string }),
          requestObject,
          header,
          payload: payload as RequestObjectPayload,
        };
      },

      async request(inputs, params) {
        const proofId = await fixture.createProofRequest(await fixture.createProofSchema(inputs));
        return fixture.share(proofId, { clientIdScheme: "redirect_uri", ...params });
      },

      async present(credential, frame, keyBinding) {
        const sdjwt = new SDJwtVcInstance({
          hasher: sha256,
          hashAlg: "sha-256",
          kbSigner: await ES256.getSigner(credential.holder.privateJwk),
          kbSignAlg: "ES256",
        });
        return sdjwt.present(
          credential.sdJwt,
          frame,
          keyBinding === null
            ? undefined
            : {
                kb: { payload: { aud: keyBinding.aud, nonce: keyBinding.nonce, iat: keyBinding.iat ?? nowSeconds() } },
              },
        );
      },

      keyBindingFor: (request) => ({ aud: request.payload.client_id, nonce: request.payload.nonce }),

      postResponse: (form) =>
        send(fixture.responseUri, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams(form),
        }),

      submitVpToken: (request, vpToken) =>
        fixture.postResponse({ vp_token: JSON.stringify(vpToken), state: request.payload.state }),

      async encryptResponse(request, parameters, enc = "A128GCM") {
        const jwk = request.payload.client_metadata.jwks?.keys.find((k) => k.use === "enc");
        if (!jwk) throw new Error("the request carries no encryption key");
        return new CompactEncrypt(new TextEncoder().encode(JSON.stringify(parameters)))
          .setProtectedHeader({ alg: "ECDH-ES", enc, kid: jwk.kid! })
          .encrypt(await importJWK(jwk, "ECDH-ES"));
      },

      proof: async (proofId) => expectStatus(await api("GET", `/api/proof-request/v1/${proofId}`), 200, "proof").json,

      async history(proofId) {
        const page = expectStatus(
          await api(
            "GET",
            `/api/history/v1?page=0&pageSize=100&organisationId=${organisationId}&entityIds[]=${proofId}&sort=createdDate&sortDirection=DESC`,
          ),
          200,
          "history",
        ).json;
        return page.values;
      },

      close: () => issuer.close(),
    };
    return fixture;
  } catch (error) {
    await issuer.close();
    throw error;
  }
}
