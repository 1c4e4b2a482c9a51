import { CredkitError } from "../../../errors/index.js";
import { type ClaimPath, formatClaimPath, isJsonObject } from "./claim-path.js";
import { createDisclosure, type Disclosure } from "./create-disclosure.js";

/** Claims in their issued form plus the Disclosures that reveal them. */
export interface DisclosableClaims {
  /** the claims object with every property replaced by an `_sd` digest (absent when there are no properties) */
  claims: Record<string, unknown>;
  /** children before their parents */
  disclosures: Disclosure[];
}

/**
 * Make every claim selectively disclosable, recursively (RFC 9901 §6.3 "recursive disclosures"): each object property
 * becomes a Disclosure referenced from the object's `_sd` array (digests sorted, so their order reveals nothing about
 * the claim order, §4.2.4.1), each array element a Disclosure referenced by `{"...": digest}` (§4.2.4.2). Nested
 * objects and arrays are processed first, so a parent's Disclosure carries the digests of its children: a holder can
 * reveal `address` and still hide `address.street`. Values must be JSON; `_sd` and `...` are reserved names (§4.2.1).
 * Invalid input throws CredkitError BR_0084.
 */
export function makeDisclosable(claims: Record<string, unknown>): DisclosableClaims {
  const disclosures: Disclosure[] = [];
  const packed = packObject(claims, [], disclosures);
  return { claims: packed, disclosures };
}

function packObject(
  object: Record<string, unknown>,
  path: ClaimPath,
  disclosures: Disclosure[],
): Record<string, unknown> {
  const digests: string[] = [];
  for (const name of Object.keys(object)) {
    const value = object[name];
    if (value === undefined) continue;
    if (name === "_sd" || name === "...") {
      throw new CredkitError("BR_0084", `claim name "${name}" is reserved by SD-JWT (at ${formatClaimPath(path)})`);
    }
    const childPath = [...path, name];
    const disclosure = createDisclosure(name, packValue(value, childPath, disclosures));
    disclosures.push(disclosure);
    digests.push(disclosure.digest);
  }
  const packed: Record<string, unknown> = {};
  if (digests.length > 0) packed._sd = digests.sort();
  return packed;
}

function packArray(array: readonly unknown[], path: ClaimPath, disclosures: Disclosure[]): unknown[] {
  return array.map((element, index) => {
    const disclosure = createDisclosure(undefined, packValue(element, [...path, index], disclosures));
    disclosures.push(disclosure);
    return { "...": disclosure.digest };
  });
}

function packValue(value: unknown, path: ClaimPath, disclosures: Disclosure[]): unknown {
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      if (!Number.isFinite(value)) throw notJson(path, "a non-finite number");
      return value;
    case "object":
      if (value === null) return null;
      if (Array.isArray(value)) return packArray(value, path, disclosures);
      if (isJsonObject(value)) return packObject(value, path, disclosures);
      throw notJson(path, `an instance of ${value.constructor?.name ?? "an unknown class"}`);
    default:
      throw notJson(path, value === undefined ? "undefined" : `a ${typeof value}`);
  }
}

function notJson(path: ClaimPath, what: string): CredkitError {
  return new CredkitError("BR_0084", `claim ${formatClaimPath(path)} is ${what}, not a JSON value`);
}
