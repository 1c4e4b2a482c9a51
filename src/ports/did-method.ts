import type { DidDocument } from "../domain/did.js";
import type { DidKeyRole, KeyAlgorithmType } from "../domain/enums.js";

export interface DidMethodCapabilities {
  /** RESOLVE, CREATE, DEACTIVATE */
  operations: ("RESOLVE" | "CREATE" | "DEACTIVATE")[];
  keyAlgorithms: KeyAlgorithmType[];
  /** DID method names handled, e.g. ["key"] */
  methodNames: string[];
}

export interface DidCreateKey {
  keyId: string;
  keyType: KeyAlgorithmType;
  publicKey: Uint8Array;
}

export interface DidCreateInput {
  /** id of the DID entity (did:web uses it in its URL) */
  id: string;
  keys: Record<DidKeyRole, DidCreateKey[]>;
  params: Record<string, unknown>;
}

export interface DidCreateResult {
  did: string;
  /** verification method fragment per key id (e.g. "key-0" or the multibase) */
  references: Record<string, string>;
}

/** Config block `did`. */
export interface DidMethod {
  readonly capabilities: DidMethodCapabilities;
  /** key-count rules of the method (min/max per role), checked before create */
  validateKeys?(input: DidCreateInput): void;
  create(input: DidCreateInput): Promise<DidCreateResult>;
  resolve(did: string): Promise<DidDocument>;
}
