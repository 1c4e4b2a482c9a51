import type { DidDocument } from "../../domain/did.js";
import { DID_KEY_ROLES, type DidKeyRole, type KeyAlgorithmType } from "../../domain/enums.js";
import { CredkitError } from "../../errors/index.js";
import type {
  DidCreateInput,
  DidCreateKey,
  DidCreateResult,
  DidMethod,
  DidMethodCapabilities,
} from "../../ports/did-method.js";
import type { HttpClient } from "../../ports/http-client.js";
import type { KeyAlgorithm } from "../../ports/key-algorithm.js";
import { createKeyAlgorithms } from "../key-algorithm/index.js";
import { buildDidDocument, type VerificationMethodInput } from "./build-did-document.js";
import { parseDidOfMethod } from "./parse-did.js";

/** Path under the deployment's base URL where credkit serves did:web documents (`…/<id>/did.json`). */
const DID_WEB_PATH = ["ssi", "did-web", "v1"];
const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_DOCUMENT_BYTES = 1_000_000;
/** A did:web host: DNS name or IPv4 literal, optionally with a port (did:web spec §3.1). */
const HOST_PATTERN = /^[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?(?::\d{1,5})?$/;
/** DID Core §3.1 idchar, one path segment of the method-specific id. */
const SEGMENT_PATTERN = /^(?:[A-Za-z0-9._-]|%[0-9A-Fa-f]{2})+$/;

/** Returns the document of a DID this deployment hosts itself, or undefined to fetch it over HTTP. */
export type DidDocumentLoader = (did: string) => Promise<DidDocument | undefined>;

export interface WebDidMethodOptions {
  /** public base URL of this deployment, e.g. https://issuer.example.com or https://example.com/credkit */
  baseUrl: string;
  /** outbound HTTP used for resolution */
  fetch: HttpClient;
  /** local documents (DIDs created here), consulted before any HTTP request */
  documentLoader?: DidDocumentLoader;
  /** configured key algorithms; default all of them */
  algorithms?: Map<KeyAlgorithmType, KeyAlgorithm>;
  /** resolve to http:// instead of https:// — for tests and local development only */
  resolveToInsecureHttp?: boolean;
  /** HTTP timeout of one resolution; default 10 s */
  timeoutMs?: number;
  /** largest did.json accepted; default 1 MB */
  maxDocumentBytes?: number;
}

export interface WebDidMethod extends DidMethod {
  /** the document served at the DID's URL, with the same `#key-<n>` fragments create() returned */
  buildDocument(did: string, keys: Partial<Record<DidKeyRole, DidCreateKey[]>>): DidDocument;
}

/**
 * did:web (W3C CCG did:web Method Specification): the DID names an HTTPS URL that serves the DID document. credkit
 * hosts its own at `<baseUrl>/ssi/did-web/v1/<id>/did.json`, i.e. `did:web:<host>[%3A<port>][:<base path>]:ssi:did-web:v1:<id>`,
 * with one JsonWebKey2020 verification method `#key-<n>` per distinct key, referenced from each of its roles.
 */
export function createWebDidMethod(options: WebDidMethodOptions): WebDidMethod {
  const algorithms = options.algorithms ?? createKeyAlgorithms();
  const prefix = didPrefixOf(options.baseUrl);
  const scheme = options.resolveToInsecureHttp ? "http" : "https";
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxDocumentBytes = options.maxDocumentBytes ?? DEFAULT_MAX_DOCUMENT_BYTES;
  const capabilities: DidMethodCapabilities = {
    operations: ["RESOLVE", "CREATE", "DEACTIVATE"],
    keyAlgorithms: [...algorithms.keys()],
    methodNames: ["web"],
  };

  function algorithmOf(keyType: KeyAlgorithmType): KeyAlgorithm {
    const algorithm = algorithms.get(keyType);
    if (algorithm === undefined) throw new CredkitError("BR_0065", `did:web does not support ${keyType} keys`);
    return algorithm;
  }

  function validateKeys(input: DidCreateInput): void {
    const keys = distinctKeys(input.keys);
    if (keys.length === 0) throw new CredkitError("BR_0030", "did:web needs at least one key");
    for (const { key } of keys) algorithmOf(key.keyType);
  }

  async function fetchDocument(did: string, url: string): Promise<unknown> {
    let response: Response;
    try {
      response = await options.fetch(url, {
        headers: { accept: "application/did+json, application/json" },
        redirect: "error",
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new CredkitError("BR_0363", `${did}: GET ${url} failed`, { cause: error });
    }
    if (!response.ok) throw new CredkitError("BR_0363", `${did}: GET ${url} answered ${response.status}`);
    const declaredLength = Number(response.headers.get("content-length") ?? 0);
    if (declaredLength > maxDocumentBytes) throw new CredkitError("BR_0363", `${did}: DID document too large`);
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      throw new CredkitError("BR_0363", `${did}: reading ${url} failed`, { cause: error });
    }
    if (text.length > maxDocumentBytes) throw new CredkitError("BR_0363", `${did}: DID document too large`);
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new CredkitError("BR_0363", `${did}: ${url} is not JSON`, { cause: error });
    }
  }

  return {
    capabilities,
    validateKeys,

    async create(input: DidCreateInput): Promise<DidCreateResult> {
      validateKeys(input);
      if (typeof input.id !== "string" || !SEGMENT_PATTERN.test(encodeURIComponent(input.id))) {
        throw new CredkitError("BR_0084", "did:web id must be a non-empty string");
      }
      const did = `${prefix}:${encodeURIComponent(input.id)}`;
      const references: Record<string, string> = {};
      for (const { key, fragment } of distinctKeys(input.keys)) references[key.keyId] = fragment;
      return { did, references };
    },

    async resolve(did: string): Promise<DidDocument> {
      const { methodSpecificId } = parseDidOfMethod(did, "web");
      const local = await options.documentLoader?.(did);
      if (local !== undefined) return local;
      const document = validateDocument(did, await fetchDocument(did, documentUrlOf(did, methodSpecificId, scheme)));
      return document;
    },

    buildDocument(did, keys) {
      const methods: VerificationMethodInput[] = distinctKeys(keys).map(({ key, fragment, roles }) => ({
        fragment,
        publicKeyJwk: algorithmOf(key.keyType).publicKeyToJwk(key.publicKey),
        roles,
      }));
      return buildDidDocument(did, methods);
    },
  };
}

interface DistinctKey {
  key: DidCreateKey;
  fragment: string;
  roles: DidKeyRole[];
}

/** Distinct keys in role order (DID_KEY_ROLES), numbered `key-0`, `key-1`, … by first appearance. */
function distinctKeys(keys: Partial<Record<DidKeyRole, DidCreateKey[]>> | undefined): DistinctKey[] {
  const byId = new Map<string, DistinctKey>();
  for (const role of DID_KEY_ROLES) {
    for (const key of keys?.[role] ?? []) {
      let entry = byId.get(key.keyId);
      if (entry === undefined) {
        entry = { key, fragment: `key-${byId.size}`, roles: [] };
        byId.set(key.keyId, entry);
      }
      if (!entry.roles.includes(role)) entry.roles.push(role);
    }
  }
  return [...byId.values()];
}

/** did:web spec §3.1 Create: host (":" of a port percent-encoded as %3A) and path segments joined by ":". */
function didPrefixOf(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch (error) {
    throw new CredkitError("BR_0051", `did:web baseUrl is not a URL: ${baseUrl}`, { cause: error });
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new CredkitError("BR_0051", "did:web baseUrl must be an http(s) URL");
  }
  const host = url.port === "" ? url.hostname : `${url.hostname}%3A${url.port}`;
  const segments = url.pathname.split("/").filter((segment) => segment !== "");
  return ["did:web", host, ...segments, ...DID_WEB_PATH].join(":");
}

/**
 * did:web spec §3.2 Read: ":" → "/", a percent-encoded port colon decoded, then `/did.json` appended — or
 * `/.well-known/did.json` when the DID has no path.
 */
function documentUrlOf(did: string, methodSpecificId: string, scheme: string): string {
  const [encodedHost, ...path] = methodSpecificId.split(":");
  const host = decodeURIComponent(encodedHost!);
  if (!HOST_PATTERN.test(host)) throw new CredkitError("BR_0364", `${did}: invalid did:web host`);
  if (!path.every((segment) => SEGMENT_PATTERN.test(segment))) {
    throw new CredkitError("BR_0364", `${did}: invalid did:web path`);
  }
  return path.length === 0
    ? `${scheme}://${host}/.well-known/did.json`
    : `${scheme}://${host}/${path.join("/")}/did.json`;
}

/** DID Core §6.2: a JSON object whose `id` is the DID that was resolved (did:web spec §3.2 requires the match). */
function validateDocument(did: string, value: unknown): DidDocument {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new CredkitError("BR_0363", `${did}: DID document is not a JSON object`);
  }
  const document = value as Partial<DidDocument>;
  if (document.id !== did) throw new CredkitError("BR_0363", `${did}: DID document id does not match the DID`);
  const methods = document.verificationMethod ?? [];
  if (!Array.isArray(methods) || !methods.every((method) => typeof method?.id === "string")) {
    throw new CredkitError("BR_0363", `${did}: DID document verificationMethod is malformed`);
  }
  return { ...(document as DidDocument), verificationMethod: methods };
}
