import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config/index.js";

const KEY = "ab".repeat(32);
const KEY_ENV = { CREDKIT_keyStorage__INTERNAL__params__private__encryption: KEY };

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "credkit-config-"));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function writeFile(name: string, content: string): string {
  const file = join(dir, name);
  writeFileSync(file, content);
  return file;
}

function loadError(options: Parameters<typeof loadConfig>[0]): ConfigError {
  try {
    loadConfig(options);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error("expected loadConfig to fail");
}

describe("loadConfig", () => {
  it("loads the shipped defaults", () => {
    const config = loadConfig({ env: KEY_ENV });
    expect(config.app.databaseUrl).toBe("sqlite:./credkit.db");
    expect(Object.keys(config.format)).toEqual(["SD_JWT_VC", "MDOC"]);
    expect(config.keyStorage.INTERNAL?.params.private.encryption).toBe(KEY);
    expect(config.generatedSecrets).toEqual([]);
  });

  it("merges files in order over the defaults: objects deeply, arrays replaced, later wins", () => {
    const base = writeFile(
      "base.yml",
      [
        "app:",
        "  serverPort: 8080",
        "  traceLevel: debug",
        "  auth:",
        "    mode: STATIC",
        "    staticToken: from-yaml",
        "verificationProtocol:",
        "  OPENID4VP_FINAL1:",
        "    params:",
        "      public:",
        "        verifier:",
        "          supportedClientIdSchemes: [redirect_uri]",
        "keyStorage:",
        "  INTERNAL:",
        "    params:",
        "      private:",
        `        encryption: "${KEY}"`,
      ].join("\n"),
    );
    const local = writeFile(
      "local.json",
      JSON.stringify({
        app: { serverPort: 9090, auth: { staticToken: "from-json" } },
        format: { MDOC: { enabled: false } },
      }),
    );
    const last = writeFile("last.yaml", "app:\n  serverPort: 9191\n");

    const config = loadConfig({ files: [base, local, last], env: {} });
    expect(config.app.serverPort).toBe(9191);
    expect(config.app.traceLevel).toBe("debug");
    expect(config.app.coreBaseUrl).toBe("http://127.0.0.1:9191");
    expect(config.app.auth).toEqual({ mode: "UNSAFE_STATIC", staticToken: "from-json" });
    expect(config.format.MDOC?.enabled).toBe(false);
    expect(config.format.MDOC?.params.public.msoExpiresIn).toBe(259200);
    const verifier = config.verificationProtocol.OPENID4VP_FINAL1?.params.public.verifier;
    expect(verifier).toEqual({ interactionExpiresIn: 3600, supportedClientIdSchemes: ["redirect_uri"] });

    const reversed = loadConfig({ files: [last, local, base], env: {} });
    expect(reversed.app.serverPort).toBe(8080);
    expect(reversed.app.auth).toEqual({ mode: "UNSAFE_STATIC", staticToken: "from-yaml" });
  });

  it("removes a key set to null", () => {
    const file = writeFile("drop.yml", "verificationProtocol:\n  OPENID4VP_DRAFT20: null\n");
    const config = loadConfig({ files: [file], env: KEY_ENV });
    expect(Object.keys(config.verificationProtocol)).toEqual(["OPENID4VP_FINAL1"]);
  });

  it("treats an empty file as contributing nothing", () => {
    const config = loadConfig({ files: [writeFile("empty.yml", "")], env: KEY_ENV });
    expect(config.app.serverPort).toBe(3000);
  });

  it("names a file that does not exist", () => {
    const missing = join(dir, "nope.yml");
    const error = loadError({ files: [missing], env: KEY_ENV });
    expect(error.message).toContain(missing);
    expect(error.message).toContain("does not exist");
  });

  it("names a file that does not parse", () => {
    const yaml = writeFile("broken.yml", "app:\n  serverPort: [1, 2\n");
    expect(loadError({ files: [yaml], env: KEY_ENV }).message).toMatch(/broken\.yml[\s\S]*invalid YAML/);
    const json = writeFile("broken.json", '{"app": {');
    expect(loadError({ files: [json], env: KEY_ENV }).message).toMatch(/broken\.json[\s\S]*invalid JSON/);
    const list = writeFile("list.yml", "- a\n- b\n");
    expect(loadError({ files: [list], env: KEY_ENV }).message).toContain("mapping");
    const toml = writeFile("config.toml", "a = 1");
    expect(loadError({ files: [toml], env: KEY_ENV }).message).toContain("unsupported file extension");
    const duplicate = writeFile("duplicate.yml", "app:\n  serverPort: 1\n  serverPort: 2\n");
    expect(loadError({ files: [duplicate], env: KEY_ENV }).message).toContain("duplicate.yml");
  });

  it("applies overrides after the files", () => {
    const file = writeFile("port.yml", "app:\n  serverPort: 8080\n  serverIp: 0.0.0.0\n");
    const config = loadConfig({
      files: [file],
      env: KEY_ENV,
      overrides: { app: { serverPort: 4000, auth: { mode: "UNSAFE_STATIC", staticToken: "t" } } },
    });
    expect(config.app.serverPort).toBe(4000);
    expect(config.app.serverIp).toBe("0.0.0.0");
    expect(config.app.auth).toEqual({ mode: "UNSAFE_STATIC", staticToken: "t" });
  });

  it("accepts a loaded configuration as overrides", () => {
    const loaded = loadConfig({ env: KEY_ENV, overrides: { app: { serverPort: 4100 } } });
    expect(loadConfig({ env: {}, overrides: loaded })).toEqual(loaded);
  });

  describe("environment variables", () => {
    it("override files and overrides, values read as JSON", () => {
      const file = writeFile("env-base.yml", "app:\n  serverPort: 8080\n");
      const config = loadConfig({
        files: [file],
        overrides: { app: { serverPort: 4000 } },
        env: {
          ...KEY_ENV,
          CREDKIT_app__serverPort: "5000",
          CREDKIT_app__enableMetrics: "false",
          CREDKIT_app__traceLevel: "warn,credkit=debug",
          CREDKIT_app__coreBaseUrl: "https://credkit.example.com",
          CREDKIT_format__SD_JWT_VC__params__public: '{"leeway": 5, "extra": [1, 2]}',
          CREDKIT_format__MDOC__params__public__leeway: "10",
          CREDKIT_verificationProtocol__OPENID4VP_DRAFT20: "null",
          OTHER_VARIABLE: "ignored",
          credkit_app__serverPort: "1",
        },
      });
      expect(config.app.serverPort).toBe(5000);
      expect(config.app.enableMetrics).toBe(false);
      expect(config.app.traceLevel).toBe("warn,credkit=debug");
      expect(config.app.coreBaseUrl).toBe("https://credkit.example.com");
      expect(config.format.SD_JWT_VC?.params.public).toEqual({
        leeway: 5,
        extra: [1, 2],
        embedLayoutProperties: false,
      });
      expect(config.format.MDOC?.params.public.leeway).toBe(10);
      expect(config.verificationProtocol.OPENID4VP_DRAFT20).toBeUndefined();
    });

    it("set the auth mode and the key storage encryption key", () => {
      const config = loadConfig({
        env: {
          CREDKIT_app__auth__mode: "UNSAFE_STATIC",
          CREDKIT_app__auth__staticToken: "s3cret",
          CREDKIT_keyStorage__INTERNAL__params__private__encryption: KEY,
        },
      });
      expect(config.app.auth).toEqual({ mode: "UNSAFE_STATIC", staticToken: "s3cret" });
      expect(config.keyStorage.INTERNAL?.params.private.encryption).toBe(KEY);
    });

    it("apply a whole object before the keys inside it", () => {
      const config = loadConfig({
        env: {
          ...KEY_ENV,
          CREDKIT_app__auth__staticToken: "inner",
          CREDKIT_app__auth: '{"mode": "STATIC", "staticToken": "outer"}',
        },
      });
      expect(config.app.auth).toEqual({ mode: "UNSAFE_STATIC", staticToken: "inner" });
    });

    it("keep the raw string where a JSON reading is rejected", () => {
      const digits = "1234567890".repeat(6) + "1234";
      const config = loadConfig({
        env: {
          CREDKIT_app__auth__mode: "UNSAFE_STATIC",
          CREDKIT_app__auth__staticToken: "123456",
          CREDKIT_keyStorage__INTERNAL__params__private__encryption: digits,
        },
      });
      expect(config.app.auth).toEqual({ mode: "UNSAFE_STATIC", staticToken: "123456" });
      expect(config.keyStorage.INTERNAL?.params.private.encryption).toBe(digits);
    });

    it("report the JSON reading's error when the raw string does not fit either", () => {
      const error = loadError({ env: { ...KEY_ENV, CREDKIT_app__serverPort: "99999" } });
      expect(error.issues).toEqual([
        { path: "app.serverPort", message: expect.stringMatching(/65535.*\(set by CREDKIT_app__serverPort\)$/) },
      ]);
    });

    it("are case-sensitive after the prefix and named in errors", () => {
      const error = loadError({ env: { ...KEY_ENV, CREDKIT_APP__SERVERPORT: "1", CREDKIT_app__serverport: "2" } });
      const issues = [...error.issues].sort((a, b) => a.path.localeCompare(b.path));
      expect(issues).toEqual([
        { path: "APP", message: expect.stringContaining("unknown configuration block") },
        { path: "app.serverport", message: "unknown key (set by CREDKIT_app__serverport)" },
      ]);
      expect(issues[0]?.message).toContain("(set by CREDKIT_APP__SERVERPORT)");
    });

    it("reject an empty path segment", () => {
      expect(loadError({ env: { CREDKIT_app____serverPort: "1" } }).issues[0]?.path).toBe("CREDKIT_app____serverPort");
    });

    it("default to process.env", () => {
      const variable = "CREDKIT_app__serverPort";
      const before = process.env[variable];
      process.env[variable] = "6123";
      try {
        expect(loadConfig({ allowGeneratedSecrets: true }).app.serverPort).toBe(6123);
      } finally {
        if (before === undefined) delete process.env[variable];
        else process.env[variable] = before;
      }
    });
  });

  describe("the INTERNAL key storage encryption key", () => {
    it("is required, with instructions", () => {
      const error = loadError({ env: {} });
      expect(error.issues).toHaveLength(1);
      expect(error.issues[0]?.path).toBe("keyStorage.INTERNAL.params.private.encryption");
      expect(error.message).toContain("CREDKIT_keyStorage__INTERNAL__params__private__encryption");
      expect(error.message).toContain("openssl rand -hex 32");
      expect(error.message).toContain("allowGeneratedSecrets");
    });

    it("is also required when set to an empty string", () => {
      const error = loadError({ env: { CREDKIT_keyStorage__INTERNAL__params__private__encryption: "" } });
      expect(error.issues[0]?.path).toBe("keyStorage.INTERNAL.params.private.encryption");
    });

    it("is reported together with the other errors", () => {
      const error = loadError({ env: { CREDKIT_app__serverPort: "-1" } });
      expect(error.issues.map((issue) => issue.path).sort()).toEqual([
        "app.serverPort",
        "keyStorage.INTERNAL.params.private.encryption",
      ]);
    });

    it("is not required when the storage is disabled", () => {
      const config = loadConfig({ env: { CREDKIT_keyStorage__INTERNAL__enabled: "false" } });
      expect(config.keyStorage.INTERNAL?.enabled).toBe(false);
    });

    it("is generated and reported when allowGeneratedSecrets is set", () => {
      const first = loadConfig({ env: {}, allowGeneratedSecrets: true });
      const second = loadConfig({ env: {}, allowGeneratedSecrets: true });
      const key = first.keyStorage.INTERNAL?.params.private.encryption;
      expect(key).toMatch(/^[0-9a-f]{64}$/);
      expect(second.keyStorage.INTERNAL?.params.private.encryption).not.toBe(key);
      expect(first.generatedSecrets).toEqual(["keyStorage.INTERNAL.params.private.encryption"]);
    });

    it("is not generated when one is configured", () => {
      const config = loadConfig({ env: KEY_ENV, allowGeneratedSecrets: true });
      expect(config.keyStorage.INTERNAL?.params.private.encryption).toBe(KEY);
      expect(config.generatedSecrets).toEqual([]);
    });
  });
});
