import { join } from "node:path";
import { describe } from "vitest";
import type { Storage } from "../../src/ports/storage.js";
import { memoryStorage } from "../../src/storage/memory/index.js";
import { postgresStorage } from "../../src/storage/sql/postgres.js";
import { sqliteStorage } from "../../src/storage/sql/sqlite.js";
import { createTestDatabase, POSTGRES_ADMIN_URL, postgresAvailable } from "./postgres.js";
import { createTempDir } from "./temp-dir.js";

export interface StorageFixture {
  storage: Storage;
  /** opens a second, independent handle on the same database (another process's view); memory returns the same */
  openAnother: () => Promise<Storage>;
  dispose: () => Promise<void>;
}

export interface StorageAdapterCase {
  name: "memory" | "sqlite" | "postgres";
  available: boolean;
  /** why the adapter is absent here (only a service outside CI may be; postgres.ts fails the run in CI) */
  unavailableBecause?: string;
  open: () => Promise<StorageFixture>;
}

/** Every storage adapter the contract suites run against. */
export const STORAGE_ADAPTERS: StorageAdapterCase[] = [
  {
    name: "memory",
    available: true,
    open: async () => {
      const storage = memoryStorage();
      return { storage, openAnother: async () => storage, dispose: () => storage.close() };
    },
  },
  {
    name: "sqlite",
    available: true,
    open: async () => {
      const dir = createTempDir();
      const file = join(dir.path, "credkit.db");
      const storage = await sqliteStorage(file);
      const others: Storage[] = [];
      return {
        storage,
        openAnother: async () => {
          const other = await sqliteStorage(file);
          others.push(other);
          return other;
        },
        dispose: async () => {
          for (const other of others) await other.close();
          await storage.close();
          dir.remove();
        },
      };
    },
  },
  {
    name: "postgres",
    available: postgresAvailable,
    unavailableBecause: `PostgreSQL is not reachable at ${POSTGRES_ADMIN_URL} (set TEST_POSTGRES_URL; required with CI=true)`,
    open: async () => {
      const database = await createTestDatabase();
      const storage = await postgresStorage(database.url);
      const others: Storage[] = [];
      return {
        storage,
        openAnother: async () => {
          const other = await postgresStorage(database.url);
          others.push(other);
          return other;
        },
        dispose: async () => {
          for (const other of others) await other.close();
          await storage.close();
          await database.drop();
        },
      };
    },
  },
];

/**
 * `describe` for a suite on one adapter. Where the adapter's service is absent (never in CI) the suite is skipped and
 * its title says why, so a run without PostgreSQL reports what it did not test.
 */
export function describeOnStorage(adapter: StorageAdapterCase, title: string, suite: () => void): void {
  if (adapter.available) describe(title, suite);
  else describe.skip(`${title} — SKIPPED: ${adapter.unavailableBecause ?? "adapter unavailable"}`, suite);
}
