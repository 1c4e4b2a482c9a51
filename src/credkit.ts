import { randomUUID } from "node:crypto";
import { type ConfigOverrides, loadConfig } from "./config/load-config.js";
import { type PublicConfig, toPublicConfig } from "./config/public-view.js";
import type { CredkitConfig } from "./config/schema.js";
import type { EngineDeps } from "./engines/common/engine-deps.js";
import { createSecretSealer } from "./engines/common/secret-sealer.js";
import { createHistoryService, type HistoryService } from "./engines/history/history-service.js";
import { createHolderService, type HolderService } from "./engines/holder/holder-service.js";
import {
  type CredentialSchemaService,
  createCredentialSchemaService,
} from "./engines/issuer/credential-schema-service.js";
import { type CredentialService, createCredentialService } from "./engines/issuer/credential-service.js";
import {
  createOpenid4vciIssuerService,
  type Openid4vciIssuerService,
} from "./engines/issuer/openid4vci/openid4vci-issuer-service.js";
import { createStatusListService, type StatusListService } from "./engines/issuer/status-list-service.js";
import { type CertificateService, createCertificateService } from "./engines/management/certificate-service.js";
import { createDidService, type DidService } from "./engines/management/did-service.js";
import { createIdentifierService, type IdentifierService } from "./engines/management/identifier-service.js";
import { createKeyService, type KeyService } from "./engines/management/key-service.js";
import { createOrganisationService, type OrganisationService } from "./engines/management/organisation-service.js";
import { withNotificationOutbox } from "./engines/notification/notification-outbox.js";
import { createNotificationService, type NotificationService } from "./engines/notification/notification-service.js";
import { createTaskService, type TaskService } from "./engines/tasks/task-service.js";
import { createOpenid4vpVerifier, type Openid4vpVerifier } from "./engines/verifier/openid4vp/openid4vp-verifier.js";
import { createDraft20Verifier, type Draft20Verifier } from "./engines/verifier/openid4vp-draft20/draft20-verifier.js";
import { createProofRequestService, type ProofRequestService } from "./engines/verifier/proof-request-service.js";
import { createProofSchemaService, type ProofSchemaService } from "./engines/verifier/proof-schema-service.js";
import { type CredkitHttp, createHttpApp } from "./http/app.js";
import { type Clock, systemClock } from "./ports/clock.js";
import type { HttpClient } from "./ports/http-client.js";
import type { NotificationTransport } from "./ports/notification-transport.js";
import type { Storage } from "./ports/storage.js";
import { buildProviderRegistry } from "./providers/build-registry.js";
import { httpNotificationTransport } from "./providers/notification/http.js";
import { mqttNotificationTransport } from "./providers/notification/mqtt.js";
import type { ProviderRegistry } from "./providers/registry.js";
import { openStorage } from "./storage/open-storage.js";

export interface CredkitOptions {
  /** programmatic configuration, merged over the shipped defaults and `configFiles` (environment wins over it) */
  config?: ConfigOverrides;
  /** YAML/JSON configuration files, merged in order */
  configFiles?: readonly string[];
  /** source of `CREDKIT_…` overrides; default `process.env`, `false` ignores the environment */
  env?: Record<string, string | undefined> | false;
  /** development only: generate a missing INTERNAL key-storage encryption key instead of failing */
  allowGeneratedSecrets?: boolean;
  /** your storage; default: opened from `app.databaseUrl` (and closed by `close()`) */
  storage?: Storage;
  /** outbound HTTP; default global fetch */
  fetch?: HttpClient;
  clock?: Clock;
  /** webhook notifications (platform spec §6) */
  notifications?: NotificationOptions;
}

/** How webhook notifications leave this process. */
export interface NotificationOptions {
  /** transports tried before the built-in HTTP (over `fetch`) and MQTT ones, first matching protocol wins */
  transports?: readonly NotificationTransport[];
  /**
   * make the first delivery attempt right after the state change commits (in this process); retries still happen
   * only when the WEBHOOK_NOTIFY task runs. Default false: the task delivers everything.
   */
  deliverAfterCommit?: boolean;
  /** receives warnings (final delivery failures); default console.warn */
  log?: (message: string) => void;
  /** deliveries in flight at once (default 32) */
  concurrency?: number;
}

/** A running credkit: engine services over one storage and provider registry. */
export interface Credkit {
  readonly config: CredkitConfig;
  readonly storage: Storage;
  readonly providers: ProviderRegistry;
  readonly organisations: OrganisationService;
  readonly keys: KeyService;
  readonly dids: DidService;
  readonly identifiers: IdentifierService;
  /** certificates of CERTIFICATE and CA identifiers (GET /api/certificate/v1/{id}, CERTIFICATE_CHECK) */
  readonly certificates: CertificateService;
  readonly history: HistoryService;
  /** wallet: credential offers, accept / reject, revocation check of held credentials */
  readonly holder: HolderService;
  readonly credentialSchemas: CredentialSchemaService;
  /** issuer-side credentials (create, offer, revoke, suspend, reactivate) and held credentials' detail/list */
  readonly credentials: CredentialService;
  /** OpenID4VCI 1.0 issuer protocol (the /ssi endpoints, HTTP-free) */
  readonly openid4vci: Openid4vciIssuerService;
  /** token status lists of this deployment's issuers */
  readonly statusLists: StatusListService;
  readonly proofSchemas: ProofSchemaService;
  /** verifier-side proof requests */
  readonly proofRequests: ProofRequestService;
  /** OpenID4VP 1.0 verifier protocol (the /ssi endpoints, HTTP-free) */
  readonly openid4vp: Openid4vpVerifier;
  /** OpenID4VP draft 20 verifier with Presentation Exchange (the /v1 presentation endpoints) */
  readonly openid4vpDraft20: Draft20Verifier;
  /** webhook notification delivery (the outbox is written by `storage`) */
  readonly notifications: NotificationService;
  /** POST /api/task/v1/run, `credkit task run NAME` */
  readonly tasks: TaskService;
  /** outbound HTTP client every engine uses */
  readonly fetch: HttpClient;
  /** the HTTP surface (/api, /ssi, /.well-known, system endpoints), built on first use */
  readonly http: CredkitHttp;
  /** GET /api/config/v1: public params and capabilities, never private params */
  publicConfig(): PublicConfig;
  /** closes the storage when credkit opened it */
  close(): Promise<void>;
}

/** Composition root: configuration → storage → providers → engines. */
export async function createCredkit(options: CredkitOptions = {}): Promise<Credkit> {
  const config = loadConfig({
    files: options.configFiles ?? [],
    ...(options.config !== undefined && { overrides: options.config }),
    env: options.env === false ? {} : (options.env ?? process.env),
    allowGeneratedSecrets: options.allowGeneratedSecrets === true,
  });
  const ownsStorage = options.storage === undefined;
  const baseStorage = options.storage ?? (await openStorage(config.app.databaseUrl));
  const fetchImpl: HttpClient = options.fetch ?? ((input, init) => fetch(input, init));
  const clock = options.clock ?? systemClock;
  // every engine write goes through the outbox decorator: notifications commit with the state change
  let dispatcher: NotificationService | undefined;
  const storage = withNotificationOutbox(baseStorage, {
    config,
    clock,
    newId: randomUUID,
    ...(options.notifications?.deliverAfterCommit === true && {
      onCommitted: (ids: string[]) => dispatcher?.dispatch(ids),
    }),
  });
  const notifications = createNotificationService({
    config,
    storage,
    clock,
    newId: randomUUID,
    transports: [
      ...(options.notifications?.transports ?? []),
      httpNotificationTransport(fetchImpl),
      mqttNotificationTransport(),
    ],
    ...(options.notifications?.log !== undefined && { log: options.notifications.log }),
    ...(options.notifications?.concurrency !== undefined && { concurrency: options.notifications.concurrency }),
  });
  dispatcher = notifications;

  let dids: DidService | undefined;
  const providers = buildProviderRegistry(config, {
    fetch: fetchImpl,
    baseUrl: config.app.coreBaseUrl,
    documentLoader: (did) => (dids ? dids.localDocument(did) : Promise.resolve(undefined)),
  });
  const deps: EngineDeps = {
    storage,
    providers,
    clock,
    fetch: fetchImpl,
    newId: randomUUID,
    baseUrl: config.app.coreBaseUrl,
    secrets: createSecretSealer(internalEncryptionKey(config)),
  };
  dids = createDidService(deps);
  const certificates = createCertificateService(deps, config.certificateValidation);
  const credentialSchemas = createCredentialSchemaService(deps, config);
  const statusLists = createStatusListService(deps, (method) => {
    const params = {
      ...config.revocation[method]?.params.public,
      ...config.revocation[method]?.params.private,
    } as Record<string, unknown>;
    return {
      listSize: typeof params.listSize === "number" ? params.listSize : 131072,
      expiresIn: typeof params.expiresIn === "number" ? params.expiresIn : 86400,
    };
  });
  const credentials = createCredentialService(deps, config, credentialSchemas, statusLists);
  const openid4vci = createOpenid4vciIssuerService(deps, config, dids, statusLists);
  const proofSchemas = createProofSchemaService(deps, credentialSchemas);
  const openid4vp = createOpenid4vpVerifier(deps, config, dids);
  const openid4vpDraft20 = createDraft20Verifier(deps, config);
  const proofRequests = createProofRequestService(deps, config, proofSchemas, openid4vp, openid4vpDraft20);
  const holder = createHolderService(deps, { config, dids });
  const tasks = createTaskService({
    config,
    storage,
    clock,
    notifications,
    openid4vci,
    openid4vp,
    credentials,
    proofRequests,
    holder,
    certificates,
  });

  let http: CredkitHttp | undefined;
  const kit: Credkit = {
    config,
    storage,
    fetch: fetchImpl,
    get http() {
      http ??= createHttpApp(kit);
      return http;
    },
    providers,
    organisations: createOrganisationService(deps),
    keys: createKeyService(deps),
    dids,
    identifiers: createIdentifierService(deps, dids, certificates),
    certificates,
    history: createHistoryService(deps),
    holder,
    credentialSchemas,
    credentials,
    openid4vci,
    statusLists,
    proofSchemas,
    proofRequests,
    openid4vp,
    openid4vpDraft20,
    notifications,
    tasks,
    publicConfig: () =>
      toPublicConfig(config, (block, name) => {
        if (block === "keyAlgorithm") return providers.keyAlgorithms.get(name)?.capabilities;
        if (block === "keyStorage") return providers.keyStorages.get(name)?.capabilities;
        if (block === "did") return providers.didMethods.get(name)?.capabilities;
        return undefined;
      }),
    close: async () => {
      http?.close();
      await notifications.close();
      if (ownsStorage) await storage.close();
    },
  };
  return kit;
}

/** The encryption key of the first enabled INTERNAL key storage (also keys the interaction secret sealer). */
function internalEncryptionKey(config: CredkitConfig): string | undefined {
  for (const entry of Object.values(config.keyStorage)) {
    const encryption = entry.params.private?.encryption;
    if (entry.enabled && entry.type === "INTERNAL" && typeof encryption === "string") return encryption;
  }
  return undefined;
}
