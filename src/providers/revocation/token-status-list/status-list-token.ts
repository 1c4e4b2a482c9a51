import { CredkitError, isCredkitError } from "../../../errors/index.js";
import type { Signer } from "../../../ports/signer.js";
import { parseJsonObject, type SplitCompactJws, signCompactJws, splitCompactJws } from "./compact-jws.js";
import { type DecodeStatusListOptions, decodeStatusList } from "./decode-status-list.js";
import { type EncodedStatusList, encodeStatusList } from "./encode-status-list.js";
import type { StatusList } from "./status-list.js";

/** JWT `typ` of a Status List Token (draft-ietf-oauth-status-list §5.1); media type application/statuslist+jwt. */
export const STATUS_LIST_JWT_TYP = "statuslist+jwt";

/** Protected header of a Status List Token in JWT format (§5.1). */
export interface StatusListTokenHeader {
  typ: string;
  alg: string;
  kid?: string;
  [parameter: string]: unknown;
}

/** Claims of a Status List Token in JWT format (§5.1); the JWT may carry other claims. */
export interface StatusListTokenPayload {
  /** URI of the Status List Token; equals `status.status_list.uri` of the Referenced Tokens (§5.1, §6.2) */
  sub: string;
  /** NumericDate of issuance */
  iat: number;
  /** NumericDate after which the token is expired (RECOMMENDED) */
  exp?: number;
  /** seconds a consumer may cache the token before fetching a fresh copy (RECOMMENDED, positive) */
  ttl?: number;
  iss?: string;
  status_list: EncodedStatusList;
  [claim: string]: unknown;
}

export interface CreateStatusListTokenInput {
  /** URI the Status List Token is served at; becomes `sub` and the `uri` of the Referenced Tokens (§5.1) */
  subject: string;
  /** `iss`; per earlier drafts REQUIRED when the Referenced Tokens carry one, so pass the same issuer */
  issuer?: string;
  list: StatusList;
  issuedAt: Date;
  expiresAt?: Date;
  /** `ttl` in seconds, a positive number (§5.1) */
  ttl?: number;
  /** signs with an asymmetric key; its `alg` and `kid` go to the header */
  signer: Signer;
}

/**
 * Issues a Status List Token in JWT format (§5.1): header `{typ: "statuslist+jwt", alg, kid}`, claims
 * `{iss?, sub, iat, exp?, ttl?, status_list: {bits, lst}}`, signed by `signer` (JWS Compact Serialization).
 * Input errors are BR_0084.
 */
export async function createStatusListToken(input: CreateStatusListTokenInput): Promise<string> {
  const { subject, issuer, list, issuedAt, expiresAt, ttl, signer } = input;
  if (typeof subject !== "string" || !isUri(subject)) {
    throw new CredkitError(
      "BR_0084",
      `status list token subject must be an absolute URI (§5.1 sub), got ${JSON.stringify(subject)}`,
    );
  }
  if (issuer !== undefined && (typeof issuer !== "string" || issuer.length === 0)) {
    throw new CredkitError("BR_0084", "status list token issuer must be a non-empty string");
  }
  const iat = numericDate(issuedAt, "issuedAt");
  const exp = expiresAt === undefined ? undefined : numericDate(expiresAt, "expiresAt");
  if (exp !== undefined && exp <= iat) {
    throw new CredkitError(
      "BR_0084",
      `status list token expiresAt (${expiresAt?.toISOString()}) must be after issuedAt (${issuedAt.toISOString()})`,
    );
  }
  if (ttl !== undefined && (typeof ttl !== "number" || !Number.isFinite(ttl) || ttl <= 0)) {
    throw new CredkitError(
      "BR_0084",
      `status list token ttl must be a positive number of seconds (§5.1), got ${String(ttl)}`,
    );
  }
  if (typeof signer?.alg !== "string" || signer.alg.length === 0 || signer.alg.toLowerCase() === "none") {
    throw new CredkitError("BR_0084", 'status list token signer must have a signature alg (not "none")');
  }

  const header: Record<string, unknown> = { typ: STATUS_LIST_JWT_TYP, alg: signer.alg };
  if (signer.kid !== undefined) header.kid = signer.kid;
  const payload: Record<string, unknown> = {};
  if (issuer !== undefined) payload.iss = issuer;
  payload.sub = subject;
  payload.iat = iat;
  if (exp !== undefined) payload.exp = exp;
  if (ttl !== undefined) payload.ttl = ttl;
  payload.status_list = encodeStatusList(list);
  return signCompactJws(header, payload, signer);
}

/**
 * Verifies the JWS signature of a Status List Token: true only if `signature` is valid over `signingInput` for the
 * key the caller trusts for this `header` (`alg`, `kid`, `x5c`, …). Key resolution and trust are the caller's
 * (§11.3); the callback must refuse algorithms it does not expect.
 */
export type StatusListTokenSignatureVerifier = (
  header: StatusListTokenHeader,
  signingInput: Uint8Array,
  signature: Uint8Array,
) => Promise<boolean> | boolean;

export interface ParseStatusListTokenOptions extends DecodeStatusListOptions {
  verifySignature: StatusListTokenSignatureVerifier;
  /** the current time, from the caller's clock */
  now: Date;
  /** seconds of clock skew tolerated when checking exp, nbf and iat */
  leeway: number;
  /** `uri` of the Referenced Token's `status.status_list`; `sub` must equal it (§8.3 step 4a) */
  expectedSubject?: string;
}

export interface ParsedStatusListToken {
  header: StatusListTokenHeader;
  payload: StatusListTokenPayload;
  list: StatusList;
}

/**
 * Validates a Status List Token in JWT format as a Relying Party (§5.1, §8.3 steps 3–5): `typ` is statuslist+jwt,
 * `alg` is not "none", no `crit` extensions, the signature verifies, the required claims are present and well-typed,
 * `exp`/`nbf`/`iat` hold at `now` within `leeway`, `sub` equals `expectedSubject`, and `status_list` decodes.
 *
 * Token failures throw CredkitError BR_0101 ("Revocation error") whose detail starts with "status list token:";
 * a bad `status_list` throws BR_0049 from the decoder; bad options throw BR_0084.
 */
export async function parseStatusListToken(
  token: string,
  options: ParseStatusListTokenOptions,
): Promise<ParsedStatusListToken> {
  const { verifySignature, now, leeway, expectedSubject } = options;
  if (typeof verifySignature !== "function") throw new CredkitError("BR_0084", "verifySignature must be a function");
  if (!(now instanceof Date) || Number.isNaN(now.getTime())) {
    throw new CredkitError("BR_0084", "now must be a valid Date");
  }
  if (typeof leeway !== "number" || !Number.isFinite(leeway) || leeway < 0) {
    throw new CredkitError("BR_0084", `leeway must be a non-negative number of seconds, got ${String(leeway)}`);
  }
  if (typeof token !== "string" || token.length === 0) fail("expected a non-empty JWT string");

  let split: SplitCompactJws;
  try {
    split = splitCompactJws(token.trim());
  } catch (error) {
    fail((error as Error).message);
  }
  const header = checkHeader(split.header);

  let verified: boolean;
  try {
    verified = await verifySignature(header, split.signingInput, split.signature);
  } catch (error) {
    if (isCredkitError(error)) throw error;
    throw new CredkitError(
      "BR_0101",
      `status list token: signature verification failed: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  if (verified !== true) {
    fail(`invalid signature (alg ${header.alg}${header.kid === undefined ? "" : `, kid ${header.kid}`})`);
  }

  let claims: Record<string, unknown>;
  try {
    claims = parseJsonObject(split.encodedPayload, "payload");
  } catch (error) {
    fail((error as Error).message);
  }
  const payload = checkClaims(claims, now.getTime() / 1000, leeway);
  if (expectedSubject !== undefined && payload.sub !== expectedSubject) {
    fail(
      `sub ${JSON.stringify(payload.sub)} does not match the status list uri ${JSON.stringify(expectedSubject)} of the referenced token (§8.3 step 4a)`,
    );
  }
  const list = decodeStatusList(
    payload.status_list,
    options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes },
  );
  return { header, payload, list };
}

function checkHeader(header: Record<string, unknown>): StatusListTokenHeader {
  const { typ, alg, kid, crit } = header;
  // RFC 7515 §4.1.9: "application/" may be omitted from typ, and media types compare case-insensitively
  const normalizedTyp = typeof typ === "string" ? typ.toLowerCase().replace(/^application\//, "") : undefined;
  if (normalizedTyp !== STATUS_LIST_JWT_TYP) {
    fail(`header typ must be "${STATUS_LIST_JWT_TYP}" (§5.1), got ${JSON.stringify(typ) ?? "nothing"}`);
  }
  if (typeof alg !== "string" || alg.length === 0) fail("header alg is missing");
  if (alg.toLowerCase() === "none") fail('header alg "none" is not accepted: the token must be secured (§5.1 rule 2)');
  if (kid !== undefined && typeof kid !== "string") fail("header kid must be a string");
  if (crit !== undefined) {
    fail(`header crit ${JSON.stringify(crit)} lists extensions this verifier does not understand (RFC 7515 §4.1.11)`);
  }
  return header as StatusListTokenHeader;
}

function checkClaims(claims: Record<string, unknown>, now: number, leeway: number): StatusListTokenPayload {
  const { sub, iat, exp, nbf, ttl, iss, status_list } = claims;
  if (typeof sub !== "string" || sub.length === 0) fail("claim sub is required and must be a non-empty string (§5.1)");
  if (!isNumericDate(iat)) fail("claim iat is required and must be a NumericDate (§5.1)");
  if (exp !== undefined && !isNumericDate(exp)) fail("claim exp must be a NumericDate");
  if (nbf !== undefined && !isNumericDate(nbf)) fail("claim nbf must be a NumericDate");
  if (ttl !== undefined && (typeof ttl !== "number" || !Number.isFinite(ttl) || ttl <= 0)) {
    fail("claim ttl must be a positive number of seconds (§5.1)");
  }
  if (iss !== undefined && typeof iss !== "string") fail("claim iss must be a string");
  if (status_list === undefined) fail("claim status_list is required (§5.1)");

  // RFC 7519 §4.1.4: the current time MUST be before exp; §8.3 step 4c
  if (exp !== undefined && now >= exp + leeway) {
    fail(`expired at ${isoTime(exp)} (now ${isoTime(now)}, leeway ${leeway}s)`);
  }
  // RFC 7519 §4.1.5
  if (nbf !== undefined && now < nbf - leeway) {
    fail(`not valid before ${isoTime(nbf)} (now ${isoTime(now)}, leeway ${leeway}s)`);
  }
  // §8.3 step 4b leaves freshness policy to the Relying Party; a token issued in the future is never fresh
  if (iat > now + leeway) fail(`issued in the future at ${isoTime(iat)} (now ${isoTime(now)}, leeway ${leeway}s)`);
  return claims as StatusListTokenPayload;
}

function fail(detail: string): never {
  throw new CredkitError("BR_0101", `status list token: ${detail}`);
}

function isNumericDate(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}

function isoTime(seconds: number): string {
  const date = new Date(seconds * 1000);
  return Number.isNaN(date.getTime()) ? String(seconds) : date.toISOString();
}

function numericDate(date: Date, name: string): number {
  if (!(date instanceof Date) || Number.isNaN(date.getTime())) {
    throw new CredkitError("BR_0084", `status list token ${name} must be a valid Date`);
  }
  return Math.floor(date.getTime() / 1000);
}

function isUri(value: string): boolean {
  return URL.canParse(value);
}
