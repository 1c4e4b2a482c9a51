import { CredkitError } from "../../errors/index.js";
import type { DidCreateInput, DidCreateKey } from "../../ports/did-method.js";

/**
 * The one key of a single-key DID method (did:key, did:jwk): every role given must name the same key id, and at least
 * one role must name it. Anything else throws BR_0030.
 */
export function requireSingleKey(input: DidCreateInput, method: string): DidCreateKey {
  let single: DidCreateKey | undefined;
  for (const keys of Object.values(input.keys ?? {})) {
    for (const key of keys ?? []) {
      if (single === undefined) single = key;
      else if (single.keyId !== key.keyId) {
        throw new CredkitError("BR_0030", `did:${method} holds exactly one key; got ${single.keyId} and ${key.keyId}`);
      }
    }
  }
  if (single === undefined) throw new CredkitError("BR_0030", `did:${method} needs one key`);
  return single;
}
