// Allowed `type` values of every configuration block (reference §7 "Type enums", task types from §3.10). A provider
// registry only builds what it has an implementation for; the schema accepts the full One Core vocabulary so a
// configuration written for One Core validates here too.

export const CONFIG_TYPES = {
  format: ["JWT", "SD_JWT", "SD_JWT_VC", "JSON_LD_CLASSIC", "JSON_LD_BBSPLUS", "MDOC"],
  issuanceProtocol: ["OPENID4VCI_DRAFT13", "OPENID4VCI_FINAL1", "OPENID4VCI_FINAL1_SWIYU"],
  verificationProtocol: [
    "OPENID4VP_DRAFT20",
    "OPENID4VP_DRAFT20_SWIYU",
    "OPENID4VP_DRAFT25",
    "OPENID4VP_FINAL1",
    "ISO_MDL",
    "OPENID4VP_PROXIMITY_DRAFT00",
  ],
  keyAlgorithm: ["EDDSA", "ECDSA", "BBS_PLUS", "ML_DSA"],
  keyStorage: ["INTERNAL", "AZURE_VAULT", "PKCS11", "SECURE_ELEMENT", "REMOTE_SECURE_ELEMENT"],
  revocation: ["BITSTRINGSTATUSLIST", "TOKENSTATUSLIST", "CRL", "MDOC_MSO_UPDATE_SUSPENSION"],
  did: ["KEY", "WEB", "JWK", "WEBVH", "UNIVERSAL_RESOLVER"],
  identifier: ["DID", "CERTIFICATE", "KEY", "CA"],
  datatype: ["STRING", "NUMBER", "DATE", "PICTURE", "SWIYU_PICTURE", "OBJECT", "ARRAY", "BOOLEAN"],
  task: [
    "SUSPEND_CHECK",
    "RETAIN_PROOF_CHECK",
    "CERTIFICATE_CHECK",
    "HOLDER_CHECK_CREDENTIAL_STATUS",
    "INTERACTION_EXPIRATION_CHECK",
    "WEBHOOK_NOTIFY",
    "TRUST_LIST_SUBSCRIPTION_UPDATE",
    "TRUST_COLLECTION_SYNC",
  ],
  transport: ["HTTP", "BLE", "MQTT"],
  trustManagement: ["SIMPLE_TRUST_LIST"],
} as const;

/** Name of a provider block (every block whose entries have the generic `{type, display, ...}` shape). */
export type ProviderBlockName = keyof typeof CONFIG_TYPES;

/** Allowed `type` values of one provider block, e.g. `ConfigTypeOf<"format">` = `"JWT" | "SD_JWT" | ...`. */
export type ConfigTypeOf<B extends ProviderBlockName> = (typeof CONFIG_TYPES)[B][number];

/** Provider blocks whose instance name is the type itself (reference §7). */
export const TYPE_KEYED_BLOCKS = ["keyAlgorithm", "identifier"] as const satisfies readonly ProviderBlockName[];

/** Provider blocks in the order `GET /api/config/v1` lists them. */
export const PROVIDER_BLOCKS = [
  "format",
  "identifier",
  "issuanceProtocol",
  "verificationProtocol",
  "transport",
  "revocation",
  "did",
  "datatype",
  "keyAlgorithm",
  "keyStorage",
  "task",
  "trustManagement",
] as const satisfies readonly ProviderBlockName[];

/** Entity types a cache can be configured for (`cacheEntities` is keyed by them). */
export const CACHE_ENTITY_TYPES = [
  "X509_CRL",
  "STATUS_LIST_CREDENTIAL",
  "DID_DOCUMENT",
  "JSON_LD_CONTEXT",
  "VCT_METADATA",
  "JSON_SCHEMA",
  "TRUST_LIST",
  "OPENID_METADATA",
] as const;
export type CacheEntityType = (typeof CACHE_ENTITY_TYPES)[number];

export const CACHE_TYPES = ["IN_MEMORY", "DB"] as const;
export type CacheType = (typeof CACHE_TYPES)[number];
