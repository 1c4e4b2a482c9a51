import type { Did } from "../../domain/did.js";
import type { Key } from "../../domain/key.js";
import { CredkitError } from "../../errors/credkit-error.js";
import type { PublicJwk } from "../../ports/key-algorithm.js";
import type { StorageRepositories } from "../../ports/storage.js";
import { getKeyAlgorithm, type ProviderRegistry } from "../../providers/registry.js";
import type { CallContext } from "../common/call-context.js";
import { requireInScope } from "../common/organisation-scope.js";
import { parseId } from "../common/parse-id.js";

/** The key a wallet binds a credential to, and how the issuer learns it. */
export interface HolderKey {
  key: Key;
  publicJwk: PublicJwk;
  /** DID URL of the key when the holder is a DID (the proof carries `kid`); absent = the proof carries `jwk` */
  kid?: string;
  /** the identifier recorded as the credential's holder, when there is one */
  identifierId?: string;
}

export interface HolderKeyRequest {
  identifierId?: string;
  didId?: string;
  keyId?: string;
}

/** Key roles a holder may prove possession with, in order of preference. */
const HOLDER_ROLES = ["AUTHENTICATION", "ASSERTION_METHOD"] as const;

function invalidHolder(detail: string): CredkitError {
  return new CredkitError("BR_0217", detail);
}

/**
 * Picks the holder key of an issuance (reference §3.8 issuance-accept): `identifierId` (a DID identifier: its
 * authentication key, else assertion key, or `keyId` when it is one of them; a KEY identifier: its key), the
 * deprecated `didId` the same way, or a bare `keyId`. Everything must belong to `organisationId`, be local and active.
 * BR_0217 when nothing usable is named, BR_0330 for a key the identifier does not have, not-found codes otherwise.
 */
export async function resolveHolderKey(
  storage: StorageRepositories,
  providers: ProviderRegistry,
  context: CallContext,
  organisationId: string,
  request: HolderKeyRequest,
): Promise<HolderKey> {
  const sameOrganisation = (entity: { organisationId?: string }, what: string) => {
    if (entity.organisationId !== organisationId) {
      throw invalidHolder(`${what} belongs to another organisation than the interaction`);
    }
  };

  async function loadKey(keyId: string): Promise<Key> {
    const key = requireInScope(context, await storage.keys.get(parseId(keyId, "BR_0037")), "BR_0037", `key ${keyId}`);
    sameOrganisation(key, `key ${keyId}`);
    if (key.isRemote) throw new CredkitError("BR_0076", `key ${keyId} is remote: the wallet cannot sign with it`);
    return key;
  }

  async function fromDid(did: Did, keyId: string | undefined, identifierId: string | undefined): Promise<HolderKey> {
    if (did.deactivated) throw new CredkitError("BR_0027", `DID ${did.did} is deactivated`);
    if (did.type !== "LOCAL") throw invalidHolder(`DID ${did.did} is remote: the wallet holds no key of it`);
    const usable = HOLDER_ROLES.flatMap((role) => did.keys.filter((entry) => entry.role === role));
    const entry = keyId === undefined ? usable[0] : usable.find((candidate) => candidate.keyId === keyId);
    if (!entry) {
      throw keyId === undefined
        ? new CredkitError("BR_0222", `DID ${did.did} has no authentication or assertion key`)
        : new CredkitError("BR_0330", `key ${keyId} is not an authentication or assertion key of ${did.did}`);
    }
    const key = await loadKey(entry.keyId);
    return {
      key,
      publicJwk: publicJwkOf(providers, key),
      kid: `${did.did}#${entry.reference}`,
      ...(identifierId !== undefined && { identifierId }),
    };
  }

  async function loadDid(didId: string): Promise<Did> {
    const did = requireInScope(context, await storage.dids.get(parseId(didId, "BR_0024")), "BR_0024", `DID ${didId}`);
    sameOrganisation(did, `DID ${did.did}`);
    return did;
  }

  if (request.identifierId !== undefined) {
    const id = request.identifierId;
    const identifier = requireInScope(
      context,
      await storage.identifiers.get(parseId(id, "BR_0207")),
      "BR_0207",
      `identifier ${id}`,
    );
    if (identifier.deletedAt !== undefined) throw new CredkitError("BR_0207", `identifier ${id} not found`);
    sameOrganisation(identifier, `identifier ${id}`);
    if (identifier.state !== "ACTIVE") throw invalidHolder(`identifier ${id} is deactivated`);
    if (identifier.isRemote) throw invalidHolder(`identifier ${id} is remote: the wallet holds no key of it`);
    if (identifier.type === "DID" && identifier.didId) {
      return fromDid(await loadDid(identifier.didId), request.keyId, id);
    }
    if (identifier.type === "KEY" && identifier.keyId) {
      if (request.keyId !== undefined && request.keyId !== identifier.keyId) {
        throw new CredkitError("BR_0330", `key ${request.keyId} is not the key of identifier ${id}`);
      }
      const key = await loadKey(identifier.keyId);
      return { key, publicJwk: publicJwkOf(providers, key), identifierId: id };
    }
    throw invalidHolder(`identifier ${id} of type ${identifier.type} cannot hold credentials (DID or KEY needed)`);
  }

  if (request.didId !== undefined) {
    const did = await loadDid(request.didId);
    const identifier = await storage.identifiers.findOne({
      op: "and",
      conditions: [
        { op: "eq", column: "didId", value: did.id },
        { op: "isNull", column: "deletedAt" },
      ],
    });
    return fromDid(did, request.keyId, identifier?.id);
  }

  if (request.keyId !== undefined) {
    const key = await loadKey(request.keyId);
    const identifier = await storage.identifiers.findOne({
      op: "and",
      conditions: [
        { op: "eq", column: "keyId", value: key.id },
        { op: "eq", column: "type", value: "KEY" },
        { op: "isNull", column: "deletedAt" },
      ],
    });
    return {
      key,
      publicJwk: publicJwkOf(providers, key),
      ...(identifier !== undefined && { identifierId: identifier.id }),
    };
  }

  throw invalidHolder("identifierId, didId or keyId is required to choose the holder key");
}

function publicJwkOf(providers: ProviderRegistry, key: Key): PublicJwk {
  return getKeyAlgorithm(providers, key.keyType).publicKeyToJwk(key.publicKey);
}
