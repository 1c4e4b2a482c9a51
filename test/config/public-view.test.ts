import { describe, expect, it } from "vitest";
import { loadConfig, PROVIDER_BLOCKS, toPublicConfig } from "../../src/config/index.js";

const SECRETS = {
  encryption: "5e".repeat(32),
  staticToken: "static-token-SECRET-1",
  webhook: "webhook-password-SECRET-2",
  formatPrivate: "format-private-SECRET-3",
  database: "postgres://credkit:db-password-SECRET-4@db/credkit",
};

function loadWithSecrets() {
  return loadConfig({
    env: {},
    overrides: {
      app: { databaseUrl: SECRETS.database, auth: { mode: "UNSAFE_STATIC", staticToken: SECRETS.staticToken } },
      keyStorage: { INTERNAL: { params: { private: { encryption: SECRETS.encryption } } } },
      task: { WEBHOOK_NOTIFY: { params: { private: { basicAuth: { password: SECRETS.webhook } } } } },
      format: { SD_JWT_VC: { params: { private: { signingSecret: SECRETS.formatPrivate } } } },
    },
  });
}

describe("toPublicConfig", () => {
  it("lists every provider block with the public view of each entry", () => {
    const view = toPublicConfig(loadWithSecrets());
    for (const block of PROVIDER_BLOCKS) expect(view).toHaveProperty(block);
    expect(view).not.toHaveProperty("app");
    expect(view).not.toHaveProperty("generatedSecrets");
    expect(view.frontend).toEqual({});
    expect(view.cacheEntities.DID_DOCUMENT?.cacheType).toBe("DB");
    expect(view.format.SD_JWT_VC).toEqual({
      type: "SD_JWT_VC",
      display: "SD-JWT VC",
      order: 0,
      enabled: true,
      params: { leeway: 60, embedLayoutProperties: false },
    });
    expect(view.keyAlgorithm.EDDSA).toMatchObject({ type: "EDDSA", enabled: true, params: {} });
    expect(view.task.WEBHOOK_NOTIFY?.params).toEqual({});
    expect(view.keyStorage.INTERNAL?.params).toEqual({});
  });

  it("never exposes a private value", () => {
    const config = loadWithSecrets();
    const json = JSON.stringify(toPublicConfig(config, () => ({ anything: true })));
    for (const secret of Object.values(SECRETS)) expect(json).not.toContain(secret);
    expect(json).not.toContain("requestTimeoutSeconds");
    expect(json).not.toContain("encryption");
    // The secrets are in the configuration, so the test would notice if they leaked.
    const full = JSON.stringify(config);
    for (const secret of Object.values(SECRETS)) expect(full).toContain(secret);
  });

  it("merges provider capabilities", () => {
    const calls: string[] = [];
    const view = toPublicConfig(loadWithSecrets(), (block, name) => {
      calls.push(`${block}.${name}`);
      return block === "revocation" ? { operations: ["REVOKE", "SUSPEND"] } : undefined;
    });
    expect(view.revocation.TOKENSTATUSLIST?.capabilities).toEqual({ operations: ["REVOKE", "SUSPEND"] });
    expect(view.format.SD_JWT_VC).not.toHaveProperty("capabilities");
    expect(calls).toContain("keyAlgorithm.ML_DSA");
    expect(calls).toContain("identifier.CERTIFICATE");
  });

  it("does not share objects with the configuration", () => {
    const config = loadWithSecrets();
    const view = toPublicConfig(config);
    (view.format.SD_JWT_VC?.params as Record<string, unknown>).leeway = 1;
    expect(config.format.SD_JWT_VC?.params.public.leeway).toBe(60);
  });
});
