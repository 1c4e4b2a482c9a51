import type { Storage } from "../../ports/storage.js";
import { createStorage } from "../create-storage.js";
import { buildTableRegistry } from "../spec-registry.js";
import { ALL_TABLES } from "../tables.js";
import { MemoryDriver } from "./memory-driver.js";

/** Storage kept in this process's memory: for tests and short-lived in-process use. Lost on exit. */
export function memoryStorage(): Storage {
  return createStorage(new MemoryDriver(buildTableRegistry(ALL_TABLES)));
}
