import { type Credkit, type CredkitOptions, createCredkit } from "../credkit.js";
import { memoryStorage } from "../storage/memory/index.js";

/** A fixed INTERNAL key-storage encryption key for tests (never use it in production). */
export const TEST_ENCRYPTION_KEY = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";

/**
 * A credkit on in-memory storage with a fixed test encryption key, ignoring the process environment. Options are
 * merged over these defaults.
 */
export function createTestKit(options: CredkitOptions = {}): Promise<Credkit> {
  return createCredkit({
    storage: memoryStorage(),
    env: false,
    ...options,
    config: {
      ...options.config,
      keyStorage: {
        INTERNAL: { params: { private: { encryption: TEST_ENCRYPTION_KEY } } },
        ...options.config?.keyStorage,
      },
    },
  });
}
