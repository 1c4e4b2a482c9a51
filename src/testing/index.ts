// credkit/testing: helpers for tests of applications that embed credkit.
export { type Credkit, type CredkitOptions, createCredkit } from "../credkit.js";
export { memoryStorage } from "../storage/memory/index.js";
export { createTestKit, TEST_ENCRYPTION_KEY } from "./create-test-kit.js";
export { linkKits, type RequestHandler } from "./link-kits.js";
