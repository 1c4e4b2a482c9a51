import { CredkitError } from "../../../errors/index.js";
import type { PresentationOptions } from "../../../ports/credential-formatter.js";
import { decodeCompactJws } from "../../jose/decode-compact-jws.js";
import { numericDateOf } from "../../jose/jwt-claims.js";
import { signCompactJws } from "../../jose/sign-compact-jws.js";
import { type ClaimPath, formatClaimPath, isJsonObject, isPathPrefix } from "./claim-path.js";
import { type AppliedDisclosure, applyDisclosures, decodeDisclosure, splitSdJwt } from "./decode-sd-jwt.js";
import { computeSdHash } from "./sd-hash.js";
import { KB_JWT_TYP } from "./verify-key-binding-jwt.js";

/**
 * Present an SD-JWT VC the holder holds (`<issuer-jwt>~<d1>~…~`): keep only the Disclosures needed for the requested
 * claim paths — a path's own Disclosure, the Disclosures of the objects and arrays it sits in (a nested claim is
 * unreachable without its parent's), and everything below it (disclosing `address` reveals the whole address) — then,
 * with `keyBinding`, append a KB-JWT `{typ: "kb+jwt", alg}` / `{iat, aud, nonce, sd_hash}` signed by the holder key
 * (RFC 9901 §4.3). The issuer signature is not checked here (the holder verified the credential when it received it).
 * A path that is not in the credential throws CredkitError BR_0003; a malformed credential BR_0189 / BR_0355.
 */
export async function createSdJwtVcPresentation(credential: string, options: PresentationOptions): Promise<string> {
  const parts = splitSdJwt(credential);
  if (parts.keyBindingJwt !== undefined) {
    throw new CredkitError("BR_0355", "credential already carries a key binding JWT; present the issued SD-JWT");
  }
  const { payload } = decodeCompactJws(parts.issuerJwt, "credential");
  const { claims, applied } = applyDisclosures(payload, parts.disclosures.map(decodeDisclosure));

  for (const path of options.disclose) {
    if (!pathExists(claims, path)) {
      throw new CredkitError("BR_0003", `claim ${formatClaimPath(path)} is not in the credential`);
    }
  }
  let presentation = `${parts.issuerJwt}~`;
  for (const entry of applied) {
    if (isNeeded(entry, options.disclose)) presentation += `${entry.disclosure.encoded}~`;
  }
  if (options.keyBinding === undefined) return presentation;

  const cnf = claims.cnf;
  if (!isJsonObject(cnf) || !isJsonObject(cnf.jwk)) {
    throw new CredkitError("BR_0355", "credential has no holder binding key (cnf.jwk) to bind the presentation to");
  }
  const { audience, nonce, issuedAt, signer } = options.keyBinding;
  const keyBindingJwt = await signCompactJws(
    // no kid: the verifier takes the key from cnf.jwk, and a kid would only add a correlation handle
    { typ: KB_JWT_TYP, kid: undefined },
    { iat: numericDateOf(issuedAt), aud: audience, nonce, sd_hash: computeSdHash(presentation) },
    signer,
  );
  return presentation + keyBindingJwt;
}

/** A Disclosure is needed when it is on the way to a requested claim or inside one. */
function isNeeded(entry: AppliedDisclosure, requested: PresentationOptions["disclose"]): boolean {
  for (const path of requested) {
    if (isPathPrefix(entry.path, path) || isPathPrefix(path, entry.path)) return true;
  }
  return false;
}

function pathExists(claims: Record<string, unknown>, path: ClaimPath): boolean {
  let node: unknown = claims;
  for (const segment of path) {
    if (typeof segment === "number") {
      if (!Array.isArray(node) || !Number.isInteger(segment) || segment < 0 || segment >= node.length) return false;
      node = node[segment];
    } else {
      if (!isJsonObject(node) || !Object.hasOwn(node, segment)) return false;
      node = node[segment];
    }
  }
  return true;
}
