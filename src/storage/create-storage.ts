import type { Storage } from "../ports/storage.js";
import { createRepository } from "./create-repository.js";
import type { TableDriver } from "./table-driver.js";
import {
  certificateTable,
  credentialSchemaTable,
  credentialTable,
  didTable,
  historyTable,
  identifierTable,
  interactionTable,
  keyTable,
  nonceTable,
  notificationTable,
  organisationTable,
  proofSchemaTable,
  proofTable,
  revocationEntryTable,
  revocationListTable,
} from "./tables.js";

/** Builds the Storage port (all repositories + transactions) over any TableDriver. */
export function createStorage(driver: TableDriver): Storage {
  // a driver that hands out the same transaction driver every time (SQLite) gets its repositories built once
  const transactionStorages = new WeakMap<TableDriver, Storage>();
  const storageOf = (txDriver: TableDriver): Storage => {
    let txStorage = transactionStorages.get(txDriver);
    if (txStorage === undefined) {
      txStorage = createStorage(txDriver);
      transactionStorages.set(txDriver, txStorage);
    }
    return txStorage;
  };
  const storage: Storage = {
    kind: driver.kind,
    organisations: createRepository(driver, organisationTable),
    keys: createRepository(driver, keyTable),
    dids: createRepository(driver, didTable),
    identifiers: createRepository(driver, identifierTable),
    certificates: createRepository(driver, certificateTable),
    history: createRepository(driver, historyTable),
    credentialSchemas: createRepository(driver, credentialSchemaTable),
    credentials: createRepository(driver, credentialTable),
    interactions: createRepository(driver, interactionTable),
    revocationLists: createRepository(driver, revocationListTable),
    revocationEntries: createRepository(driver, revocationEntryTable),
    nonces: createRepository(driver, nonceTable),
    proofSchemas: createRepository(driver, proofSchemaTable),
    proofs: createRepository(driver, proofTable),
    notifications: createRepository(driver, notificationTable),
    transaction: (fn) => driver.transaction((txDriver) => fn(txDriver === driver ? storage : storageOf(txDriver))),
    close: () => driver.close(),
  };
  return storage;
}
