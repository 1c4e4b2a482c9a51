import { createServer } from "node:net";
import { loadConfig } from "../config/load-config.js";
import { startServer } from "./serve-command.js";

function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** The issuer-signed payload of an SD-JWT with its disclosures applied, for printing. */
function decodeSdJwtForDisplay(sdJwt: string): Record<string, unknown> {
  const [jwt, ...disclosures] = sdJwt.split("~").filter((part) => part !== "");
  const payload = JSON.parse(Buffer.from(jwt!.split(".")[1]!, "base64url").toString("utf8")) as Record<string, unknown>;
  const disclosed = disclosures.map((d) => JSON.parse(Buffer.from(d, "base64url").toString("utf8")) as unknown[]);
  return {
    header: JSON.parse(Buffer.from(jwt!.split(".")[0]!, "base64url").toString("utf8")),
    payload,
    disclosures: disclosed.map((d) => d.slice(1)),
  };
}

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
  // a fixed free port, so the base URL in offers and request objects is the one the server really listens on
  process.env.CREDKIT_app__serverPort ??= String(await findFreePort());
  // the demo's wallet talks to the demo's own issuer over plain http on loopback
  process.env.CREDKIT_app__http__allowInsecureHttpTransport ??= "true";
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
        keys: {
          authentication: [eddsa],
          assertionMethod: [eddsa],
          keyAgreement: [],
          capabilityInvocation: [],
          capabilityDelegation: [],
        },
      },
    });
    const identifier = await call("GET", `/api/identifier/v1/${identifierId}`);
    print(`  identifier ${identifierId}: ${identifier.did.did}`);
    const document = await call("GET", `/api/did-resolver/v1/${encodeURIComponent(identifier.did.did)}`);
    print(
      `  resolved DID document with ${document.verificationMethod.length} verification method(s): ${document.verificationMethod[0].id}`,
    );
    const history = await call(
      "GET",
      `/api/history/v1?page=0&pageSize=20&organisationId=${organisationId}&sort=createdDate`,
    );
    print(
      `  history: ${history.values.map((h: { action: string; entityType: string }) => `${h.entityType} ${h.action}`).join(", ")}`,
    );

    print("\n— issuance: an SD-JWT VC over OpenID4VCI 1.0 to credkit's own wallet, over HTTP —");
    const { id: schemaId } = await call("POST", "/api/credential-schema/v1", {
      organisationId,
      name: `Demo identity ${stamp}`,
      format: "SD_JWT_VC",
      revocationMethod: "TOKENSTATUSLIST",
      claims: [
        { key: "given_name", datatype: "STRING", required: true },
        { key: "family_name", datatype: "STRING", required: true },
        { key: "birthdate", datatype: "DATE", required: false },
        {
          key: "address",
          datatype: "OBJECT",
          required: false,
          claims: [{ key: "locality", datatype: "STRING", required: true }],
        },
      ],
    });
    const schema = await call("GET", `/api/credential-schema/v1/${schemaId}`);
    const claimId = (key: string) => schema.claims.find((c: { key: string }) => c.key === key).id;
    const addressLocality = schema.claims.find((c: { key: string }) => c.key === "address").claims[0].id;
    const { id: credentialId } = await call("POST", "/api/credential/v1", {
      credentialSchemaId: schemaId,
      issuer: identifierId,
      protocol: "OPENID4VCI_FINAL1",
      claimValues: [
        { claimId: claimId("given_name"), path: "given_name", value: "Erika" },
        { claimId: claimId("family_name"), path: "family_name", value: "Mustermann" },
        { claimId: claimId("birthdate"), path: "birthdate", value: "1964-08-12" },
        { claimId: addressLocality, path: "address/locality", value: "Berlin" },
      ],
    });
    const offer = await call("POST", `/api/credential/v1/${credentialId}/share`);
    print(`  offer: ${offer.url}`);
    const { id: walletOrg } = await call("POST", "/api/organisation/v1", { name: `Demo wallet ${stamp}` });
    const { id: holderKey } = await call("POST", "/api/key/v1", {
      organisationId: walletOrg,
      keyType: "ECDSA",
      keyParams: {},
      name: "holder key",
      storageType: "INTERNAL",
      storageParams: {},
    });
    const invitation = await call("POST", "/api/interaction/v1/handle-invitation", {
      url: offer.url,
      organisationId: walletOrg,
    });
    const accepted = await call("POST", "/api/interaction/v1/issuance-accept", {
      interactionId: invitation.interactionId,
      keyId: holderKey,
    });
    const held = await call("GET", `/api/credential/v1/${accepted.id}`);
    print(`  wallet holds credential ${accepted.id} (${held.state}, role ${held.role})`);
    const stored = await running.kit.storage.credentials.get(accepted.id);
    print(
      `  decoded: ${JSON.stringify(decodeSdJwtForDisplay(stored?.credentialBlob ?? ""), null, 2).replace(/\n/g, "\n  ")}`,
    );
    print(
      `  issuer side: credential ${credentialId} is ${(await call("GET", `/api/credential/v1/${credentialId}`)).state}`,
    );

    print("\n— verification: OpenID4VP 1.0 with DCQL, the wallet discloses only what is asked —");
    const { id: proofSchemaId } = await call("POST", "/api/proof-schema/v1", {
      organisationId,
      name: `Demo age check ${stamp}`,
      proofInputSchemas: [
        {
          credentialSchemaId: schemaId,
          claimSchemas: [
            { id: claimId("given_name"), required: true },
            { id: claimId("birthdate"), required: true },
          ],
        },
      ],
    });
    const { id: proofId } = await call("POST", "/api/proof-request/v1", {
      proofSchemaId,
      protocol: "OPENID4VP_FINAL1",
      verifier: identifierId,
    });
    const request = await call("POST", `/api/proof-request/v1/${proofId}/share`, {
      params: { clientIdScheme: "decentralized_identifier" },
    });
    print(`  request: ${request.url.slice(0, 110)}…`);
    const proofInvitation = await call("POST", "/api/interaction/v1/handle-invitation", {
      url: request.url,
      organisationId: walletOrg,
    });
    const definition = await call("GET", `/api/proof-request/v2/${proofInvitation.proofId}/presentation-definition`);
    const [queryId, query] = Object.entries(definition.credentialQueries)[0] as [
      string,
      { applicableCredentials: { id: string }[] },
    ];
    print(`  wallet: query ${queryId} can be answered with ${query.applicableCredentials.length} held credential(s)`);
    await call("POST", "/api/interaction/v2/presentation-submit", {
      interactionId: proofInvitation.interactionId,
      submission: { [queryId]: { credentialId: query.applicableCredentials[0]!.id } },
    });
    const proof = await call("GET", `/api/proof-request/v1/${proofId}`);
    const acceptedClaims = proof.proofInputs.flatMap((input: { claims: { path: string; value: unknown }[] }) =>
      input.claims.map((c) => `${c.path}=${JSON.stringify(c.value)}`),
    );
    print(`  verifier: proof ${proof.state}; accepted claims: ${acceptedClaims.join(", ")}`);
    print("  (family_name and address stayed in the wallet: they were not requested)");
    print("demo finished");
  } finally {
    await running.stop();
  }
}
