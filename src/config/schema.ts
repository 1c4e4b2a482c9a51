import { z } from "zod";
import { appSchema } from "./app.js";
import { cacheEntitiesSchema } from "./cache-entities.js";
import { certificateValidationSchema } from "./certificate-validation.js";
import { providerBlockSchema, providerEntrySchema, typeKeyedBlockSchema } from "./entry.js";
import { CONFIG_TYPES } from "./type-enums.js";

// The whole credkit configuration: one zod schema. Each block maps an instance name to a generic entry (entry.ts),
// except `app` (server settings), `cacheEntities`, and the blocks keyed by type (`keyAlgorithm`, `identifier`).

const HEX_32_BYTES = /^[0-9a-fA-F]{64}$/;

/** `INTERNAL` key storage encrypts keys at rest with AES-256-GCM: its key must be 32 bytes as hex. */
const keyStorageEntrySchema = providerEntrySchema("keyStorage", CONFIG_TYPES.keyStorage).superRefine((entry, ctx) => {
  if (entry.type !== "INTERNAL" || !entry.enabled) return;
  const encryption = entry.params.private.encryption;
  if (encryption === undefined || encryption === "") return; // presence is the loader's concern (see load-config.ts)
  if (typeof encryption !== "string" || !HEX_32_BYTES.test(encryption)) {
    ctx.addIssue({
      code: "custom",
      path: ["params", "private", "encryption"],
      message: "must be 64 hexadecimal characters (a 32-byte key, e.g. `openssl rand -hex 32`)",
    });
  }
});

const BLOCK_NAMES = [
  "app",
  "format",
  "issuanceProtocol",
  "verificationProtocol",
  "keyAlgorithm",
  "keyStorage",
  "revocation",
  "did",
  "identifier",
  "datatype",
  "task",
  "transport",
  "trustManagement",
  "cacheEntities",
  "certificateValidation",
];

export const credkitConfigSchema = z.strictObject(
  {
    app: appSchema,
    format: providerBlockSchema("format", CONFIG_TYPES.format),
    issuanceProtocol: providerBlockSchema("issuanceProtocol", CONFIG_TYPES.issuanceProtocol),
    verificationProtocol: providerBlockSchema("verificationProtocol", CONFIG_TYPES.verificationProtocol),
    keyAlgorithm: typeKeyedBlockSchema("keyAlgorithm", CONFIG_TYPES.keyAlgorithm, {
      /** Preference of the algorithm when a holder generates a key (lower first). */
      holderPriority: z.number().optional(),
    }),
    keyStorage: z.record(z.string().min(1), keyStorageEntrySchema).default(() => ({})),
    revocation: providerBlockSchema("revocation", CONFIG_TYPES.revocation),
    did: providerBlockSchema("did", CONFIG_TYPES.did),
    identifier: typeKeyedBlockSchema("identifier", CONFIG_TYPES.identifier),
    datatype: providerBlockSchema("datatype", CONFIG_TYPES.datatype),
    task: providerBlockSchema("task", CONFIG_TYPES.task),
    transport: providerBlockSchema("transport", CONFIG_TYPES.transport),
    trustManagement: providerBlockSchema("trustManagement", CONFIG_TYPES.trustManagement),
    cacheEntities: cacheEntitiesSchema,
    certificateValidation: certificateValidationSchema,
    /**
     * Paths of secrets the loader generated because `allowGeneratedSecrets` was set (development only). A CLI warns
     * about each; data encrypted with them is lost on restart.
     */
    generatedSecrets: z.array(z.string()).default(() => []),
  },
  {
    error: (issue) =>
      issue.code === "unrecognized_keys" ? `unknown configuration block (known: ${BLOCK_NAMES.join(", ")})` : undefined,
  },
);

/** A validated configuration, every default applied. */
export type CredkitConfig = z.output<typeof credkitConfigSchema>;
/** What configuration files, overrides and environment variables contribute (before defaults and normalisation). */
export type CredkitConfigInput = z.input<typeof credkitConfigSchema>;
export type KeyAlgorithmEntry = CredkitConfig["keyAlgorithm"][string];
