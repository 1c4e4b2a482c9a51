export type { AppConfig, AppConfigInput } from "./app.js";
export { AUTH_MODES, type AuthConfig, type AuthMode, type StsTokenValidationConfig } from "./auth.js";
export type { CacheEntityConfig } from "./cache-entities.js";
export { ConfigError, type ConfigIssue, isConfigError } from "./config-error.js";
export { DEFAULT_CONFIG } from "./defaults.js";
export { type ConfigEntry, type ConfigEntryInput, mergeEntryParams } from "./entry.js";
export { ENV_PREFIX } from "./env-overrides.js";
export {
  type ConfigOverrides,
  type LoadConfigOptions,
  loadConfig,
  type ParseConfigOptions,
  parseConfig,
} from "./load-config.js";
export type { DeepPartial } from "./merge-config.js";
export {
  type CapabilitiesLookup,
  type PublicConfig,
  type PublicConfigEntry,
  toPublicConfig,
} from "./public-view.js";
export { type CredkitConfig, type CredkitConfigInput, credkitConfigSchema, type KeyAlgorithmEntry } from "./schema.js";
export {
  CACHE_ENTITY_TYPES,
  CACHE_TYPES,
  type CacheEntityType,
  type CacheType,
  CONFIG_TYPES,
  type ConfigTypeOf,
  PROVIDER_BLOCKS,
  type ProviderBlockName,
  TYPE_KEYED_BLOCKS,
} from "./type-enums.js";
