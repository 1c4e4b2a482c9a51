import { createHash, randomBytes } from "node:crypto";
import { inflateSync } from "node:zlib";
import { type CallbackContext, clientAuthenticationAnonymous, type Jwk, type JwtSigner } from "@openid4vc/oauth2";
import { type IssuerMetadataResult, Openid4vciClient, Openid4vciVersion, setGlobalConfig } from "@openid4vc/openid4vci";
import { SDJwtVcInstance } from "@sd-jwt/sd-jwt-vc";
import {
  CompactSign,
  calculateJwkThumbprint,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JWK,
  jwtVerify,
} from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_CLAIMS, type IssuerFixture, startIssuerFixture } from "../support/issuer-fixture.js";

// An independent wallet: the OpenID4VCI 1.0 client of @openid4vc/openid4vci (not credkit code) with holder keys and
// callbacks written here on jose/node:crypto, against a credkit issuer over real loopback HTTP. Credentials are checked
// with @sd-jwt/sd-jwt-vc; issuer keys come from the did:key itself or the jwt-vc-issuer metadata, not from credkit's API.

// the issuer runs on http://127.0.0.1 (the library refuses non-https URLs by default)
setGlobalConfig({ allowInsecureUrls: true });

type HolderAlg = "ES256" | "EdDSA";

interface HolderKey {
  alg: HolderAlg;
  privateKey: CryptoKey;
  publicJwk: JWK;
  thumbprint: string;
}

/** the wallet's key store: holder keys by JWK thumbprint */
const holderKeys = new Map<string, HolderKey>();

async function newHolderKey(alg: HolderAlg): Promise<HolderKey> {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
  const publicJwk = await exportJWK(publicKey);
  const key = { alg, privateKey, publicJwk, thumbprint: await calculateJwkThumbprint(publicJwk) };
  holderKeys.set(key.thumbprint, key);
  return key;
}

function signerOf(key: HolderKey): JwtSigner {
  return { method: "jwk", alg: key.alg, publicJwk: key.publicJwk as Jwk };
}

const callbacks: Omit<CallbackContext, "verifyJwt" | "decryptJwe" | "encryptJwe"> = {
  fetch: (input, init) => fetch(input, init),
  hash: (data, alg) => new Uint8Array(createHash(alg.replace("-", "")).update(data).digest()),
  generateRandom: (length) => new Uint8Array(randomBytes(length)),
  clientAuthentication: clientAuthenticationAnonymous(),
  signJwt: async (signer, { header, payload }) => {
    if (signer.method !== "jwk") throw new Error(`this wallet only signs with jwk signers, got ${signer.method}`);
    const key = holderKeys.get(await calculateJwkThumbprint(signer.publicJwk as JWK));
    if (!key) throw new Error("unknown holder key");
    const jwt = await new CompactSign(new TextEncoder().encode(JSON.stringify(payload)))
      .setProtectedHeader(header as never)
      .sign(key.privateKey);
    return { jwt, signerJwk: signer.publicJwk };
  },
};

const client = new Openid4vciClient({ callbacks });

// --- issuer keys, resolved without credkit ---

const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

function base58btcDecode(text: string): Uint8Array {
  let value = 0n;
  for (const char of text) {
    const digit = BASE58.indexOf(char);
    if (digit < 0) throw new Error(`not base58: ${char}`);
    value = value * 58n + BigInt(digit);
  }
  const bytes: number[] = [];
  while (value > 0n) {
    bytes.unshift(Number(value % 256n));
    value /= 256n;
  }
  for (const char of text) {
    if (char !== "1") break;
    bytes.unshift(0);
  }
  return new Uint8Array(bytes);
}

/** public JWK of an Ed25519 did:key (multicodec 0xed01) */
function didKeyJwk(did: string): JWK {
  const multibase = did.slice("did:key:".length);
  expect(multibase.startsWith("z")).toBe(true);
  const bytes = base58btcDecode(multibase.slice(1));
  expect([bytes[0], bytes[1]]).toEqual([0xed, 0x01]);
  return { kty: "OKP", crv: "Ed25519", x: Buffer.from(bytes.slice(2)).toString("base64url") };
}

/** SD-JWT VC issuer metadata (`/.well-known/jwt-vc-issuer` inserted before the issuer's path) → key for `kid` */
async function jwtVcIssuerKey(iss: string, kid: string | undefined): Promise<JWK> {
  const url = new URL(iss);
  const response = await fetch(`${url.origin}/.well-known/jwt-vc-issuer${url.pathname}`);
  expect(response.status).toBe(200);
  const metadata = (await response.json()) as { issuer: string; jwks: { keys: JWK[] } };
  expect(metadata.issuer).toBe(iss);
  const key = metadata.jwks.keys.find((k) => k.kid === kid);
  expect(key, `kid ${kid} in the issuer's JWKS`).toBeDefined();
  return key!;
}

async function verifySdJwtVc(credential: string) {
  const [issuerJwt] = credential.split("~");
  const header = decodeProtectedHeader(issuerJwt!);
  const payload = JSON.parse(Buffer.from(issuerJwt!.split(".")[1]!, "base64url").toString()) as { iss: string };
  const issuerJwk = payload.iss.startsWith("did:key:")
    ? didKeyJwk(payload.iss)
    : await jwtVcIssuerKey(payload.iss, header.kid);
  const issuerKey = await importJWK(issuerJwk, header.alg);
  const sdjwt = new SDJwtVcInstance({
    hasher: async (data: string | ArrayBuffer) =>
      new Uint8Array(
        createHash("sha256")
          .update(typeof data === "string" ? data : Buffer.from(data))
          .digest(),
      ),
    hashAlg: "sha-256",
    verifier: async (data: string, signature: string) => {
      try {
        await jwtVerify(`${data}.${signature}`, issuerKey);
        return true;
      } catch {
        return false;
      }
    },
  });
  const verified = await sdjwt.verify(credential);
  return { header, payload: verified.payload as Record<string, unknown>, issuerJwk };
}

/** the credential's Token Status List entry, read and verified like a relying party would (issuer key given) */
async function tokenStatus(payload: Record<string, unknown>, issuerJwk: JWK): Promise<number> {
  const { idx, uri } = (payload.status as { status_list: { idx: number; uri: string } }).status_list;
  const response = await fetch(uri);
  expect(response.status).toBe(200);
  const { payload: list } = await jwtVerify(await response.text(), await importJWK(issuerJwk, "EdDSA"), {
    typ: "statuslist+jwt",
  });
  expect(list.sub).toBe(uri);
  const { bits, lst } = list.status_list as { bits: number; lst: string };
  const bytes = inflateSync(Buffer.from(lst, "base64url"));
  const perByte = 8 / bits;
  return (bytes[Math.floor(idx / perByte)]! >> ((idx % perByte) * bits)) & ((1 << bits) - 1);
}

const publicPart = (jwk: JWK) =>
  Object.fromEntries(Object.entries(jwk).filter(([k]) => ["kty", "crv", "x", "y"].includes(k)));

// --- the wallet flow ---

interface WalletRun {
  issuerMetadata: IssuerMetadataResult;
  accessToken: string;
  credentials: string[];
  notificationId: string | undefined;
  credentialConfigurationId: string;
}

async function receive(offerUrl: string, holders: HolderKey[], txCode?: string): Promise<WalletRun> {
  const offer = await client.resolveCredentialOffer(offerUrl);
  const issuerMetadata = await client.resolveIssuerMetadata(offer.credential_issuer);
  const credentialConfigurationId = offer.credential_configuration_ids[0]!;
  expect(issuerMetadata.credentialIssuer.credential_configurations_supported[credentialConfigurationId]).toMatchObject({
    format: "dc+sd-jwt",
    vct: credentialConfigurationId,
  });
  const { accessTokenResponse } = await client.retrievePreAuthorizedCodeAccessTokenFromOffer({
    credentialOffer: offer,
    issuerMetadata,
    ...(txCode !== undefined && { txCode }),
  });
  const { c_nonce } = await client.requestNonce({ issuerMetadata });
  const jwts: string[] = [];
  for (const holder of holders) {
    const { jwt } = await client.createCredentialRequestJwtProof({
      issuerMetadata,
      credentialConfigurationId,
      signer: signerOf(holder),
      nonce: c_nonce,
    });
    jwts.push(jwt);
  }
  const { credentialResponse } = await client.retrieveCredentials({
    issuerMetadata,
    credentialConfigurationId,
    accessToken: accessTokenResponse.access_token,
    proofs: { jwt: jwts },
  });
  const credentials = (credentialResponse.credentials ?? []).map((c) =>
    typeof c === "object" && "credential" in c ? c.credential : c,
  );
  expect(credentials.every((c) => typeof c === "string")).toBe(true);
  return {
    issuerMetadata,
    accessToken: accessTokenResponse.access_token,
    credentials: credentials as string[],
    notificationId: credentialResponse.notification_id,
    credentialConfigurationId,
  };
}

describe("interop: an @openid4vc/openid4vci wallet obtains SD-JWT VCs from credkit", () => {
  let issuer: IssuerFixture;
  let txIssuer: Awaited<ReturnType<IssuerFixture["addSchema"]>>;

  beforeAll(async () => {
    issuer = await startIssuerFixture({ keyIdentifier: true, revocation: true });
    txIssuer = await issuer.addSchema({
      name: "With transaction code",
      transactionCode: { type: "NUMERIC", length: 6, description: "sent by SMS" },
    });
  });
  afterAll(async () => {
    await issuer?.close();
  });

  it("(a) issues without tx_code to an ES256 holder key, then handles credential_accepted and credential_deleted", async () => {
    const { credentialId, url } = await issuer.createOffer();
    const holder = await newHolderKey("ES256");
    const run = await receive(url, [holder]);

    expect(run.issuerMetadata.originalDraftVersion).toBe(Openid4vciVersion.V1);
    expect(run.credentials).toHaveLength(1);
    const { payload, header, issuerJwk } = await verifySdJwtVc(run.credentials[0]!);
    expect(header.typ).toBe("dc+sd-jwt");
    expect(await tokenStatus(payload, issuerJwk)).toBe(0);
    expect(payload).toMatchObject({ iss: issuer.did, vct: issuer.vct, ...DEFAULT_CLAIMS });
    expect((payload.cnf as { jwk: JWK }).jwk).toEqual(publicPart(holder.publicJwk));
    expect(await issuer.credentialState(credentialId)).toBe("ACCEPTED");

    expect(run.notificationId).toBeTypeOf("string");
    await client.sendNotification({
      issuerMetadata: run.issuerMetadata,
      accessToken: run.accessToken,
      notification: { notificationId: run.notificationId!, event: "credential_accepted" },
    });
    expect(await issuer.credentialState(credentialId)).toBe("ACCEPTED");

    await client.sendNotification({
      issuerMetadata: run.issuerMetadata,
      accessToken: run.accessToken,
      notification: {
        notificationId: run.notificationId!,
        event: "credential_deleted",
        eventDescription: "removed by the user",
      },
    });
    expect(await issuer.credentialState(credentialId)).toBe("REJECTED");
    // the issuer revokes a credential the holder deleted: its status list entry reads INVALID (1)
    expect(await tokenStatus(payload, issuerJwk)).toBe(1);
  });

  it("(b) issues with the NUMERIC tx_code from the share response to an EdDSA holder key", async () => {
    const { credentialId, url, transactionCode } = await txIssuer.createOffer({ given_name: "Max" });
    expect(transactionCode).toMatch(/^\d{6}$/);
    const offer = await client.resolveCredentialOffer(url);
    expect(offer.grants?.["urn:ietf:params:oauth:grant-type:pre-authorized_code"]?.tx_code).toEqual({
      input_mode: "numeric",
      length: 6,
      description: "sent by SMS",
    });

    const holder = await newHolderKey("EdDSA");
    const run = await receive(url, [holder], transactionCode);
    const { payload } = await verifySdJwtVc(run.credentials[0]!);
    expect(payload).toMatchObject({ iss: issuer.did, vct: txIssuer.vct, given_name: "Max" });
    expect(payload).not.toHaveProperty("age");
    expect((payload.cnf as { jwk: JWK }).jwk).toEqual(publicPart(holder.publicJwk));
    expect(await issuer.credentialState(credentialId)).toBe("ACCEPTED");
  });

  it("(c) issues a batch: 3 proofs → 3 credentials, each bound to its own key", async () => {
    const { credentialId, url } = await issuer.createOffer();
    const holders = [await newHolderKey("ES256"), await newHolderKey("EdDSA"), await newHolderKey("ES256")];
    const run = await receive(url, holders);

    expect(run.credentials).toHaveLength(3);
    expect(new Set(run.credentials).size).toBe(3);
    const bound: string[] = [];
    for (const credential of run.credentials) {
      const { payload } = await verifySdJwtVc(credential);
      expect(payload).toMatchObject({ iss: issuer.did, vct: issuer.vct, ...DEFAULT_CLAIMS });
      bound.push(await calculateJwkThumbprint((payload.cnf as { jwk: JWK }).jwk));
    }
    expect(bound.sort()).toEqual(holders.map((h) => h.thumbprint).sort());
    expect(await issuer.credentialState(credentialId)).toBe("ACCEPTED");

    await client.sendNotification({
      issuerMetadata: run.issuerMetadata,
      accessToken: run.accessToken,
      notification: { notificationId: run.notificationId!, event: "credential_deleted" },
    });
    expect(await issuer.credentialState(credentialId)).toBe("REJECTED");
  });

  it("(d) a KEY identifier issues with an http(s) iss whose jwt-vc-issuer metadata JWKS verifies the credential", async () => {
    const { credentialId, url } = await issuer.createOffer(DEFAULT_CLAIMS, { issuer: issuer.keyIdentifierId! });
    const holder = await newHolderKey("ES256");
    const run = await receive(url, [holder]);

    const { payload, header, issuerJwk } = await verifySdJwtVc(run.credentials[0]!);
    expect(payload.iss).toMatch(new RegExp(`^${issuer.baseUrl}/`));
    expect(header.alg).toBe("ES256");
    expect(header.kid).toBe(await calculateJwkThumbprint(issuerJwk));
    expect(issuerJwk).toMatchObject({ kty: "EC", crv: "P-256" });
    expect(issuerJwk).not.toHaveProperty("d");
    expect(payload).toMatchObject({ vct: issuer.vct, ...DEFAULT_CLAIMS });
    expect((payload.cnf as { jwk: JWK }).jwk).toEqual(publicPart(holder.publicJwk));
    expect(await issuer.credentialState(credentialId)).toBe("ACCEPTED");

    await client.sendNotification({
      issuerMetadata: run.issuerMetadata,
      accessToken: run.accessToken,
      notification: { notificationId: run.notificationId!, event: "credential_accepted" },
    });
    expect(await issuer.credentialState(credentialId)).toBe("ACCEPTED");
  });
});
