import type { Clock } from "../../ports/clock.js";
import type { HttpClient } from "../../ports/http-client.js";
import type { Storage } from "../../ports/storage.js";
import type { ProviderRegistry } from "../../providers/registry.js";
import type { SecretSealer } from "./secret-sealer.js";

/** What every engine service is built from (the composition root assembles it once). */
export interface EngineDeps {
  storage: Storage;
  providers: ProviderRegistry;
  clock: Clock;
  fetch: HttpClient;
  newId: () => string;
  /** absolute base URL of the /ssi endpoints (app.coreBaseUrl) */
  baseUrl: string;
  /** seals protocol secrets kept in interactions (wallet access tokens, verifier ephemeral keys) */
  secrets: SecretSealer;
}
