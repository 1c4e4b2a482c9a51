import { describe, expect, it } from "vitest";
import { ConfigError, credkitConfigSchema, DEFAULT_CONFIG, parseConfig } from "../../src/config/index.js";

const KEY = "0f".repeat(32);
const withKey = {
  keyStorage: { INTERNAL: { type: "INTERNAL", display: "x", params: { private: { encryption: KEY } } } },
};

function issuesOf(input: unknown): { path: string; message: string }[] {
  try {
    parseConfig(input);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return [...(error as ConfigError).issues];
  }
  throw new Error("expected the configuration to be rejected");
}

function messageOf(input: unknown): string {
  try {
    parseConfig(input);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("expected the configuration to be rejected");
}

describe("configuration schema", () => {
  it("accepts the shipped defaults", () => {
    const result = credkitConfigSchema.safeParse(DEFAULT_CONFIG);
    expect(result.error?.issues).toBeUndefined();
    const config = result.data!;
    expect(Object.keys(config.keyAlgorithm)).toEqual(["EDDSA", "ECDSA", "ML_DSA"]);
    expect(config.keyAlgorithm.EDDSA).toMatchObject({ type: "EDDSA", enabled: true });
    expect(config.identifier.CERTIFICATE?.type).toBe("CERTIFICATE");
    expect(config.format.SD_JWT_VC?.params.public).toEqual({ leeway: 60, embedLayoutProperties: false });
    expect(config.task.WEBHOOK_NOTIFY?.params.private).toMatchObject({ requestTimeoutSeconds: 30 });
    expect(config.verificationProtocol.OPENID4VP_FINAL1?.params.public.urlScheme).toBe("openid4vp");
    expect(config.cacheEntities.DID_DOCUMENT?.cacheType).toBe("DB");
  });

  it("applies app defaults and derives coreBaseUrl", () => {
    const config = parseConfig({});
    expect(config.app).toEqual({
      databaseUrl: "sqlite:./credkit.db",
      serverIp: "127.0.0.1",
      serverPort: 3000,
      coreBaseUrl: "http://127.0.0.1:3000",
      hideErrorResponseCause: false,
      enableManagementEndpoints: true,
      enableExternalEndpoints: true,
      enableMetrics: true,
      enableServerInfo: true,
      enableOpenApi: true,
      enableHistoryCreateEndpoint: false,
      maxOid4vpResponseBodyBytes: 10485760,
      maxRequestBodyBytes: 1048576,
      traceLevel: "info",
      http: { allowInsecureHttpTransport: false },
      auth: { mode: "UNSAFE_NONE" },
    });
    expect(config.generatedSecrets).toEqual([]);
    expect(parseConfig({ app: { serverIp: "10.0.0.5", serverPort: 8080 } }).app.coreBaseUrl).toBe(
      "http://10.0.0.5:8080",
    );
    expect(parseConfig({ app: { serverIp: "0.0.0.0" } }).app.coreBaseUrl).toBe("http://localhost:3000");
    expect(parseConfig({ app: { coreBaseUrl: "https://issuer.example.com/" } }).app.coreBaseUrl).toBe(
      "https://issuer.example.com",
    );
    expect(issuesOf({ app: { coreBaseUrl: "ftp://x" } })).toEqual([
      { path: "app.coreBaseUrl", message: "must be an http(s) URL" },
    ]);
  });

  it("is idempotent: a parsed configuration parses to itself", () => {
    const once = parseConfig({ ...DEFAULT_CONFIG, ...withKey });
    expect(parseConfig(once)).toEqual(once);
  });

  it.each([
    "sqlite:./credkit.db",
    "sqlite:/var/lib/credkit/data.db",
    "sqlite::memory:",
    "postgres://user:secret@db:5432/credkit",
    "postgresql://db/credkit?sslmode=require",
  ])("accepts databaseUrl %s", (databaseUrl) => {
    expect(parseConfig({ app: { databaseUrl } }).app.databaseUrl).toBe(databaseUrl);
  });

  it.each(["", "sqlite:", "mysql://db/credkit", "./credkit.db", "postgres:/db", "file:credkit.db"])(
    "rejects databaseUrl %j",
    (databaseUrl) => {
      expect(issuesOf({ app: { databaseUrl } })).toEqual([
        { path: "app.databaseUrl", message: expect.stringContaining("sqlite:<file>") },
      ]);
    },
  );

  it("rejects serverPort outside 0..65535", () => {
    expect(issuesOf({ app: { serverPort: 70000 } })[0]?.path).toBe("app.serverPort");
    expect(parseConfig({ app: { serverPort: 0 } }).app.serverPort).toBe(0);
  });

  describe("auth", () => {
    it("normalises the earlier mode names", () => {
      expect(parseConfig({ app: { auth: { mode: "INSECURE_NONE" } } }).app.auth).toEqual({ mode: "UNSAFE_NONE" });
      expect(parseConfig({ app: { auth: { mode: "STATIC", staticToken: "test" } } }).app.auth).toEqual({
        mode: "UNSAFE_STATIC",
        staticToken: "test",
      });
    });

    it("requires a static token in UNSAFE_STATIC mode", () => {
      expect(issuesOf({ app: { auth: { mode: "UNSAFE_STATIC" } } })).toEqual([
        { path: "app.auth.staticToken", message: "required" },
      ]);
      expect(issuesOf({ app: { auth: { mode: "UNSAFE_STATIC", staticToken: "" } } })[0]?.path).toBe(
        "app.auth.staticToken",
      );
    });

    it("rejects an unknown mode", () => {
      expect(issuesOf({ app: { auth: { mode: "OAUTH" } } })).toEqual([
        { path: "app.auth.mode", message: expect.stringContaining("UNSAFE_NONE, UNSAFE_STATIC, STS") },
      ]);
    });

    const sts = { aud: "one-core", iss: "https://sts.example.com", jwksUri: "https://sts.example.com/jwks" };

    it("parses STS with defaults for the JWKS cache", () => {
      expect(
        parseConfig({ app: { auth: { mode: "STS", stsTokenValidation: { ...sts, leeway: 5 } } } }).app.auth,
      ).toEqual({
        mode: "STS",
        stsTokenValidation: { ...sts, leeway: 5, jwksRefreshAfter: 300, jwksExpireAfter: 3600 },
      });
    });

    it("maps the earlier ttlJwks to jwksRefreshAfter", () => {
      const auth = parseConfig({
        app: { auth: { mode: "STS", stsTokenValidation: { ...sts, leeway: 0, ttlJwks: 60 } } },
      }).app.auth;
      expect(auth).toEqual({
        mode: "STS",
        stsTokenValidation: { ...sts, leeway: 0, jwksRefreshAfter: 60, jwksExpireAfter: 3600 },
      });
    });

    it("requires the STS leeway and names its path", () => {
      const input = { app: { auth: { mode: "STS", stsTokenValidation: sts } } };
      expect(issuesOf(input)).toEqual([{ path: "app.auth.stsTokenValidation.leeway", message: "required" }]);
      expect(messageOf(input)).toContain("app.auth.stsTokenValidation.leeway: required");
    });

    it("drops fields of another mode left behind by a merge", () => {
      const auth = parseConfig({ app: { auth: { mode: "UNSAFE_NONE", staticToken: "left-over" } } }).app.auth;
      expect(auth).toEqual({ mode: "UNSAFE_NONE" });
    });
  });

  it("reports every error at once, one line each", () => {
    const input = {
      app: {
        databaseUrl: "mysql://x",
        serverPort: "3000",
        enableMetrics: "yes",
        typo: 1,
        auth: { mode: "STS", stsTokenValidation: { aud: "a", iss: "b", jwksUri: "not a url" } },
      },
      format: { MY_FORMAT: { type: "JWT" } },
      did: { WEB: { type: "WEB", display: "x", enabled: "no" } },
      unknownBlock: {},
    };
    const issues = issuesOf(input);
    expect(issues.map((issue) => issue.path).sort()).toEqual(
      [
        "app.databaseUrl",
        "app.serverPort",
        "app.enableMetrics",
        "app.typo",
        "app.auth.stsTokenValidation.jwksUri",
        "app.auth.stsTokenValidation.leeway",
        "format.MY_FORMAT.display",
        "did.WEB.enabled",
        "unknownBlock",
      ].sort(),
    );
    const message = messageOf(input);
    for (const issue of issues) expect(message).toContain(`${issue.path}: ${issue.message}`);
    expect(message.split("\n")).toHaveLength(issues.length + 1);
    expect(issues.find((issue) => issue.path === "app.serverPort")?.message).toBe("expected number, got string");
    expect(issues.find((issue) => issue.path === "app.typo")?.message).toBe("unknown key");
  });

  describe("provider entries", () => {
    it("fills enabled and both param maps", () => {
      const config = parseConfig({ transport: { HTTP: { type: "HTTP", display: { en: "HTTP", de: "HTTP" } } } });
      expect(config.transport.HTTP).toEqual({
        type: "HTTP",
        display: { en: "HTTP", de: "HTTP" },
        enabled: true,
        params: { public: {}, private: {} },
      });
    });

    it("rejects a type not allowed in the block", () => {
      expect(issuesOf({ format: { MINE: { type: "OPENID4VP_FINAL1", display: "x" } } })).toEqual([
        { path: "format.MINE.type", message: expect.stringContaining('unknown format type "OPENID4VP_FINAL1"') },
      ]);
      expect(issuesOf({ revocation: { LIST: { type: "STATUSLIST2021", display: "x" } } })[0]?.path).toBe(
        "revocation.LIST.type",
      );
    });

    it("rejects a parameter that is both public and private", () => {
      const issues = issuesOf({
        format: {
          SD_JWT_VC: {
            type: "SD_JWT_VC",
            display: "x",
            params: { public: { leeway: 60, a: 1 }, private: { leeway: 30, b: 2 } },
          },
        },
      });
      expect(issues).toEqual([
        { path: "format.SD_JWT_VC.params.private", message: expect.stringContaining('"leeway"') },
      ]);
    });

    it("rejects unknown entry fields", () => {
      expect(issuesOf({ did: { KEY: { type: "KEY", display: "x", enable: false } } })).toEqual([
        { path: "did.KEY.enable", message: "unknown key" },
      ]);
    });

    it("keys keyAlgorithm and identifier by type", () => {
      const config = parseConfig({
        keyAlgorithm: { ECDSA: { display: "x", type: "ECDSA" } },
        identifier: { CA: { display: "ca" } },
      });
      expect(config.keyAlgorithm.ECDSA?.type).toBe("ECDSA");
      expect(config.identifier.CA?.type).toBe("CA");
      expect(issuesOf({ keyAlgorithm: { RSA: { display: "x" } } })).toEqual([
        { path: "keyAlgorithm.RSA", message: expect.stringContaining("not a keyAlgorithm type") },
      ]);
      expect(issuesOf({ identifier: { DID: { display: "x", type: "KEY" } } })).toEqual([
        { path: "identifier.DID.type", message: expect.stringContaining('must equal the key "DID"') },
      ]);
    });

    it("checks the format of an INTERNAL key storage encryption key", () => {
      const entry = (encryption: unknown) => ({
        keyStorage: { INTERNAL: { type: "INTERNAL", display: "x", params: { private: { encryption } } } },
      });
      expect(parseConfig(entry(KEY)).keyStorage.INTERNAL?.params.private.encryption).toBe(KEY);
      expect(issuesOf(entry("abc"))).toEqual([
        { path: "keyStorage.INTERNAL.params.private.encryption", message: expect.stringContaining("64 hexadecimal") },
      ]);
      expect(issuesOf(entry("abc"))[0]?.message).not.toContain("abc");
    });

    it("validates cacheEntities", () => {
      expect(
        issuesOf({
          cacheEntities: {
            DID_DOCUMENT: { cacheType: "REDIS", cacheSize: 1, refreshAfter: 1, cacheRefreshTimeout: 1 },
          },
        })[0]?.path,
      ).toBe("cacheEntities.DID_DOCUMENT.cacheType");
      expect(
        issuesOf({
          cacheEntities: { DID_DOCUMENT: { cacheType: "DB", cacheSize: 1, refreshAfter: 10, cacheRefreshTimeout: 5 } },
        }),
      ).toEqual([{ path: "cacheEntities.DID_DOCUMENT.refreshAfter", message: "must not exceed cacheRefreshTimeout" }]);
      expect(issuesOf({ cacheEntities: { SOMETHING: {} } })[0]?.path).toBe("cacheEntities.SOMETHING");
    });
  });

  it("checks that webhookTask names a WEBHOOK_NOTIFY task", () => {
    const protocol = (webhookTask: string) => ({
      issuanceProtocol: {
        OPENID4VCI_FINAL1: { type: "OPENID4VCI_FINAL1", display: "x", params: { public: { webhookTask } } },
      },
      task: { SUSPEND_CHECK: { type: "SUSPEND_CHECK", display: "x" } },
    });
    expect(issuesOf(protocol("MISSING"))).toEqual([
      {
        path: "issuanceProtocol.OPENID4VCI_FINAL1.params.public.webhookTask",
        message: 'task "MISSING" is not configured',
      },
    ]);
    expect(issuesOf(protocol("SUSPEND_CHECK"))[0]?.message).toContain("expected WEBHOOK_NOTIFY");
  });
});
