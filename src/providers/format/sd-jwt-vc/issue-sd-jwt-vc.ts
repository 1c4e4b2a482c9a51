import { CredkitError } from "../../../errors/index.js";
import type { FormatCredentialInput } from "../../../ports/credential-formatter.js";
import type { PublicJwk } from "../../../ports/key-algorithm.js";
import { numericDateOf } from "../../jose/jwt-claims.js";
import { signCompactJws } from "../../jose/sign-compact-jws.js";
import { makeDisclosable } from "./make-disclosable.js";

/** `typ` of an SD-JWT VC (draft-ietf-oauth-sd-jwt-vc §3.2.1); `vc+sd-jwt` is the pre-draft-06 value. */
export const SD_JWT_VC_TYP = "dc+sd-jwt";
export const LEGACY_SD_JWT_VC_TYP = "vc+sd-jwt";

/**
 * Claims the issuer sets from FormatCredentialInput and that must never be selectively disclosable (SD-JWT VC
 * §3.2.2.2: iss, nbf, exp, cnf, vct, vct#integrity, status; credkit keeps iat visible too); `_sd_alg` belongs to
 * SD-JWT. They are rejected as subject claims.
 */
export const REGISTERED_CLAIMS: ReadonlySet<string> = new Set([
  "iss",
  "iat",
  "exp",
  "nbf",
  "vct",
  "vct#integrity",
  "cnf",
  "status",
  "_sd_alg",
]);

/** JWK members that carry private key material (RFC 7518 §6, draft-ietf-cose-dilithium). */
const PRIVATE_JWK_MEMBERS = ["d", "p", "q", "dp", "dq", "qi", "oth", "k", "priv", "seed"];

/**
 * Issue an SD-JWT VC: header `{typ: "dc+sd-jwt", alg, kid}`, payload `{iss, iat, nbf?, exp?, vct, cnf?, status?,
 * _sd_alg: "sha-256", _sd}` with every subject claim selectively disclosable (recursively, see makeDisclosable), signed
 * with one call to the signer. Returns `<issuer-jwt>~<d1>~…~<dn>~`. Invalid input throws CredkitError BR_0084.
 */
export async function issueSdJwtVc(input: FormatCredentialInput): Promise<string> {
  if (typeof input.issuer !== "string" || input.issuer === "") throw new CredkitError("BR_0084", "issuer is empty");
  if (typeof input.type !== "string" || input.type === "") throw new CredkitError("BR_0084", "type (vct) is empty");
  for (const name of Object.keys(input.claims)) {
    if (REGISTERED_CLAIMS.has(name)) {
      throw new CredkitError("BR_0084", `claim "${name}" is set by the issuer and cannot be a subject claim`);
    }
  }
  const disclosable = makeDisclosable(input.claims);

  const payload: Record<string, unknown> = {
    iss: input.issuer,
    iat: numericDateOf(checkDate(input.issuedAt, "issuedAt")),
  };
  if (input.notBefore !== undefined) payload.nbf = numericDateOf(checkDate(input.notBefore, "notBefore"));
  if (input.expiresAt !== undefined) payload.exp = numericDateOf(checkDate(input.expiresAt, "expiresAt"));
  payload.vct = input.type;
  if (input.holderJwk !== undefined) payload.cnf = { jwk: checkPublicJwk(input.holderJwk) };
  if (input.status !== undefined) {
    const { idx, uri } = input.status;
    if (!Number.isSafeInteger(idx) || idx < 0) throw new CredkitError("BR_0084", "status list index must be >= 0");
    if (typeof uri !== "string" || uri === "") throw new CredkitError("BR_0084", "status list uri is empty");
    payload.status = { status_list: { idx, uri } };
  }
  payload._sd_alg = "sha-256";
  if (disclosable.claims._sd !== undefined) payload._sd = disclosable.claims._sd;

  const jws = await signCompactJws({ typ: SD_JWT_VC_TYP }, payload, input.signer);
  let sdJwt = `${jws}~`;
  for (const disclosure of disclosable.disclosures) sdJwt += `${disclosure.encoded}~`;
  return sdJwt;
}

function checkDate(date: Date, field: string): Date {
  if (!(date instanceof Date) || Number.isNaN(date.getTime()))
    throw new CredkitError("BR_0084", `${field} is not a valid date`);
  return date;
}

function checkPublicJwk(jwk: PublicJwk): PublicJwk {
  if (typeof jwk !== "object" || jwk === null || typeof jwk.kty !== "string") {
    throw new CredkitError("BR_0096", "holder JWK must be an object with a kty");
  }
  for (const member of PRIVATE_JWK_MEMBERS) {
    if (jwk[member] !== undefined)
      throw new CredkitError("BR_0096", `holder JWK contains the private member "${member}"`);
  }
  return jwk;
}
