import type { CredkitConfigInput } from "./schema.js";

// Shipped defaults: the bottom layer `loadConfig` merges files, overrides and the environment onto. Passes the schema
// on its own. `keyStorage.INTERNAL.params.private.encryption` is deliberately absent: the loader requires it (or
// generates a throwaway one when `allowGeneratedSecrets` is set).

// OpenID4VP 1.0 §5.9.3. The x509 and attestation prefixes need a CERTIFICATE verifier identifier (or an identifier
// carrying a Verifier Attestation) on the verifier side, and certificateValidation.trustAnchors on the wallet side.
const CLIENT_ID_SCHEMES_FINAL1 = [
  "redirect_uri",
  "decentralized_identifier",
  "x509_san_dns",
  "x509_hash",
  "verifier_attestation",
];
// Draft 20 names the same schemes by their earlier identifiers (`did` became `decentralized_identifier`; there is no
// `x509_hash`). Its `verifier_attestation` (an earlier attestation format) is not supported.
const CLIENT_ID_SCHEMES_DRAFT20 = ["redirect_uri", "did", "x509_san_dns"];

const config: CredkitConfigInput = {
  app: {
    databaseUrl: "sqlite:./credkit.db",
    serverIp: "127.0.0.1",
    serverPort: 3000,
    auth: { mode: "UNSAFE_NONE" },
  },

  keyAlgorithm: {
    EDDSA: { display: "EdDSA (Ed25519)", order: 0, holderPriority: 0 },
    ECDSA: { display: "ECDSA (P-256)", order: 1, holderPriority: 1 },
    ML_DSA: { display: "ML-DSA-65", order: 2, holderPriority: 2 },
  },

  keyStorage: {
    INTERNAL: { type: "INTERNAL", display: "Internal (encrypted in storage)", order: 0, params: { private: {} } },
  },

  did: {
    KEY: { type: "KEY", display: "did:key", order: 0 },
    JWK: { type: "JWK", display: "did:jwk", order: 1 },
    WEB: {
      type: "WEB",
      display: "did:web",
      order: 2,
      params: { public: { keys: { min: 1, max: 5 }, resolveToInsecureHttp: false } },
    },
  },

  identifier: {
    DID: { display: "DID", order: 0 },
    KEY: { display: "Key", order: 1 },
    CERTIFICATE: { display: "Certificate", order: 2 },
    CA: { display: "Certificate authority", order: 3 },
  },

  format: {
    SD_JWT_VC: {
      type: "SD_JWT_VC",
      display: "SD-JWT VC",
      order: 0,
      params: { public: { leeway: 60, embedLayoutProperties: false } },
    },
    MDOC: {
      type: "MDOC",
      display: "ISO mdoc",
      order: 1,
      params: {
        public: { msoExpiresIn: 259200, msoExpectedUpdateIn: 86400, msoMinimumRefreshTime: 300, leeway: 60 },
      },
    },
  },

  issuanceProtocol: {
    OPENID4VCI_FINAL1: {
      type: "OPENID4VCI_FINAL1",
      display: "OpenID4VCI 1.0",
      order: 0,
      params: {
        public: {
          urlScheme: "openid-credential-offer",
          preAuthorizedCodeExpiresIn: 300,
          tokenExpiresIn: 86400,
          refreshExpiresIn: 7776000,
          txCodeMaxAttempts: 3,
          nonceExpiresIn: 300,
          leeway: 60,
          webhookTask: "WEBHOOK_NOTIFY",
        },
      },
    },
  },

  verificationProtocol: {
    OPENID4VP_FINAL1: {
      type: "OPENID4VP_FINAL1",
      display: "OpenID4VP 1.0",
      order: 0,
      params: {
        public: {
          useRequestUri: true,
          urlScheme: "openid4vp",
          leeway: 60,
          verifier: { interactionExpiresIn: 3600, supportedClientIdSchemes: CLIENT_ID_SCHEMES_FINAL1 },
          holder: { supportedClientIdSchemes: CLIENT_ID_SCHEMES_FINAL1 },
          webhookTask: "WEBHOOK_NOTIFY",
        },
      },
    },
    OPENID4VP_DRAFT20: {
      type: "OPENID4VP_DRAFT20",
      display: "OpenID4VP draft 20",
      order: 1,
      params: {
        public: {
          useRequestUri: true,
          urlScheme: "openid4vp-draft20",
          leeway: 60,
          verifier: {
            interactionExpiresIn: 3600,
            supportedClientIdSchemes: CLIENT_ID_SCHEMES_DRAFT20,
            // draft 20 §5.1: `presentation_definition_uri` (served at …/{proofId}/presentation-definition) instead of
            // the definition by value
            presentationDefinitionByReference: false,
          },
          holder: { supportedClientIdSchemes: CLIENT_ID_SCHEMES_DRAFT20 },
          webhookTask: "WEBHOOK_NOTIFY",
        },
      },
    },
  },

  revocation: {
    TOKENSTATUSLIST: {
      type: "TOKENSTATUSLIST",
      display: "Token Status List",
      order: 0,
      params: { public: { format: "JWT", listSize: 131072, expiresIn: 86400 } },
    },
  },

  datatype: {
    STRING: { type: "STRING", display: "Text", order: 0 },
    NUMBER: { type: "NUMBER", display: "Number", order: 1 },
    DATE: { type: "DATE", display: "Date", order: 2 },
    BOOLEAN: { type: "BOOLEAN", display: "Yes/No", order: 3 },
    PICTURE: {
      type: "PICTURE",
      display: "Picture",
      order: 4,
      params: { public: { accept: ["image/jpeg", "image/png"], fileSize: 4194304 } },
    },
    OBJECT: { type: "OBJECT", display: "Object", order: 5 },
    ARRAY: { type: "ARRAY", display: "Array", order: 6 },
  },

  task: {
    WEBHOOK_NOTIFY: {
      type: "WEBHOOK_NOTIFY",
      display: "Webhook notifications",
      order: 0,
      params: {
        private: { requestTimeoutSeconds: 30, retries: { intervalSeconds: 1, maxAttempts: 5, exponentialFactor: 2.5 } },
      },
    },
    INTERACTION_EXPIRATION_CHECK: {
      type: "INTERACTION_EXPIRATION_CHECK",
      display: "Expire interactions",
      order: 1,
    },
    SUSPEND_CHECK: { type: "SUSPEND_CHECK", display: "Lift ended suspensions", order: 2 },
    RETAIN_PROOF_CHECK: { type: "RETAIN_PROOF_CHECK", display: "Delete proof data past retention", order: 3 },
    HOLDER_CHECK_CREDENTIAL_STATUS: {
      type: "HOLDER_CHECK_CREDENTIAL_STATUS",
      display: "Check status of held credentials",
      order: 4,
    },
    CERTIFICATE_CHECK: { type: "CERTIFICATE_CHECK", display: "Activate and expire certificates", order: 5 },
  },

  transport: {
    HTTP: { type: "HTTP", display: "HTTP", order: 0 },
  },

  trustManagement: {
    SIMPLE_TRUST_LIST: {
      type: "SIMPLE_TRUST_LIST",
      display: "Simple trust list",
      order: 0,
      params: { public: { enablePublishing: true, proofOfPossessionLeeway: 60 } },
    },
  },

  cacheEntities: {
    DID_DOCUMENT: { cacheType: "DB", cacheSize: 100, refreshAfter: 300, cacheRefreshTimeout: 86400 },
    STATUS_LIST_CREDENTIAL: { cacheType: "DB", cacheSize: 100, refreshAfter: 300, cacheRefreshTimeout: 86400 },
    VCT_METADATA: { cacheType: "DB", cacheSize: 100, refreshAfter: 86400, cacheRefreshTimeout: 604800 },
    OPENID_METADATA: { cacheType: "IN_MEMORY", cacheSize: 100, refreshAfter: 300, cacheRefreshTimeout: 3600 },
  },
};

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/** The shipped defaults (frozen; `loadConfig` copies what it merges). */
export const DEFAULT_CONFIG: Readonly<CredkitConfigInput> = deepFreeze(config);
