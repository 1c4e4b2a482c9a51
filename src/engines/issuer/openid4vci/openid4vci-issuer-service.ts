import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { CredkitConfig } from "../../../config/schema.js";
import type { CredentialSchema } from "../../../domain/credential-schema.js";
import type { Interaction } from "../../../domain/interaction.js";
import { CredkitError } from "../../../errors/credkit-error.js";
import type { PublicJwk } from "../../../ports/key-algorithm.js";
import { getFormatter } from "../../../providers/registry.js";
import type { EngineDeps } from "../../common/engine-deps.js";
import { parseId } from "../../common/parse-id.js";
import { recordHistory } from "../../history/record-history.js";
import type { DidService } from "../../management/did-service.js";
import { datatypeResolver, toClaimObject } from "../credential-claims.js";
import { flattenClaimSchemas } from "../credential-schema-dto.js";
import type { IssuerInteractionData } from "../credential-service.js";
import { hashSecret, matchesSecretHash } from "../hash-secret.js";
import { resolveIssuerSigning } from "../issuer-signing.js";
import type { StatusListService } from "../status-list-service.js";
import { issuerUrls, keyIssuerUrl } from "./issuer-urls.js";
import { OAuthError } from "./oauth-error.js";
import { verifyKeyProof } from "./verify-key-proof.js";

export const PRE_AUTHORIZED_GRANT = "urn:ietf:params:oauth:grant-type:pre-authorized_code";
const SD_JWT_VC_FORMAT = "dc+sd-jwt";
const MAX_BATCH = 10;

/** Credential Request (OpenID4VCI 1.0 §8.2); extension members are allowed. */
const credentialRequestSchema = z
  .object({
    credential_configuration_id: z.string().optional(),
    credential_identifier: z.string().optional(),
    proofs: z
      .object({ jwt: z.array(z.string()).min(1).max(MAX_BATCH) })
      .passthrough()
      .optional(),
    proof: z
      .object({ proof_type: z.literal("jwt"), jwt: z.string() })
      .passthrough()
      .optional(),
  })
  .passthrough();

const notificationSchema = z
  .object({
    notification_id: z.string(),
    event: z.enum(["credential_accepted", "credential_failure", "credential_deleted"]),
    event_description: z.string().optional(),
  })
  .passthrough();

export interface ProtocolSettings {
  preAuthorizedCodeExpiresIn: number;
  tokenExpiresIn: number;
  txCodeMaxAttempts: number;
  nonceExpiresIn: number;
  leeway: number;
}

export interface Openid4vciIssuerService {
  offer(schemaId: string, credentialId: string): Promise<Record<string, unknown>>;
  issuerMetadata(protocolId: string, schemaId: string): Promise<Record<string, unknown>>;
  authorizationServerMetadata(protocolId: string, schemaId: string): Promise<Record<string, unknown>>;
  token(schemaId: string, form: URLSearchParams): Promise<Record<string, unknown>>;
  nonce(protocolId: string): Promise<{ c_nonce: string }>;
  credential(schemaId: string, accessToken: string | undefined, body: unknown): Promise<Record<string, unknown>>;
  notification(schemaId: string, accessToken: string | undefined, body: unknown): Promise<void>;
  jwtVcIssuerMetadata(protocolId: string, identifierId: string, schemaId: string): Promise<Record<string, unknown>>;
  vctMetadata(organisationId: string, vctType: string): Promise<Record<string, unknown>>;
  /** offers whose pre-authorized code expired → INTERACTION_EXPIRED (reference §8); returns how many */
  expireOffers(): Promise<number>;
}

export function createOpenid4vciIssuerService(
  deps: EngineDeps,
  config: CredkitConfig,
  dids: DidService,
  statusLists: StatusListService,
): Openid4vciIssuerService {
  const { storage, clock, providers } = deps;
  const datatype = datatypeResolver(config);

  function protocolSettings(protocolId: string): ProtocolSettings {
    const entry = config.issuanceProtocol[protocolId];
    if (!entry?.enabled || entry.type !== "OPENID4VCI_FINAL1") {
      throw new CredkitError("BR_0089", `issuance protocol ${protocolId} is not configured`);
    }
    const p = { ...entry.params.public, ...entry.params.private } as Record<string, unknown>;
    const n = (name: string, fallback: number) => (typeof p[name] === "number" ? (p[name] as number) : fallback);
    return {
      preAuthorizedCodeExpiresIn: n("preAuthorizedCodeExpiresIn", 300),
      tokenExpiresIn: n("tokenExpiresIn", 86400),
      txCodeMaxAttempts: n("txCodeMaxAttempts", 3),
      nonceExpiresIn: n("nonceExpiresIn", 300),
      leeway: n("leeway", 60),
    };
  }

  async function loadSchema(schemaId: string): Promise<CredentialSchema> {
    const schema = await storage.credentialSchemas.get(parseId(schemaId, "BR_0006"));
    if (!schema || schema.deletedAt) throw new CredkitError("BR_0006", `credential schema ${schemaId} not found`);
    return schema;
  }

  async function interactionByToken(
    accessToken: string | undefined,
  ): Promise<{ interaction: Interaction; data: IssuerInteractionData }> {
    if (!accessToken) throw new OAuthError("invalid_token", "access token missing", 401);
    const interaction = await storage.interactions.findOne({
      op: "eq",
      column: "accessTokenHash",
      value: hashSecret(accessToken),
    });
    if (!interaction?.accessTokenExpiresAt || interaction.accessTokenExpiresAt <= clock.now()) {
      throw new OAuthError("invalid_token", "access token unknown or expired", 401);
    }
    return { interaction, data: interaction.data as IssuerInteractionData };
  }

  function claimMetadata(schema: CredentialSchema) {
    return flattenClaimSchemas(schema.claims).map(({ path, claim }) => {
      const segments: (string | null)[] = [];
      let walk = schema.claims;
      for (const key of path.split("/")) {
        const node = walk.find((c) => c.key === key)!;
        segments.push(key);
        if (node.array) segments.push(null);
        walk = node.claims;
      }
      return { path: segments, mandatory: claim.required, display: [{ name: claim.key, locale: "en" }] };
    });
  }

  /**
   * Takes one of the bounded transaction-code attempts before the code is compared, so that concurrent guesses cannot
   * share an attempt (a compare-and-set on the counter, retried when another request got there first).
   */
  async function reserveTxCodeAttempt(interaction: Interaction, maxAttempts: number): Promise<void> {
    let current: Interaction | undefined = interaction;
    for (let tries = 0; current && tries < 100; tries++) {
      const attempts = current.txCodeAttempts ?? 0;
      if (attempts >= maxAttempts || (current.data as IssuerInteractionData).exhausted) {
        throw new OAuthError("invalid_grant", "too many wrong transaction codes; ask the issuer for a new offer");
      }
      const reserved = await storage.interactions.update(
        current.id,
        { txCodeAttempts: attempts + 1, lastModified: clock.now() },
        {
          where:
            current.txCodeAttempts === undefined || current.txCodeAttempts === null
              ? { op: "isNull", column: "txCodeAttempts" }
              : { op: "eq", column: "txCodeAttempts", value: attempts },
        },
      );
      if (reserved) return;
      current = await storage.interactions.get(current.id);
    }
    throw new OAuthError("invalid_grant", "pre-authorized code unknown or already used");
  }

  async function markExpired(credentialId: string) {
    const now = clock.now();
    await storage.credentials.update(
      credentialId,
      { state: "INTERACTION_EXPIRED", lastModified: now },
      { where: { op: "eq", column: "state", value: "PENDING" } },
    );
  }

  return {
    async offer(schemaId, credentialId) {
      const schema = await loadSchema(schemaId);
      const credential = await storage.credentials.get(parseId(credentialId, "BR_0001"));
      if (
        !credential ||
        credential.deletedAt ||
        credential.credentialSchemaId !== schema.id ||
        !credential.interactionId
      ) {
        throw new CredkitError("BR_0001", `credential offer ${credentialId} not found`);
      }
      if (credential.state !== "PENDING")
        throw new CredkitError("BR_0001", `credential ${credentialId} is not offered (state ${credential.state})`);
      const interaction = await storage.interactions.get(credential.interactionId);
      if (!interaction) throw new CredkitError("BR_0001", `credential offer ${credentialId} not found`);
      if (interaction.expiresAt && interaction.expiresAt <= clock.now()) {
        await markExpired(credential.id);
        throw new CredkitError("BR_0001", `credential offer ${credentialId} expired`);
      }
      const urls = issuerUrls(deps.baseUrl, credential.protocol, schema.id);
      const data = interaction.data as IssuerInteractionData;
      const txCode =
        data.txCodeHash && schema.transactionCode
          ? {
              input_mode: schema.transactionCode.type === "NUMERIC" ? "numeric" : "text",
              length: schema.transactionCode.length,
              ...(schema.transactionCode.description !== undefined && {
                description: schema.transactionCode.description,
              }),
            }
          : undefined;
      return {
        credential_issuer: urls.credentialIssuer,
        credential_configuration_ids: [schema.schemaId],
        grants: {
          [PRE_AUTHORIZED_GRANT]: { "pre-authorized_code": interaction.id, ...(txCode && { tx_code: txCode }) },
        },
      };
    },

    async issuerMetadata(protocolId, schemaId) {
      protocolSettings(protocolId);
      const schema = await loadSchema(schemaId);
      const urls = issuerUrls(deps.baseUrl, protocolId, schema.id);
      const algorithms = getFormatter(providers, schema.format).capabilities.signingAlgorithms;
      const organisation = await storage.organisations.get(schema.organisationId);
      return {
        credential_issuer: urls.credentialIssuer,
        credential_endpoint: urls.credential,
        nonce_endpoint: urls.nonce,
        notification_endpoint: urls.notification,
        batch_credential_issuance: { batch_size: MAX_BATCH },
        ...(organisation && { display: [{ name: organisation.name, locale: "en" }] }),
        credential_configurations_supported: {
          [schema.schemaId]: {
            format: SD_JWT_VC_FORMAT,
            vct: schema.schemaId,
            scope: schema.id,
            cryptographic_binding_methods_supported: ["jwk", "did:key", "did:jwk", "did:web"],
            credential_signing_alg_values_supported: algorithms,
            proof_types_supported: { jwt: { proof_signing_alg_values_supported: algorithms } },
            credential_metadata: {
              display: [
                {
                  name: schema.name,
                  locale: "en",
                  ...(schema.layoutProperties?.background?.color && {
                    background_color: schema.layoutProperties.background.color,
                  }),
                  ...(schema.layoutProperties?.logo?.fontColor && {
                    text_color: schema.layoutProperties.logo.fontColor,
                  }),
                },
              ],
              claims: claimMetadata(schema),
            },
          },
        },
      };
    },

    async authorizationServerMetadata(protocolId, schemaId) {
      protocolSettings(protocolId);
      const schema = await loadSchema(schemaId);
      const urls = issuerUrls(deps.baseUrl, protocolId, schema.id);
      return {
        issuer: urls.credentialIssuer,
        token_endpoint: urls.token,
        grant_types_supported: [PRE_AUTHORIZED_GRANT],
        "pre-authorized_grant_anonymous_access_supported": true,
        token_endpoint_auth_methods_supported: ["none"],
        response_types_supported: [],
      };
    },

    async token(schemaId, form) {
      const schema = await loadSchema(schemaId);
      const grantType = form.get("grant_type");
      // RFC 6749 §5.2: a missing required parameter is invalid_request, an unknown grant unsupported_grant_type
      if (!grantType) throw new OAuthError("invalid_request", "grant_type is required");
      if (grantType !== PRE_AUTHORIZED_GRANT) {
        throw new OAuthError("unsupported_grant_type", `grant_type ${grantType} is not supported`);
      }
      const code = form.get("pre-authorized_code");
      if (!code) throw new OAuthError("invalid_request", "pre-authorized_code is required");
      const interaction = /^[0-9a-f-]{36}$/i.test(code) ? await storage.interactions.get(code) : undefined;
      const data = interaction?.data as IssuerInteractionData | undefined;
      if (!interaction || !data?.credentialId || interaction.accessTokenHash) {
        throw new OAuthError("invalid_grant", "pre-authorized code unknown or already used");
      }
      const credential = await storage.credentials.get(data.credentialId);
      if (!credential || credential.credentialSchemaId !== schema.id || credential.state !== "PENDING") {
        throw new OAuthError("invalid_grant", "pre-authorized code unknown or already used");
      }
      const settings = protocolSettings(credential.protocol);
      const now = clock.now();
      if (interaction.expiresAt && interaction.expiresAt <= now) {
        await markExpired(credential.id);
        throw new OAuthError("invalid_grant", "pre-authorized code expired");
      }
      const txCode = form.get("tx_code");
      if (data.txCodeHash) {
        // OpenID4VCI 1.0 §6.3: a missing tx_code is invalid_request, a wrong one invalid_grant
        if (!txCode) throw new OAuthError("invalid_request", "tx_code is required for this offer");
        await reserveTxCodeAttempt(interaction, settings.txCodeMaxAttempts);
        if (!matchesSecretHash(txCode, data.txCodeHash)) {
          throw new OAuthError("invalid_grant", "transaction code is wrong");
        }
      } else if (txCode !== null) {
        throw new OAuthError("invalid_request", "this offer has no transaction code");
      }
      const accessToken = randomBytes(32).toString("base64url");
      const expiresAt = new Date(now.getTime() + settings.tokenExpiresIn * 1000);
      await storage.transaction(async (tx) => {
        // single use under concurrency: exactly one redemption moves PENDING → OFFERED
        const redeemed = await tx.credentials.update(
          credential.id,
          { state: "OFFERED", lastModified: now },
          {
            where: {
              op: "and",
              conditions: [
                { op: "eq", column: "state", value: "PENDING" },
                { op: "eq", column: "interactionId", value: interaction.id },
              ],
            },
          },
        );
        if (!redeemed) throw new OAuthError("invalid_grant", "pre-authorized code unknown or already used");
        await tx.interactions.update(interaction.id, {
          accessTokenHash: hashSecret(accessToken),
          accessTokenExpiresAt: expiresAt,
          lastModified: now,
        });
        await recordHistory(
          deps,
          tx,
          {},
          {
            action: "OFFERED",
            entityType: "CREDENTIAL",
            entityId: credential.id,
            name: schema.name,
            organisationId: credential.organisationId,
          },
        );
      });
      return { access_token: accessToken, token_type: "Bearer", expires_in: settings.tokenExpiresIn };
    },

    async nonce(protocolId) {
      const settings = protocolSettings(protocolId);
      const now = clock.now();
      const nonce = randomBytes(24).toString("base64url");
      await storage.nonces.insert({
        id: nonce,
        protocol: protocolId,
        expiresAt: new Date(now.getTime() + settings.nonceExpiresIn * 1000),
        createdDate: now,
        lastModified: now,
      });
      return { c_nonce: nonce };
    },

    async credential(schemaId, accessToken, body) {
      const { interaction, data } = await interactionByToken(accessToken);
      const parsed = credentialRequestSchema.safeParse(body);
      if (!parsed.success) throw new OAuthError("invalid_credential_request", "credential request is malformed");
      const request = parsed.data;
      const credential = await storage.credentials.get(data.credentialId);
      if (!credential || credential.credentialSchemaId !== schemaId)
        throw new OAuthError("invalid_token", "access token does not belong to this issuer", 401);
      const schema = await loadSchema(credential.credentialSchemaId);
      if (request.credential_identifier !== undefined) {
        throw new OAuthError("unknown_credential_identifier", "credential identifiers are not issued by this issuer");
      }
      if (request.credential_configuration_id !== schema.schemaId) {
        throw new OAuthError(
          "unknown_credential_configuration",
          `credential_configuration_id must be ${schema.schemaId}`,
        );
      }
      if (credential.state !== "OFFERED")
        throw new OAuthError("credential_request_denied", `credential already ${credential.state.toLowerCase()}`);
      const jwts = request.proofs?.jwt ?? (request.proof ? [request.proof.jwt] : []);
      if (jwts.length === 0) throw new OAuthError("invalid_proof", "a jwt key proof is required (holder binding)");
      const settings = protocolSettings(credential.protocol);
      const urls = issuerUrls(deps.baseUrl, credential.protocol, schema.id);
      const now = clock.now();
      const proofs: Awaited<ReturnType<typeof verifyKeyProof>>[] = [];
      for (const jwt of jwts) {
        proofs.push(
          await verifyKeyProof(jwt, {
            audience: urls.credentialIssuer,
            now,
            leeway: settings.leeway,
            maxAge: settings.nonceExpiresIn,
            verifier: providers.jwsVerifier,
            resolveDid: (did) => dids.resolve(did),
          }),
        );
      }
      for (const nonce of new Set(proofs.map((p) => p.nonce))) {
        if (nonce === undefined)
          throw new OAuthError("invalid_nonce", "key proof has no nonce; get one from the nonce endpoint");
        const consumed = await storage.nonces.update(
          nonce,
          { usedAt: now, lastModified: now },
          {
            where: {
              op: "and",
              conditions: [
                { op: "isNull", column: "usedAt" },
                { op: "gt", column: "expiresAt", value: now },
                { op: "eq", column: "protocol", value: credential.protocol },
              ],
            },
          },
        );
        if (!consumed) throw new OAuthError("invalid_nonce", "c_nonce unknown, expired or already used");
      }
      const issuerIdentifier = credential.issuerIdentifierId
        ? await storage.identifiers.get(credential.issuerIdentifierId)
        : undefined;
      if (!issuerIdentifier)
        throw new OAuthError("credential_request_denied", "the issuer identifier no longer exists", 400);
      const formatter = getFormatter(providers, schema.format);
      const claims = toClaimObject(schema.claims, credential.claims, datatype);
      const credentials = await storage.transaction(async (tx) => {
        const signing = await resolveIssuerSigning(deps, tx, issuerIdentifier, {
          ...(credential.issuerKeyId !== undefined && { keyId: credential.issuerKeyId }),
          keyIssuerUrl: keyIssuerUrl(deps.baseUrl, credential.protocol, issuerIdentifier.id, schema.id),
        });
        const entry = schema.revocationMethod
          ? await statusLists.allocate(tx, credential, schema.revocationMethod)
          : undefined;
        const issued = await tx.credentials.update(
          credential.id,
          {
            state: "ACCEPTED",
            issuanceDate: now,
            ...(entry && { statusListId: entry.listId, statusListIndex: entry.index }),
            lastModified: now,
          },
          { where: { op: "eq", column: "state", value: "OFFERED" } },
        );
        if (!issued) throw new OAuthError("credential_request_denied", "credential already issued");
        await recordHistory(
          deps,
          tx,
          {},
          {
            action: "ISSUED",
            entityType: "CREDENTIAL",
            entityId: credential.id,
            name: schema.name,
            organisationId: credential.organisationId,
          },
        );
        const expiresIn = Number(config.format[schema.format]?.params.public.expiresIn ?? 365 * 86400);
        return Promise.all(
          proofs.map((proof) =>
            formatter.formatCredential({
              issuer: signing.issuer,
              type: schema.schemaId,
              claims,
              holderJwk: proof.holderJwk as PublicJwk,
              issuedAt: now,
              expiresAt: new Date(now.getTime() + expiresIn * 1000),
              ...(entry && { status: { idx: entry.index, uri: statusLists.listUri(entry.listId) } }),
              signer: signing.signer,
            }),
          ),
        );
      });
      return { credentials: credentials.map((c) => ({ credential: c })), notification_id: interaction.id };
    },

    async notification(schemaId, accessToken, body) {
      const { interaction, data } = await interactionByToken(accessToken);
      const parsed = notificationSchema.safeParse(body);
      if (!parsed.success) throw new OAuthError("invalid_notification_request", "notification request is malformed");
      if (parsed.data.notification_id !== interaction.id)
        throw new OAuthError("invalid_notification_id", "notification_id unknown");
      const credential = await storage.credentials.get(data.credentialId);
      if (!credential || credential.credentialSchemaId !== schemaId)
        throw new OAuthError("invalid_notification_id", "notification_id unknown");
      const schema = await loadSchema(credential.credentialSchemaId);
      const event = parsed.data.event;
      if (event === "credential_accepted") return;
      const next = event === "credential_failure" ? "ERROR" : "REJECTED";
      if (!["ACCEPTED", "SUSPENDED", "REVOKED"].includes(credential.state)) return;
      const now = clock.now();
      await storage.transaction(async (tx) => {
        const changed = await tx.credentials.update(
          credential.id,
          { state: next, lastModified: now },
          { where: { op: "eq", column: "state", value: credential.state } },
        );
        if (!changed) return;
        if (next === "REJECTED") await statusLists.setCredentialStatus(tx, credential.id, "REVOKED");
        await recordHistory(
          deps,
          tx,
          {},
          {
            action: next === "ERROR" ? "ERRORED" : "REJECTED",
            entityType: "CREDENTIAL",
            entityId: credential.id,
            name: schema.name,
            organisationId: credential.organisationId,
          },
        );
      });
    },

    async jwtVcIssuerMetadata(protocolId, identifierId, schemaId) {
      const identifier = await storage.identifiers.get(parseId(identifierId, "BR_0207"));
      if (!identifier || identifier.deletedAt)
        throw new CredkitError("BR_0207", `identifier ${identifierId} not found`);
      await loadSchema(schemaId);
      const issuer = keyIssuerUrl(deps.baseUrl, protocolId, identifierId, schemaId);
      const signing = await resolveIssuerSigning(deps, storage, identifier, { keyIssuerUrl: issuer });
      return { issuer, jwks: { keys: [signing.jwk] } };
    },

    async vctMetadata(organisationId, vctType) {
      const vct = `${deps.baseUrl}/ssi/vct/v1/${organisationId}/${vctType}`;
      const schema = await storage.credentialSchemas.findOne({
        op: "and",
        conditions: [
          { op: "eq", column: "organisationId", value: parseId(organisationId, "BR_0006") },
          { op: "isNull", column: "deletedAt" },
          {
            op: "or",
            conditions: [
              { op: "eq", column: "schemaId", value: vct },
              { op: "eq", column: "schemaId", value: vctType },
            ],
          },
        ],
      });
      if (!schema) throw new CredkitError("BR_0006", `type metadata ${vctType} not found`);
      return {
        vct: schema.schemaId,
        name: schema.name,
        display: [{ locale: "en", name: schema.name }],
        claims: claimMetadata(schema).map(({ path, display }) => ({
          path,
          display: display.map((d) => ({ locale: d.locale, label: d.name })),
          sd: "always",
        })),
      };
    },

    async expireOffers() {
      const now = clock.now();
      const expired = await storage.interactions.findMany({
        op: "and",
        conditions: [
          { op: "eq", column: "interactionType", value: "ISSUANCE" },
          { op: "lte", column: "expiresAt", value: now },
          { op: "isNull", column: "accessTokenHash" },
        ],
      });
      let count = 0;
      for (const interaction of expired) {
        const credentialId = (interaction.data as IssuerInteractionData | undefined)?.credentialId;
        if (!credentialId) continue;
        const changed = await storage.credentials.update(
          credentialId,
          { state: "INTERACTION_EXPIRED", lastModified: now },
          {
            where: {
              op: "and",
              conditions: [
                { op: "eq", column: "state", value: "PENDING" },
                { op: "eq", column: "interactionId", value: interaction.id },
              ],
            },
          },
        );
        if (changed) count++;
      }
      return count;
    },
  };
}
