import { loadConfig } from "../config/load-config.js";
import { startServer } from "./serve-command.js";

/** A development-only encryption key for `npm run demo` when none is configured. Never use it in production. */
const DEMO_ENCRYPTION_KEY = "6465762d6f6e6c792d64656d6f2d6b65792d646f2d6e6f742d7573652d212121";
const ENCRYPTION_ENV = "CREDKIT_keyStorage__INTERNAL__params__private__encryption";

export interface DemoOptions {
  configFiles: string[];
  print: (line: string) => void;
}

/**
 * `credkit demo`: starts the server on an ephemeral loopback port over the configured storage (the embedded SQLite
 * default `./credkit.db`) and walks through the API over real HTTP, printing each step.
 */
export async function runDemoCommand(options: DemoOptions): Promise<void> {
  const { print } = options;
  if (process.env[ENCRYPTION_ENV] === undefined) {
    process.env[ENCRYPTION_ENV] = DEMO_ENCRYPTION_KEY;
    print(`note: using the built-in demo encryption key (set ${ENCRYPTION_ENV} for your own)`);
  }
  process.env.CREDKIT_app__serverIp ??= "127.0.0.1";
  process.env.CREDKIT_app__serverPort ??= "0";
  const configured = loadConfig({ files: options.configFiles });
  print(`storage: ${configured.app.databaseUrl}`);
  const running = await startServer({ configFiles: options.configFiles, dev: false, print });
  const base = running.url;
  print(`server: ${base}`);
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { accept: "application/json", ...(body !== undefined && { "content-type": "application/json" }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    const json = text ? JSON.parse(text) : undefined;
    if (!response.ok) throw new Error(`${method} ${path} → ${response.status} ${text}`);
    print(`${method} ${path} → ${response.status}`);
    return json;
  };
  try {
    const stamp = new Date().toISOString();
    const { id: organisationId } = await call("POST", "/api/organisation/v1", { name: `Demo organisation ${stamp}` });
    print(`  organisation ${organisationId}`);
    const keys: Record<string, string> = {};
    for (const keyType of ["EDDSA", "ECDSA", "ML_DSA"]) {
      const { id } = await call("POST", "/api/key/v1", {
        organisationId,
        keyType,
        keyParams: {},
        name: `demo ${keyType}`,
        storageType: "INTERNAL",
        storageParams: {},
      });
      const key = await call("GET", `/api/key/v1/${id}`);
      keys[keyType] = id;
      print(`  ${keyType} key ${id}, public key ${key.publicKey.slice(0, 32)}…`);
    }
    const eddsa = keys.EDDSA!;
    const { id: identifierId } = await call("POST", "/api/identifier/v1", {
      organisationId,
      name: "demo issuer",
      did: {
        method: "KEY",
        keys: { authentication: [eddsa], assertionMethod: [eddsa], keyAgreement: [], capabilityInvocation: [], capabilityDelegation: [] },
      },
    });
    const identifier = await call("GET", `/api/identifier/v1/${identifierId}`);
    print(`  identifier ${identifierId}: ${identifier.did.did}`);
    const document = await call("GET", `/api/did-resolver/v1/${encodeURIComponent(identifier.did.did)}`);
    print(`  resolved DID document with ${document.verificationMethod.length} verification method(s): ${document.verificationMethod[0].id}`);
    const history = await call("GET", `/api/history/v1?page=0&pageSize=20&organisationId=${organisationId}&sort=createdDate`);
    print(`  history: ${history.values.map((h: { action: string; entityType: string }) => `${h.entityType} ${h.action}`).join(", ")}`);
    print("demo finished");
  } finally {
    await running.stop();
  }
}
