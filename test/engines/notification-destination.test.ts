/** Destination rules of webhook notifications (platform spec §6.3) and the WEBHOOK_NOTIFY task parameters. */
import { describe, expect, it } from "vitest";
import { type ConfigOverrides, loadConfig } from "../../src/config/load-config.js";
import {
  checkDestination,
  hostMatches,
  validateWebhookDestination,
} from "../../src/engines/notification/webhook-destination.js";
import { deliverySettings, destinationPolicy, retryDelayMs } from "../../src/engines/notification/webhook-settings.js";
import { CredkitError } from "../../src/errors/credkit-error.js";
import { TEST_ENCRYPTION_KEY } from "../../src/testing/create-test-kit.js";
import { webhookConfig } from "../support/notification-fixture.js";

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(CredkitError);
    return (error as CredkitError).code;
  }
}

function config(overrides: ConfigOverrides) {
  return loadConfig({
    files: [],
    env: {},
    overrides: {
      ...overrides,
      keyStorage: { INTERNAL: { params: { private: { encryption: TEST_ENCRYPTION_KEY } } } },
    },
  });
}

describe("allowedHosts matching", () => {
  it("matches exact domains case-insensitively, wildcard subdomains (not the apex) and IPs", () => {
    expect(hostMatches("hooks.example.com", "hooks.example.com")).toBe(true);
    expect(hostMatches("HOOKS.example.com", "hooks.EXAMPLE.com.")).toBe(true);
    expect(hostMatches("other.example.com", "hooks.example.com")).toBe(false);
    expect(hostMatches("a.example.com", "*.example.com")).toBe(true);
    expect(hostMatches("a.b.example.com", "*.example.com")).toBe(true);
    expect(hostMatches("example.com", "*.example.com")).toBe(false);
    expect(hostMatches("evilexample.com", "*.example.com")).toBe(false);
    expect(hostMatches("example.com.evil.net", "*.example.com")).toBe(false);
    expect(hostMatches("10.0.0.7", "10.0.0.7")).toBe(true);
    expect(hostMatches("10.0.0.8", "10.0.0.7")).toBe(false);
    expect(hostMatches("[::1]", "::1")).toBe(true);
    expect(hostMatches("[2001:db8::1]", "2001:DB8:0::1")).toBe(true);
    expect(hostMatches("127.0.0.1", "*.0.0.1")).toBe(false);
  });
});

describe("checkDestination", () => {
  const open = { allowInsecureHttpTransport: false };
  const insecure = { allowInsecureHttpTransport: true };

  it("accepts https and mqtts always, http and mqtt only with allowInsecureHttpTransport", () => {
    expect(checkDestination("https://hooks.example.com/a", open).href).toBe("https://hooks.example.com/a");
    expect(checkDestination("mqtts://broker.example.com:8883/credkit/events", open).protocol).toBe("mqtts:");
    expect(codeOf(() => checkDestination("http://hooks.example.com/a", open))).toBe("BR_0370");
    expect(codeOf(() => checkDestination("mqtt://broker.example.com/t", open))).toBe("BR_0370");
    expect(checkDestination("http://hooks.example.com/a", insecure).protocol).toBe("http:");
    expect(checkDestination("mqtt://broker.example.com/t", insecure).protocol).toBe("mqtt:");
  });

  it("refuses other schemes, non-URLs and MQTT URLs without topic", () => {
    for (const url of ["ftp://example.com/x", "file:///etc/passwd", "javascript:alert(1)", "ws://example.com/x"])
      expect(codeOf(() => checkDestination(url, insecure))).toBe("BR_0370");
    for (const url of ["not a url", "/relative/path", ""])
      expect(codeOf(() => checkDestination(url, insecure))).toBe("BR_0371");
    expect(codeOf(() => checkDestination("mqtts://broker.example.com", insecure))).toBe("BR_0371");
    expect(codeOf(() => checkDestination("mqtts://broker.example.com/", insecure))).toBe("BR_0371");
  });

  it("applies allowedHosts to HTTP hosts and MQTT brokers alike", () => {
    const policy = {
      allowInsecureHttpTransport: true,
      allowedHosts: ["hooks.example.com", "*.corp.example", "10.1.2.3"],
    };
    expect(checkDestination("https://hooks.example.com/x", policy)).toBeInstanceOf(URL);
    expect(checkDestination("https://a.corp.example/x", policy)).toBeInstanceOf(URL);
    expect(checkDestination("mqtt://10.1.2.3:1883/t", policy)).toBeInstanceOf(URL);
    expect(codeOf(() => checkDestination("https://evil.example.com/x", policy))).toBe("BR_0369");
    expect(codeOf(() => checkDestination("mqtts://broker.elsewhere.example/t", policy))).toBe("BR_0369");
    expect(codeOf(() => checkDestination("https://10.1.2.4/x", policy))).toBe("BR_0369");
    // credentials in the URL do not smuggle another host past the check
    expect(codeOf(() => checkDestination("https://hooks.example.com@evil.example.com/x", policy))).toBe("BR_0369");
  });
});

describe("destination policy from configuration", () => {
  it("reads the task's public params, falling back to the protocol's", () => {
    const fromTask = config(webhookConfig({ allowedHosts: ["a.example"], allowInsecureHttpTransport: false }));
    expect(destinationPolicy(fromTask, "WEBHOOK_NOTIFY", "issuanceProtocol", "OPENID4VCI_FINAL1")).toEqual({
      allowedHosts: ["a.example"],
      allowInsecureHttpTransport: false,
    });
    const fromProtocol = config({
      issuanceProtocol: {
        OPENID4VCI_FINAL1: { params: { public: { allowedHosts: ["b.example"], allowInsecureHttpTransport: true } } },
      },
    });
    expect(destinationPolicy(fromProtocol, "WEBHOOK_NOTIFY", "issuanceProtocol", "OPENID4VCI_FINAL1")).toEqual({
      allowedHosts: ["b.example"],
      allowInsecureHttpTransport: true,
    });
    const shipped = config({});
    expect(destinationPolicy(shipped, "WEBHOOK_NOTIFY", "verificationProtocol", "OPENID4VP_FINAL1")).toEqual({
      allowInsecureHttpTransport: false,
    });
  });

  it("refuses a destination when the protocol has no webhookTask (BR_0372)", () => {
    const none = config({ issuanceProtocol: { OPENID4VCI_FINAL1: { params: { public: { webhookTask: null } } } } });
    expect(
      codeOf(() => validateWebhookDestination(none, "issuanceProtocol", "OPENID4VCI_FINAL1", "https://x.example/")),
    ).toBe("BR_0372");
    const shipped = config({});
    expect(
      validateWebhookDestination(shipped, "issuanceProtocol", "OPENID4VCI_FINAL1", "https://x.example/"),
    ).toBeUndefined();
    expect(
      codeOf(() => validateWebhookDestination(shipped, "issuanceProtocol", "OPENID4VCI_FINAL1", "http://x.example/")),
    ).toBe("BR_0370");
  });
});

describe("WEBHOOK_NOTIFY delivery settings", () => {
  it("reads the current parameter names", () => {
    const shipped = config({});
    expect(deliverySettings(shipped, "WEBHOOK_NOTIFY")).toEqual({
      timeoutMs: 30_000,
      maxAttempts: 5,
      intervalMs: 1000,
      exponentialFactor: 2.5,
    });
  });

  it("reads the earlier names (requestTimeout, retries.interval)", () => {
    const legacy = config({
      task: {
        LEGACY_HOOKS: {
          type: "WEBHOOK_NOTIFY",
          display: "legacy",
          params: { private: { requestTimeout: 7, retries: { interval: 3, maxAttempts: 2 } } },
        },
      },
    });
    const settings = deliverySettings(legacy, "LEGACY_HOOKS");
    expect(settings).toEqual({ timeoutMs: 7000, maxAttempts: 2, intervalMs: 3000, exponentialFactor: 1 });
    expect([1, 2, 3].map((n) => retryDelayMs(settings, n))).toEqual([3000, 3000, 3000]);
  });

  it("without retries a notification gets one attempt; backoff grows by the factor", () => {
    const none = config(webhookConfig({ requestTimeoutSeconds: 5 }));
    expect(deliverySettings(none, "WEBHOOK_NOTIFY")).toMatchObject({ timeoutMs: 5000, maxAttempts: 1 });
    const settings = { timeoutMs: 1, maxAttempts: 5, intervalMs: 1000, exponentialFactor: 2.5 };
    expect([1, 2, 3].map((n) => retryDelayMs(settings, n))).toEqual([1000, 2500, 6250]);
  });

  it("refuses invalid params with BR_0405", () => {
    const bad = config({
      task: { BAD: { type: "WEBHOOK_NOTIFY", display: "bad", params: { private: { requestTimeoutSeconds: "soon" } } } },
    });
    expect(codeOf(() => deliverySettings(bad, "BAD"))).toBe("BR_0405");
  });
});
