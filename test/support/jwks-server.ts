import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, type JWK, type JWTPayload, SignJWT } from "jose";

/** One STS signing key: the private half signs tokens, the public JWK is what the server publishes. */
export interface SigningKey {
  kid: string;
  alg: "EdDSA" | "ES256";
  privateKey: CryptoKey;
  publicJwk: JWK;
}

/** A fresh key pair (EdDSA/Ed25519 by default) named `kid`. */
export async function createSigningKey(
  kid: string = randomUUID(),
  alg: SigningKey["alg"] = "EdDSA",
): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg, use: "sig" };
  return { kid, alg, privateKey, publicJwk };
}

/** Options of {@link JwksServer.sign}. */
export interface SignOptions {
  /** key that signs (default: the server's current key) */
  key?: SigningKey;
  /** `kid` put into the header (default: the signing key's) */
  kid?: string;
  /** header `alg` (default: the signing key's) */
  alg?: string;
}

/** A real JWKS endpoint on loopback, for STS tests. */
export interface JwksServer {
  /** full JWKS URL (`http://127.0.0.1:<port>/.well-known/jwks.json`) */
  readonly jwksUri: string;
  /** number of JWKS requests served so far */
  readonly hits: number;
  /** the key new tokens are signed with by default (the initial one, then the latest from {@link rotate}) */
  readonly current: SigningKey;
  /** keys currently published */
  readonly published: readonly SigningKey[];
  /**
   * Publishes a new key (new kid) and makes it current. `keepOld: false` (default) drops the previous keys from the
   * set, like an STS that rotated and retired its old key.
   */
  rotate(options?: { keepOld?: boolean; alg?: SigningKey["alg"] }): Promise<SigningKey>;
  /** Adds `key` to the published set without making it current. */
  publish(key: SigningKey): void;
  /** A compact JWS over `claims` with header `{alg, kid, typ: "JWT"}`. Claims are taken as given (no defaults). */
  sign(claims: JWTPayload & Record<string, unknown>, options?: SignOptions): Promise<string>;
  close(): Promise<void>;
}

/** Starts a JWKS server on port 0 publishing one fresh EdDSA key. Each GET of the JWKS path counts as a hit. */
export async function startJwksServer(options: { path?: string } = {}): Promise<JwksServer> {
  const path = options.path ?? "/.well-known/jwks.json";
  let current = await createSigningKey();
  let published: SigningKey[] = [current];
  let hits = 0;

  const server: Server = createServer((req, res) => {
    if (req.method === "GET" && req.url === path) {
      hits++;
      const body = JSON.stringify({ keys: published.map((key) => key.publicJwk) });
      res.writeHead(200, { "content-type": "application/jwk-set+json", "content-length": Buffer.byteLength(body) });
      res.end(body);
      return;
    }
    res.writeHead(404, { "content-length": "0" });
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;

  return {
    jwksUri: `http://127.0.0.1:${port}${path}`,
    get hits() {
      return hits;
    },
    get current() {
      return current;
    },
    get published() {
      return published;
    },
    async rotate(rotateOptions = {}) {
      const key = await createSigningKey(randomUUID(), rotateOptions.alg ?? "EdDSA");
      published = rotateOptions.keepOld ? [...published, key] : [key];
      current = key;
      return key;
    },
    publish(key) {
      published = [...published, key];
    },
    async sign(claims, signOptions = {}) {
      const key = signOptions.key ?? current;
      return new SignJWT(claims)
        .setProtectedHeader({ alg: signOptions.alg ?? key.alg, kid: signOptions.kid ?? key.kid, typ: "JWT" })
        .sign(key.privateKey);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
