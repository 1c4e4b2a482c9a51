import { CredkitError } from "../errors/credkit-error.js";
import type { Storage } from "../ports/storage.js";
import { memoryStorage } from "./memory/index.js";

/**
 * Opens the storage named by `app.databaseUrl`: `sqlite:<file>`, `sqlite::memory:`, `postgres://…` / `postgresql://…`,
 * or `memory:`. The SQL adapters are loaded only when used.
 */
export async function openStorage(databaseUrl: string): Promise<Storage> {
  if (databaseUrl === "memory:") return memoryStorage();
  if (databaseUrl.startsWith("sqlite:")) {
    const { sqliteStorage } = await import("./sql/sqlite.js");
    const path = databaseUrl.slice("sqlite:".length);
    return sqliteStorage(path === ":memory:" ? ":memory:" : path);
  }
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    const { postgresStorage } = await import("./sql/postgres.js");
    return postgresStorage(databaseUrl);
  }
  throw new CredkitError("BR_0051", `unsupported databaseUrl ${databaseUrl}`);
}
