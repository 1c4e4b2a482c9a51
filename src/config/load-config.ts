import { randomBytes } from "node:crypto";
import { ConfigError, type ConfigIssue, configErrorMap, formatConfigPath, toConfigIssues } from "./config-error.js";
import { DEFAULT_CONFIG } from "./defaults.js";
import { type EnvOverride, envOverrideLayer, readEnvOverrides } from "./env-overrides.js";
import { type DeepPartial, isPlainObject, mergeConfigLayers } from "./merge-config.js";
import { readConfigFile } from "./read-config-file.js";
import { type CredkitConfig, type CredkitConfigInput, credkitConfigSchema } from "./schema.js";

/** A programmatic configuration layer: any subset of the input shape; `null` removes a key. */
export type ConfigOverrides = DeepPartial<CredkitConfigInput>;

export interface ParseConfigOptions {
  /**
   * Development only: fill a missing `keyStorage.<X>.params.private.encryption` of an enabled INTERNAL key storage
   * with a random key instead of failing, and list its path in `config.generatedSecrets` (keys stored with it cannot
   * be decrypted after a restart).
   */
  allowGeneratedSecrets?: boolean;
}

export interface LoadConfigOptions extends ParseConfigOptions {
  /** YAML (`.yml`, `.yaml`) or JSON (`.json`) files, merged in order over the shipped defaults (later wins). */
  files?: readonly string[];
  /** Merged after the files (used by `createCredkit`). */
  overrides?: ConfigOverrides;
  /** Source of `CREDKIT_…` overrides, applied last. Defaults to `process.env`; pass `{}` to ignore the environment. */
  env?: Record<string, string | undefined>;
}

/**
 * Builds the configuration: shipped defaults ← each file in order ← `overrides` ← `CREDKIT_` environment variables,
 * then validates it. Objects merge deeply, arrays replace, `null` removes a key.
 * @throws ConfigError naming every invalid path, or the file that could not be read.
 */
export function loadConfig(options: LoadConfigOptions = {}): CredkitConfig {
  const fileLayers = (options.files ?? []).map((file) => readConfigFile(file));
  const env = readEnvOverrides(options.env ?? process.env);
  if (env.issues.length > 0) throw new ConfigError(env.issues);

  const build = (rawStrings: ReadonlySet<EnvOverride>) =>
    mergeConfigLayers([
      DEFAULT_CONFIG,
      ...fileLayers,
      options.overrides,
      ...env.overrides.map((o) => envOverrideLayer(o.path, rawStrings.has(o) ? o.raw : o.value)),
    ]);

  const first = validateConfig(build(new Set()), options);
  if (first.success) return first.config;

  // A variable whose JSON reading was rejected (`staticToken=123456` read as a number) is retried as the raw string;
  // where the raw string is rejected too, the JSON reading (and its error) stands.
  const failedAt = (issues: readonly ConfigIssue[], o: EnvOverride) =>
    issues.some((issue) => issue.path === formatConfigPath(o.path));
  const retry = new Set(env.overrides.filter((o) => typeof o.value !== "string" && failedAt(first.issues, o)));
  let result: Validation = first;
  if (retry.size > 0) {
    const second = validateConfig(build(retry), options);
    const helped = second.success ? retry : new Set([...retry].filter((o) => !failedAt(second.issues, o)));
    result = helped.size === retry.size ? second : helped.size > 0 ? validateConfig(build(helped), options) : first;
  }
  if (result.success) return result.config;
  throw new ConfigError(result.issues.map((issue) => attributeToEnv(issue, env.overrides)));
}

/**
 * Validates a complete configuration as given (the shipped defaults are not merged in; use `loadConfig` for that) and
 * applies the schema defaults. Also requires the INTERNAL key storage encryption key (see `ParseConfigOptions`).
 * @throws ConfigError naming every invalid path.
 */
export function parseConfig(input: unknown, options: ParseConfigOptions = {}): CredkitConfig {
  const result = validateConfig(input ?? {}, options);
  if (!result.success) throw new ConfigError(result.issues);
  return result.config;
}

type Validation = { success: true; config: CredkitConfig } | { success: false; issues: ConfigIssue[] };

function validateConfig(input: unknown, options: ParseConfigOptions): Validation {
  if (!isPlainObject(input)) return { success: false, issues: [{ path: "", message: "must be an object" }] };
  const prepared = mergeConfigLayers([input]);
  const secrets = requireSecrets(prepared, options.allowGeneratedSecrets === true);

  const parsed = credkitConfigSchema.safeParse(prepared, { error: configErrorMap });
  const issues = [...(parsed.success ? [] : toConfigIssues(parsed.error.issues)), ...secrets.issues];
  if (parsed.success) issues.push(...checkReferences(parsed.data));
  if (issues.length > 0 || !parsed.success) return { success: false, issues };

  const config = parsed.data;
  config.generatedSecrets = [...new Set([...config.generatedSecrets, ...secrets.generated])];
  return { success: true, config };
}

/**
 * An enabled INTERNAL key storage needs its 32-byte encryption key. Missing (or empty) → an issue saying how to set
 * it, or, when allowed, a random key (mutates `input`, which is a private copy).
 */
function requireSecrets(input: Record<string, unknown>, allowGenerated: boolean) {
  const issues: ConfigIssue[] = [];
  const generated: string[] = [];
  const keyStorage = input.keyStorage;
  if (!isPlainObject(keyStorage)) return { issues, generated };

  for (const [name, entry] of Object.entries(keyStorage)) {
    if (!isPlainObject(entry) || entry.type !== "INTERNAL" || entry.enabled === false) continue;
    const params = isPlainObject(entry.params) ? entry.params : undefined;
    if (params !== undefined && params.private !== undefined && !isPlainObject(params.private)) continue; // schema error
    const privateParams = isPlainObject(params?.private) ? params.private : undefined;
    const encryption = privateParams?.encryption;
    if (encryption !== undefined && encryption !== "") continue;

    const path = `keyStorage.${name}.params.private.encryption`;
    if (allowGenerated) {
      const nextParams = params ?? {};
      nextParams.private = { ...(privateParams ?? {}), encryption: randomBytes(32).toString("hex") };
      entry.params = nextParams;
      generated.push(path);
    } else {
      issues.push({
        path,
        message:
          "required: the 32-byte key (64 hex characters) that encrypts stored private keys. Generate one with " +
          "`openssl rand -hex 32` and set it in a configuration file or as " +
          `CREDKIT_keyStorage__${name}__params__private__encryption; keep it secret and stable (keys stored with ` +
          "another value cannot be decrypted). For a throwaway development setup pass allowGeneratedSecrets: true.",
      });
    }
  }
  return { issues, generated };
}

/** Cross-block references: a protocol's `webhookTask` must name a configured WEBHOOK_NOTIFY task. */
function checkReferences(config: CredkitConfig): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  for (const block of ["issuanceProtocol", "verificationProtocol"] as const) {
    for (const [name, entry] of Object.entries(config[block])) {
      const webhookTask = entry.params.public.webhookTask;
      if (!entry.enabled || webhookTask === undefined) continue;
      const path = `${block}.${name}.params.public.webhookTask`;
      if (typeof webhookTask !== "string") {
        issues.push({ path, message: "must be the name of a task instance" });
        continue;
      }
      const task = config.task[webhookTask];
      if (task === undefined) issues.push({ path, message: `task "${webhookTask}" is not configured` });
      else if (task.type !== "WEBHOOK_NOTIFY") {
        issues.push({ path, message: `task "${webhookTask}" has type ${task.type}, expected WEBHOOK_NOTIFY` });
      }
    }
  }
  return issues;
}

/**
 * Appends the variable an issue comes from (it set the path, a parent of it, or created the unknown key reported), so
 * a typo in the environment is found where it was made.
 */
function attributeToEnv(issue: ConfigIssue, overrides: readonly EnvOverride[]): ConfigIssue {
  const latestFirst = [...overrides].reverse();
  const covering = latestFirst.find((o) => {
    const path = formatConfigPath(o.path);
    return issue.path === path || issue.path.startsWith(`${path}.`);
  });
  const creating =
    issue.path === "" ? undefined : latestFirst.find((o) => formatConfigPath(o.path).startsWith(`${issue.path}.`));
  const source = covering ?? creating;
  return source === undefined ? issue : { ...issue, message: `${issue.message} (set by ${source.variable})` };
}
