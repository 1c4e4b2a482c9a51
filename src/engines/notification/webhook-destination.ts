import { isIP } from "node:net";
import type { CredkitConfig } from "../../config/schema.js";
import { CredkitError } from "../../errors/credkit-error.js";
import { type DestinationPolicy, destinationPolicy, type ProtocolBlock, webhookTaskOf } from "./webhook-settings.js";

const SECURE = new Set(["https:", "mqtts:"]);
const INSECURE = new Set(["http:", "mqtt:"]);

/** Canonical host: lower case, no trailing dot, IPv4 normalised and IPv6 bracketed as WHATWG URLs write them. */
function canonicalHost(host: string): string | undefined {
  const trimmed = host.trim().toLowerCase().replace(/\.$/, "");
  const bare = trimmed.replace(/^\[(.*)\]$/, "$1");
  try {
    return new URL(`http://${isIP(bare) === 6 ? `[${bare}]` : trimmed}`).hostname;
  } catch {
    return undefined;
  }
}

/** Whether `host` (a URL hostname) matches an allowedHosts entry: exact domain, `*.domain` (any subdomain) or IP. */
export function hostMatches(host: string, entry: string): boolean {
  const candidate = canonicalHost(host);
  if (candidate === undefined) return false;
  if (entry.trim().startsWith("*.")) {
    const base = canonicalHost(entry.trim().slice(2));
    const ip = isIP(candidate.replace(/^\[(.*)\]$/, "$1")) !== 0;
    return base !== undefined && !ip && candidate.endsWith(`.${base}`);
  }
  return canonicalHost(entry) === candidate;
}

/**
 * Checks a webhook destination against a policy (platform spec §6.3): http(s) or mqtt(s) only; plain http and mqtt
 * only with allowInsecureHttpTransport; an MQTT URL names its topic; the host is in allowedHosts when that is set.
 * Answers the parsed URL; throws BR_0371 (not a URL), BR_0370 (scheme) or BR_0369 (host).
 */
export function checkDestination(destination: string, policy: DestinationPolicy): URL {
  let url: URL;
  try {
    url = new URL(destination);
  } catch {
    throw new CredkitError("BR_0371", `webhookDestinationUrl ${JSON.stringify(destination)} is not an absolute URL`);
  }
  if (!SECURE.has(url.protocol) && !INSECURE.has(url.protocol)) {
    throw new CredkitError(
      "BR_0370",
      `webhookDestinationUrl scheme ${url.protocol.slice(0, -1)} is not allowed: use https, http, mqtts or mqtt`,
    );
  }
  if (INSECURE.has(url.protocol) && !policy.allowInsecureHttpTransport) {
    throw new CredkitError(
      "BR_0370",
      `webhookDestinationUrl over plain ${url.protocol.slice(0, -1)} is refused: use ${url.protocol === "http:" ? "https" : "mqtts"} or set allowInsecureHttpTransport`,
    );
  }
  if (url.hostname === "") throw new CredkitError("BR_0371", "webhookDestinationUrl has no host");
  if ((url.protocol === "mqtt:" || url.protocol === "mqtts:") && url.pathname.replace(/^\//, "") === "") {
    throw new CredkitError("BR_0371", "an MQTT webhookDestinationUrl names the topic: mqtt(s)://host[:port]/topic");
  }
  if (policy.allowedHosts !== undefined && !policy.allowedHosts.some((entry) => hostMatches(url.hostname, entry))) {
    throw new CredkitError("BR_0369", `webhookDestinationUrl host ${url.hostname} is not in allowedHosts`);
  }
  return url;
}

/**
 * Validates the `webhookDestinationUrl` of a credential or proof request at creation: the protocol must reference a
 * WEBHOOK_NOTIFY task (BR_0372 otherwise) and the URL must pass the task's destination rules (see checkDestination).
 */
export function validateWebhookDestination(
  config: CredkitConfig,
  block: ProtocolBlock,
  protocol: string,
  destination: string,
): void {
  const taskName = webhookTaskOf(config, block, protocol);
  if (taskName === undefined) {
    throw new CredkitError("BR_0372", `protocol ${protocol} has no webhookTask: webhookDestinationUrl cannot be used`);
  }
  checkDestination(destination, destinationPolicy(config, taskName, block, protocol));
}
