import type { CacheEntityConfig } from "./cache-entities.js";
import type { ConfigEntry } from "./entry.js";
import type { CredkitConfig } from "./schema.js";
import { PROVIDER_BLOCKS, type ProviderBlockName } from "./type-enums.js";

// The body of `GET /api/config/v1` (reference §3.13): every provider block as instance name → public view of the
// entry, plus `cacheEntities` and an empty `frontend` block. `app` (it holds the static token and the database URL)
// and every private parameter are left out.

export interface PublicConfigEntry {
  type: string;
  display: string | Record<string, string>;
  order?: number;
  priority?: number;
  holderPriority?: number;
  enabled: boolean;
  capabilities?: unknown;
  /** The public parameters only. */
  params: Record<string, unknown>;
}

export type PublicConfig = Record<ProviderBlockName, Record<string, PublicConfigEntry>> & {
  cacheEntities: Record<string, CacheEntityConfig>;
  frontend: Record<string, unknown>;
};

/** Capabilities of the provider behind one instance (`undefined` leaves the field out). */
export type CapabilitiesLookup = (block: ProviderBlockName, instanceName: string) => unknown;

export function toPublicConfig(config: CredkitConfig, capabilities?: CapabilitiesLookup): PublicConfig {
  const view = {} as Record<ProviderBlockName, Record<string, PublicConfigEntry>>;
  for (const block of PROVIDER_BLOCKS) {
    const entries: Record<string, PublicConfigEntry> = {};
    for (const [name, entry] of Object.entries(config[block] as Record<string, ConfigEntry>)) {
      entries[name] = toPublicEntry(entry, capabilities?.(block, name));
    }
    view[block] = entries;
  }
  return { ...view, cacheEntities: structuredClone(config.cacheEntities), frontend: {} };
}

function toPublicEntry(entry: ConfigEntry & { holderPriority?: number }, capabilities: unknown): PublicConfigEntry {
  return {
    type: entry.type,
    display: structuredClone(entry.display),
    ...(entry.order === undefined ? {} : { order: entry.order }),
    ...(entry.priority === undefined ? {} : { priority: entry.priority }),
    ...(entry.holderPriority === undefined ? {} : { holderPriority: entry.holderPriority }),
    enabled: entry.enabled,
    ...(capabilities === undefined ? {} : { capabilities }),
    params: structuredClone(entry.params.public),
  };
}
