import type { IssuerKeyResolver } from "../../ports/credential-formatter.js";
import type { JwsVerifier } from "../../providers/jose/verify-jws-signature.js";
import {
  getStatus,
  parseStatusListToken,
  type StatusList,
  type StatusListReference,
} from "../../providers/revocation/token-status-list/index.js";
import { type RemoteHttp, statusError } from "./remote-http.js";

export interface StatusListReaderOptions {
  http: RemoteHttp;
  resolveIssuerKey: IssuerKeyResolver;
  jwsVerifier: JwsVerifier;
  now: Date;
  leeway: number;
}

/** Reads status values of Referenced Tokens, fetching and verifying each Status List Token once. */
export interface StatusListReader {
  /** the status value (draft-ietf-oauth-status-list §7.1) of `reference`, for a token issued by `issuer` */
  read(reference: StatusListReference, issuer: string): Promise<number>;
}

/**
 * Status list validation as a Relying Party (draft-ietf-oauth-status-list §8.3): GET the `uri` with
 * `Accept: application/statuslist+jwt` (§8.1), verify the token's signature with the key of the Referenced Token's
 * issuer (same resolution as for the credential), `sub` = `uri`, validity window, then read index `idx` (§8.3 step 5).
 * Lists are cached per uri and issuer for the reader's lifetime (one revocation check call).
 */
export function createStatusListReader(options: StatusListReaderOptions): StatusListReader {
  const lists = new Map<string, Promise<StatusList>>();

  async function load(uri: string, issuer: string): Promise<StatusList> {
    const step = "status list";
    const url = options.http.checkUrl(uri, "status list uri", "BR_0101").href;
    const response = await options.http.send(step, url, {
      headers: { accept: "application/statuslist+jwt, application/jwt;q=0.9" },
    });
    if (!response.ok) throw statusError(step, response);
    const parsed = await parseStatusListToken(response.text.trim(), {
      now: options.now,
      leeway: options.leeway,
      expectedSubject: uri,
      verifySignature: async (header, signingInput, signature) => {
        const key = await options.resolveIssuerKey(issuer, header);
        return options.jwsVerifier.verify(header.alg, key, signingInput, signature);
      },
    });
    return parsed.list;
  }

  return {
    async read(reference, issuer) {
      const cacheKey = `${issuer} ${reference.uri}`;
      let pending = lists.get(cacheKey);
      if (!pending) {
        pending = load(reference.uri, issuer);
        lists.set(cacheKey, pending);
      }
      return getStatus(await pending, reference.idx);
    },
  };
}
