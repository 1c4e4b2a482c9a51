import { CredkitError } from "../../../errors/index.js";
import { type ClaimPath, formatClaimPath, isJsonObject, setOwnProperty } from "./claim-path.js";
import { type Disclosure, digestDisclosure } from "./create-disclosure.js";

/** The `~`-separated parts of an SD-JWT or SD-JWT+KB (RFC 9901 §4). */
export interface SdJwtParts {
  /** the issuer-signed JWT (compact JWS) */
  issuerJwt: string;
  /** the encoded Disclosures, in the order they were sent */
  disclosures: string[];
  /** the Key Binding JWT, when the last part is not empty */
  keyBindingJwt?: string;
  /** `<issuer-jwt>~<d1>~…~<dn>~`: the SD-JWT without its KB-JWT, the input of `sd_hash` (RFC 9901 §4.3.1) */
  sdJwt: string;
}

/** A Disclosure applied to the claims, with the path where its claim now sits. */
export interface AppliedDisclosure {
  disclosure: Disclosure;
  path: ClaimPath;
}

/** The issuer-signed payload with the Disclosures applied (RFC 9901 §7.1 step 3). */
export interface ProcessedSdJwtPayload {
  /** `_sd`, `_sd_alg` and undisclosed array elements removed, disclosed claims in place */
  claims: Record<string, unknown>;
  /** every Disclosure, in the order the walk met it (parents before children) */
  applied: AppliedDisclosure[];
}

const SD_ALG = "sha-256";

/**
 * Split `<issuer-jwt>~<disclosure>~…~[<kb-jwt>]` (RFC 9901 §4). There must be at least one `~`; empty Disclosures
 * (`~~`) are malformed. Throws CredkitError BR_0189.
 */
export function splitSdJwt(text: string): SdJwtParts {
  if (typeof text !== "string") throw new CredkitError("BR_0189", "SD-JWT is not a string");
  const last = text.lastIndexOf("~");
  if (last < 0) throw new CredkitError("BR_0189", "SD-JWT has no ~ separator (an SD-JWT ends with ~)");
  const segments = text.slice(0, last).split("~");
  const issuerJwt = segments[0]!;
  if (issuerJwt === "") throw new CredkitError("BR_0189", "SD-JWT has no issuer-signed JWT before the first ~");
  const disclosures = segments.slice(1);
  if (disclosures.includes("")) throw new CredkitError("BR_0189", "SD-JWT contains an empty disclosure (~~)");
  const parts: SdJwtParts = { issuerJwt, disclosures, sdJwt: text.slice(0, last + 1) };
  const keyBindingJwt = text.slice(last + 1);
  if (keyBindingJwt !== "") parts.keyBindingJwt = keyBindingJwt;
  return parts;
}

/**
 * Decode one Disclosure: canonical base64url of a UTF-8 JSON array `[salt, name, value]` or `[salt, value]` with
 * string salt and name. Structural faults throw BR_0189; the reserved names `_sd` and `...` throw BR_0355 (RFC 9901
 * §7.1 step 3.2.2.2).
 */
export function decodeDisclosure(encoded: string): Disclosure {
  const bytes = Buffer.from(encoded, "base64url");
  if (bytes.toString("base64url") !== encoded) throw new CredkitError("BR_0189", "disclosure is not valid base64url");
  let array: unknown;
  try {
    array = JSON.parse(bytes.toString("utf8"));
  } catch {
    throw new CredkitError("BR_0189", "disclosure is not valid JSON");
  }
  if (!Array.isArray(array) || (array.length !== 2 && array.length !== 3)) {
    throw new CredkitError("BR_0189", "disclosure is not a JSON array of 2 or 3 elements");
  }
  const [salt] = array;
  if (typeof salt !== "string") throw new CredkitError("BR_0189", "disclosure salt is not a string");
  const digest = digestDisclosure(encoded);
  if (array.length === 2) return { encoded, digest, salt, value: array[1] };
  const name: unknown = array[1];
  if (typeof name !== "string") throw new CredkitError("BR_0189", "disclosure claim name is not a string");
  if (name === "_sd" || name === "...") {
    throw new CredkitError("BR_0355", `disclosure uses the reserved claim name "${name}"`);
  }
  return { encoded, digest, salt, name, value: array[2] };
}

/**
 * Apply Disclosures to an issuer-signed payload (RFC 9901 §7.1 step 3): replace every `_sd` digest and every
 * `{"...": digest}` array element that has a Disclosure by its claim, recursively into disclosed values; drop
 * undisclosed digests (and decoys); remove `_sd` and `_sd_alg`. Rejected with CredkitError BR_0355: an `_sd_alg` other
 * than sha-256, a digest that occurs more than once, a Disclosure given twice or referenced nowhere, a claim name that
 * already exists, an object-property Disclosure in an array slot or an array-element Disclosure in `_sd`.
 */
export function applyDisclosures(
  payload: Record<string, unknown>,
  disclosures: readonly Disclosure[],
): ProcessedSdJwtPayload {
  const sdAlg = payload._sd_alg;
  if (sdAlg !== undefined && sdAlg !== SD_ALG) {
    throw new CredkitError("BR_0355", `unsupported _sd_alg ${JSON.stringify(sdAlg)} (supported: ${SD_ALG})`);
  }
  const byDigest = new Map<string, Disclosure>();
  for (const disclosure of disclosures) {
    if (byDigest.has(disclosure.digest)) {
      throw new CredkitError("BR_0355", `disclosure ${describe(disclosure)} is included more than once`);
    }
    byDigest.set(disclosure.digest, disclosure);
  }
  const walk = new DisclosureWalk(byDigest);
  const claims = walk.object(payload, [], true);
  if (walk.applied.length !== byDigest.size) {
    const used = new Set(walk.applied.map((entry) => entry.disclosure.digest));
    const unused = disclosures.find((disclosure) => !used.has(disclosure.digest))!;
    throw new CredkitError("BR_0355", `disclosure not referenced by the credential: ${describe(unused)}`);
  }
  return { claims, applied: walk.applied };
}

class DisclosureWalk {
  readonly applied: AppliedDisclosure[] = [];
  private readonly seenDigests = new Set<string>();

  constructor(private readonly byDigest: ReadonlyMap<string, Disclosure>) {}

  object(object: Record<string, unknown>, path: ClaimPath, root = false): Record<string, unknown> {
    const result: Record<string, unknown> = {};
    for (const name of Object.keys(object)) {
      if (name === "_sd" || (root && name === "_sd_alg")) continue;
      setOwnProperty(result, name, this.value(object[name], [...path, name]));
    }
    const digests = object._sd;
    if (digests === undefined) return result;
    if (!Array.isArray(digests)) throw invalid(`_sd at ${formatClaimPath(path)} is not an array`);
    for (const digest of digests) {
      if (typeof digest !== "string") throw invalid(`_sd at ${formatClaimPath(path)} holds a non-string digest`);
      const disclosure = this.take(digest);
      if (disclosure === undefined) continue;
      if (disclosure.name === undefined) {
        throw invalid(
          `array-element disclosure ${describe(disclosure)} is referenced from _sd at ${formatClaimPath(path)}`,
        );
      }
      if (Object.hasOwn(result, disclosure.name)) {
        throw invalid(`disclosed claim ${formatClaimPath([...path, disclosure.name])} already exists`);
      }
      const claimPath = [...path, disclosure.name];
      this.applied.push({ disclosure, path: claimPath });
      setOwnProperty(result, disclosure.name, this.value(disclosure.value, claimPath));
    }
    return result;
  }

  array(array: readonly unknown[], path: ClaimPath): unknown[] {
    const result: unknown[] = [];
    for (const element of array) {
      const digest = placeholderDigest(element);
      if (digest === undefined) {
        result.push(this.value(element, [...path, result.length]));
        continue;
      }
      const disclosure = this.take(digest);
      if (disclosure === undefined) continue;
      if (disclosure.name !== undefined) {
        throw invalid(`object-property disclosure ${describe(disclosure)} is referenced from an array element`);
      }
      const elementPath = [...path, result.length];
      this.applied.push({ disclosure, path: elementPath });
      result.push(this.value(disclosure.value, elementPath));
    }
    return result;
  }

  private value(value: unknown, path: ClaimPath): unknown {
    if (Array.isArray(value)) return this.array(value, path);
    if (isJsonObject(value)) return this.object(value, path);
    return value;
  }

  /** The Disclosure of a digest met in the payload, or undefined (undisclosed or decoy); each digest only once. */
  private take(digest: string): Disclosure | undefined {
    if (this.seenDigests.has(digest)) throw invalid(`digest ${digest} occurs more than once in the credential`);
    this.seenDigests.add(digest);
    return this.byDigest.get(digest);
  }
}

/** The digest of an array element of the form `{"...": "<digest>"}` (RFC 9901 §4.2.4.2), else undefined. */
function placeholderDigest(element: unknown): string | undefined {
  if (!isJsonObject(element) || !Object.hasOwn(element, "...")) return undefined;
  const keys = Object.keys(element);
  if (keys.length !== 1) return undefined;
  const digest = element["..."];
  if (typeof digest !== "string") throw invalid('array element {"...": …} holds a non-string digest');
  return digest;
}

function describe(disclosure: Disclosure): string {
  return disclosure.name === undefined ? `(array element, digest ${disclosure.digest})` : `"${disclosure.name}"`;
}

function invalid(detail: string): CredkitError {
  return new CredkitError("BR_0355", detail);
}
