import { z } from "zod";
import type { DidDocument, DidVerificationMethod } from "../../domain/did.js";
import { CredkitError } from "../../errors/credkit-error.js";
import type { IssuerKeyResolver } from "../../ports/credential-formatter.js";
import type { PublicJwk } from "../../ports/key-algorithm.js";
import type { RemoteHttp } from "./remote-http.js";
import { insertedWellKnownUrl } from "./well-known-url.js";

const jwksSchema = z.object({ keys: z.array(z.object({ kty: z.string().min(1) }).loose()) }).loose();

/** JWT VC Issuer Metadata (draft-ietf-oauth-sd-jwt-vc §5.2): the issuer and its keys, inline or by reference. */
const jwtVcIssuerMetadataSchema = z
  .object({ issuer: z.string().min(1), jwks: jwksSchema.optional(), jwks_uri: z.string().min(1).optional() })
  .loose();

export interface IssuerKeyResolverOptions {
  resolveDid: (did: string) => Promise<DidDocument>;
  http: RemoteHttp;
}

function reject(detail: string): CredkitError {
  return new CredkitError("BR_0355", detail);
}

/**
 * Finds the key an issuer signed with (a credential or a status list token), from its `iss` and the JWS header:
 *
 * - a DID: the DID document's verification method named by `kid` (a DID URL or `#fragment`), or its only key when
 *   there is no `kid`; when the document lists assertion methods the key must be one;
 * - an https URL: JWT VC Issuer Metadata at `/.well-known/jwt-vc-issuer` inserted before the URL's path
 *   (draft-ietf-oauth-sd-jwt-vc §5), whose `issuer` must be `iss`; the JWKS key with the header's `kid` (or the
 *   only key).
 *
 * Metadata and JWKS are cached for the resolver's lifetime (create one per operation). Failures are BR_0355 naming
 * the reason; fetch failures BR_0347 / BR_0395; DID resolution errors pass through.
 */
export function createIssuerKeyResolver(options: IssuerKeyResolverOptions): IssuerKeyResolver {
  const jwksByIssuer = new Map<string, Promise<PublicJwk[]>>();
  const documents = new Map<string, Promise<DidDocument>>();

  async function loadJwks(issuer: string): Promise<PublicJwk[]> {
    const url = insertedWellKnownUrl(
      options.http.checkUrl(issuer, "credential issuer", "BR_0355").href,
      "jwt-vc-issuer",
    );
    const metadata = await options.http.getJson("JWT VC issuer metadata", url, jwtVcIssuerMetadataSchema, "BR_0355");
    if (metadata.issuer.replace(/\/+$/, "") !== issuer.replace(/\/+$/, "")) {
      throw reject(`JWT VC issuer metadata of ${issuer} names another issuer: ${metadata.issuer}`);
    }
    if (metadata.jwks) return metadata.jwks.keys as PublicJwk[];
    if (metadata.jwks_uri) {
      const jwksUri = options.http.checkUrl(metadata.jwks_uri, "jwks_uri", "BR_0355").href;
      return (await options.http.getJson("issuer JWKS", jwksUri, jwksSchema, "BR_0355")).keys as PublicJwk[];
    }
    throw reject(`JWT VC issuer metadata of ${issuer} has neither jwks nor jwks_uri`);
  }

  async function fromJwks(issuer: string, header: Record<string, unknown>): Promise<PublicJwk> {
    let pending = jwksByIssuer.get(issuer);
    if (!pending) {
      pending = loadJwks(issuer);
      jwksByIssuer.set(issuer, pending);
      pending.catch(() => jwksByIssuer.delete(issuer));
    }
    const keys = await pending;
    const kid = header.kid;
    if (typeof kid === "string") {
      const key = keys.find((candidate) => candidate.kid === kid);
      if (!key) throw reject(`the issuer ${issuer} publishes no key with kid ${JSON.stringify(kid)}`);
      return key;
    }
    if (keys.length === 1) return keys[0]!;
    throw reject(`the JWS header has no kid and the issuer ${issuer} publishes ${keys.length} keys`);
  }

  async function fromDid(did: string, header: Record<string, unknown>): Promise<PublicJwk> {
    const base = did.split("#")[0]!;
    let pending = documents.get(base);
    if (!pending) {
      pending = options.resolveDid(base);
      documents.set(base, pending);
      pending.catch(() => documents.delete(base));
    }
    const document = await pending;
    const absolute = (id: string) => (id.startsWith("#") ? `${base}${id}` : id);
    const methods = document.verificationMethod ?? [];
    let method: DidVerificationMethod | undefined;
    const kid = header.kid;
    if (typeof kid === "string" && kid !== "") {
      const wanted = kid.startsWith("#") ? `${base}${kid}` : kid.includes("#") ? kid : `${base}#${kid}`;
      if (!wanted.startsWith(`${base}#`)) throw reject(`kid ${kid} is not a key of the issuer ${base}`);
      method = methods.find((candidate) => absolute(candidate.id) === wanted);
      if (!method) throw reject(`the DID document of ${base} has no verification method ${wanted}`);
    } else {
      const withKeys = methods.filter((candidate) => candidate.publicKeyJwk !== undefined);
      if (withKeys.length !== 1) {
        throw reject(`the JWS header has no kid and the DID document of ${base} has ${withKeys.length} keys`);
      }
      method = withKeys[0]!;
    }
    const assertion = document.assertionMethod;
    if (Array.isArray(assertion) && assertion.length > 0) {
      const ids = assertion.map((entry) =>
        absolute(typeof entry === "string" ? entry : String((entry as { id?: unknown }).id ?? "")),
      );
      if (!ids.includes(absolute(method.id))) {
        throw reject(`${method.id} is not an assertion method of ${base}`);
      }
    }
    if (!method.publicKeyJwk) throw reject(`verification method ${method.id} has no publicKeyJwk`);
    return method.publicKeyJwk as PublicJwk;
  }

  return async (issuer, header) => {
    if (issuer.startsWith("did:")) return fromDid(issuer, header);
    if (/^https?:\/\//i.test(issuer)) return fromJwks(issuer, header);
    throw reject(`issuer ${JSON.stringify(issuer)} is neither a DID nor an https URL`);
  };
}
