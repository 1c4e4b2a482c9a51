import type { Credential } from "../domain/credential.js";
import type { CredentialSchema } from "../domain/credential-schema.js";
import type { Did } from "../domain/did.js";
import type { SortDirection } from "../domain/enums.js";
import type { HistoryEvent } from "../domain/history.js";
import type { Certificate, Identifier } from "../domain/identifier.js";
import type { Interaction } from "../domain/interaction.js";
import type { Key } from "../domain/key.js";
import type { Notification } from "../domain/notification.js";
import type { Organisation } from "../domain/organisation.js";
import type { Proof } from "../domain/proof.js";
import type { ProofSchema } from "../domain/proof-schema.js";
import type { Nonce, RevocationEntry, RevocationList } from "../domain/revocation-list.js";

export type Scalar = string | number | boolean | Date | null;

/**
 * A filter over an aggregate's columns (entity field names). Every storage adapter evaluates the same tree: SQL
 * adapters compile it to a WHERE clause (indexes apply), the memory adapter to a predicate.
 * Text operators `startsWith`, `contains` and `equalsIgnoreCase` are case-insensitive.
 * `exists` matches when a row of the child/related `table` joined on `on` (related column -> this row's column)
 * satisfies `where`.
 */
export type Condition =
  | { op: "eq" | "ne" | "lt" | "lte" | "gt" | "gte"; column: string; value: Scalar }
  | { op: "in" | "notIn"; column: string; values: readonly Scalar[] }
  | { op: "isNull" | "notNull"; column: string }
  | { op: "startsWith" | "contains" | "equalsIgnoreCase"; column: string; value: string }
  | { op: "and" | "or"; conditions: readonly Condition[] }
  | { op: "not"; condition: Condition }
  | { op: "exists"; table: string; on: Readonly<Record<string, string>>; where?: Condition };

export interface OrderBy {
  column: string;
  direction: SortDirection;
  /** sort by `column` of a related row: the one of `table` whose columns `on` (related -> this row) match */
  from?: { table: string; on: Readonly<Record<string, string>> };
}

export interface ListQuery {
  where?: Condition;
  orderBy?: readonly OrderBy[];
  /** 0-based */
  page: number;
  pageSize: number;
}

export interface Page<T> {
  values: T[];
  totalItems: number;
  totalPages: number;
}

/** Typed access to one aggregate. Writes that break a uniqueness rule throw CredkitError with the rule's BR code. */
export interface Repository<T extends { id: string }> {
  insert(entity: T): Promise<void>;
  get(id: string): Promise<T | undefined>;
  findOne(where: Condition): Promise<T | undefined>;
  findMany(where?: Condition, options?: { orderBy?: readonly OrderBy[]; limit?: number }): Promise<T[]>;
  list(query: ListQuery): Promise<Page<T>>;
  count(where?: Condition): Promise<number>;
  /**
   * Conditional update: applies `patch` to row `id` only if it also satisfies `options.where`; answers whether a row
   * changed. This is the primitive for single-use codes and state transitions under concurrency. A key present in
   * `patch` with value `undefined` clears the field.
   */
  update(id: string, patch: Partial<T>, options?: { where?: Condition }): Promise<boolean>;
  updateMany(where: Condition, patch: Partial<T>): Promise<number>;
  delete(id: string, options?: { where?: Condition }): Promise<boolean>;
  deleteMany(where: Condition): Promise<number>;
}

export interface StorageRepositories {
  readonly organisations: Repository<Organisation>;
  readonly keys: Repository<Key>;
  readonly dids: Repository<Did>;
  readonly identifiers: Repository<Identifier>;
  readonly certificates: Repository<Certificate>;
  readonly history: Repository<HistoryEvent>;
  readonly credentialSchemas: Repository<CredentialSchema>;
  readonly credentials: Repository<Credential>;
  readonly interactions: Repository<Interaction>;
  readonly revocationLists: Repository<RevocationList>;
  readonly revocationEntries: Repository<RevocationEntry>;
  readonly nonces: Repository<Nonce>;
  readonly proofSchemas: Repository<ProofSchema>;
  readonly proofs: Repository<Proof>;
  /** webhook notification outbox (written with the state change, delivered by the WEBHOOK_NOTIFY task) */
  readonly notifications: Repository<Notification>;
}

/** The persistence port. `transaction` runs `fn` atomically: every write through `tx` commits or none does. */
export interface Storage extends StorageRepositories {
  /** memory | sqlite | postgres | custom */
  readonly kind: string;
  /** Nested calls on a transaction's `tx` join the outer transaction. */
  transaction<T>(fn: (tx: Storage) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
