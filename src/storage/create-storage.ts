import type { Storage } from "../ports/storage.js";
import { createRepository } from "./create-repository.js";
import type { TableDriver } from "./table-driver.js";
import { certificateTable, didTable, historyTable, identifierTable, keyTable, organisationTable } from "./tables.js";

/** Builds the Storage port (all repositories + transactions) over any TableDriver. */
export function createStorage(driver: TableDriver): Storage {
  const storage: Storage = {
    kind: driver.kind,
    organisations: createRepository(driver, organisationTable),
    keys: createRepository(driver, keyTable),
    dids: createRepository(driver, didTable),
    identifiers: createRepository(driver, identifierTable),
    certificates: createRepository(driver, certificateTable),
    history: createRepository(driver, historyTable),
    transaction: (fn) => driver.transaction((txDriver) => fn(txDriver === driver ? storage : createStorage(txDriver))),
    close: () => driver.close(),
  };
  return storage;
}
