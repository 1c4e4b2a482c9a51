import { randomInt } from "node:crypto";
import { z } from "zod";
import type { CredkitConfig } from "../../config/schema.js";
import type { Claim, Credential } from "../../domain/credential.js";
import type { CredentialSchema } from "../../domain/credential-schema.js";
import { transitionCredential } from "../../domain/credential-state.js";
import { CREDENTIAL_ROLES, CREDENTIAL_STATES } from "../../domain/enums.js";
import type { Identifier } from "../../domain/identifier.js";
import { CredkitError } from "../../errors/credkit-error.js";
import type { Condition, Page, StorageRepositories } from "../../ports/storage.js";
import type { CallContext } from "../common/call-context.js";
import { UNSCOPED } from "../common/call-context.js";
import type { EngineDeps } from "../common/engine-deps.js";
import { requireActiveOrganisation, requireInScope, resolveTargetOrganisation } from "../common/organisation-scope.js";
import { parseId } from "../common/parse-id.js";
import { parseInput } from "../common/parse-input.js";
import { recordHistory } from "../history/record-history.js";
import { buildListQuery, dateRange, inFilter, listInputSchema, timestampInput } from "../list/list-input.js";
import { validateWebhookDestination } from "../notification/webhook-destination.js";
import { datatypeResolver, toClaimDtos, validateClaimValue } from "./credential-claims.js";
import {
  type CredentialDetailDto,
  type CredentialListItemDto,
  toCredentialDetail,
  toCredentialListItem,
} from "./credential-dto.js";
import { flattenClaimSchemas } from "./credential-schema-dto.js";
import type { CredentialSchemaService } from "./credential-schema-service.js";
import { hashSecret } from "./hash-secret.js";
import type { StatusListService } from "./status-list-service.js";

/** POST /api/credential/v1 (reference §3.6) */
export const createCredentialInputSchema = z
  .object({
    credentialSchemaId: z.uuid(),
    issuer: z.uuid().optional(),
    /** deprecated alias of issuer (a DID id) */
    issuerDid: z.uuid().optional(),
    issuerKey: z.uuid().optional(),
    issuerCertificate: z.uuid().optional(),
    protocol: z.string().min(1),
    claimValues: z.array(
      z.object({ claimId: z.uuid(), value: z.string().default(""), path: z.string().min(1) }).strict(),
    ),
    redirectUri: z.string().url().optional(),
    profile: z.string().max(255).optional(),
    webhookDestinationUrl: z.string().max(2048).optional(),
  })
  .strict();
export type CreateCredentialInput = z.input<typeof createCredentialInputSchema>;

export const CREDENTIAL_SEARCH_TYPES = ["CLAIM_NAME", "CLAIM_VALUE", "CREDENTIAL_SCHEMA_NAME"] as const;

/** GET /api/credential/v1 query (reference §6) */
export const listCredentialsInputSchema = listInputSchema({
  sort: ["createdDate", "schema.name", "issuer", "state"],
  exact: ["name"],
  extra: {
    organisationId: z.uuid().optional(),
    profiles: z.array(z.string()).optional(),
    roles: z.array(z.enum(CREDENTIAL_ROLES)).optional(),
    states: z.array(z.enum(CREDENTIAL_STATES)).optional(),
    issuers: z.array(z.uuid()).optional(),
    credentialSchemaIds: z.array(z.uuid()).optional(),
    searchText: z.string().min(1).optional(),
    searchType: z.array(z.enum(CREDENTIAL_SEARCH_TYPES)).optional(),
    issuanceDateAfter: timestampInput.optional(),
    issuanceDateBefore: timestampInput.optional(),
    revocationDateAfter: timestampInput.optional(),
    revocationDateBefore: timestampInput.optional(),
    include: z.array(z.enum(["layoutProperties"])).optional(),
  },
});
export type ListCredentialsInput = z.input<typeof listCredentialsInputSchema>;

export const suspendCredentialInputSchema = z.object({ suspendEndDate: timestampInput.optional() }).strict();
export type SuspendCredentialInput = z.input<typeof suspendCredentialInputSchema>;

export interface ShareCredentialResult {
  url: string;
  transactionCode?: string;
  expiresAt?: Date;
}

export interface CredentialService {
  create(input: CreateCredentialInput, context?: CallContext): Promise<{ id: string }>;
  get(id: string, context?: CallContext): Promise<CredentialDetailDto>;
  list(input: ListCredentialsInput, context?: CallContext): Promise<Page<CredentialListItemDto>>;
  delete(id: string, context?: CallContext): Promise<void>;
  share(id: string, context?: CallContext): Promise<ShareCredentialResult>;
  revoke(id: string, context?: CallContext): Promise<void>;
  suspend(id: string, input?: SuspendCredentialInput, context?: CallContext): Promise<void>;
  reactivate(id: string, context?: CallContext): Promise<void>;
  /** stored entity, scoped, not deleted */
  load(id: string, context?: CallContext): Promise<Credential>;
}

const notDeleted: Condition = { op: "isNull", column: "deletedAt" };
const ALPHANUMERIC = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** One-time transaction code per issuance attempt (OpenID4VCI 1.0 §4.1.1 tx_code). */
export function generateTransactionCode(type: "NUMERIC" | "ALPHANUMERIC", length: number): string {
  const alphabet = type === "NUMERIC" ? "0123456789" : ALPHANUMERIC;
  return Array.from({ length }, () => alphabet[randomInt(alphabet.length)]).join("");
}

/** Interaction data of an issuer-side OpenID4VCI exchange. */
export interface IssuerInteractionData {
  credentialId: string;
  txCodeHash?: string;
  /** set when the bounded tx_code attempts ran out: the code can no longer be redeemed */
  exhausted?: boolean;
}

export function createCredentialService(
  deps: EngineDeps,
  config: CredkitConfig,
  schemas: CredentialSchemaService,
  statusLists: StatusListService,
): CredentialService {
  const { storage, clock } = deps;
  const datatype = datatypeResolver(config);

  async function load(id: string, context: CallContext = UNSCOPED): Promise<Credential> {
    const credential = await storage.credentials.get(parseId(id, "BR_0001"));
    return requireInScope(context, credential?.deletedAt ? undefined : credential, "BR_0001", id);
  }

  async function relations(repositories: StorageRepositories, credential: Credential) {
    const schema = await repositories.credentialSchemas.get(credential.credentialSchemaId);
    if (!schema) throw new CredkitError("BR_0006", `schema of credential ${credential.id} not found`);
    const issuer = credential.issuerIdentifierId
      ? await repositories.identifiers.get(credential.issuerIdentifierId)
      : undefined;
    const holder = credential.holderIdentifierId
      ? await repositories.identifiers.get(credential.holderIdentifierId)
      : undefined;
    return { schema, ...(issuer && { issuer }), ...(holder && { holder }) };
  }

  function buildClaims(
    schema: CredentialSchema,
    values: z.output<typeof createCredentialInputSchema>["claimValues"],
  ): Claim[] {
    const byPath = new Map(flattenClaimSchemas(schema.claims).map((entry) => [entry.path, entry.claim]));
    const byId = new Map(flattenClaimSchemas(schema.claims).map((entry) => [entry.claim.id, entry]));
    const seen = new Set<string>();
    const claims = values.map((value) => {
      const entry = byId.get(value.claimId);
      if (!entry)
        throw new CredkitError("BR_0010", `claim schema ${value.claimId} is not part of the credential schema`);
      const shape = value.path
        .split("/")
        .filter((segment) => !/^\d+$/.test(segment))
        .join("/");
      if (shape !== entry.path)
        throw new CredkitError("BR_0084", `path ${value.path} does not belong to claim ${entry.path}`);
      if (seen.has(value.path)) throw new CredkitError("BR_0084", `claim path ${value.path} given twice`);
      seen.add(value.path);
      validateClaimValue(config, entry.claim, value.path, value.value);
      return { id: deps.newId(), claimSchemaId: value.claimId, path: value.path, value: value.value };
    });
    // required claims: every required root claim, and required children of every object that is present
    const present = [...seen];
    const presentUnder = (prefix: string) => present.some((p) => p === prefix || p.startsWith(`${prefix}/`));
    const checkRequired = (claimSchemas: typeof schema.claims, prefixes: string[]) => {
      for (const claimSchema of claimSchemas) {
        for (const prefix of prefixes) {
          const path = prefix ? `${prefix}/${claimSchema.key}` : claimSchema.key;
          if (claimSchema.required && !presentUnder(path))
            throw new CredkitError("BR_0003", `required claim ${path} is missing`);
          if (claimSchema.claims.length === 0) continue;
          const instances = claimSchema.array
            ? [
                ...new Set(
                  present
                    .filter((p) => p.startsWith(`${path}/`))
                    .map((p) => `${path}/${p.slice(path.length + 1).split("/")[0]}`),
                ),
              ]
            : presentUnder(path)
              ? [path]
              : [];
          checkRequired(claimSchema.claims, instances);
        }
      }
    };
    checkRequired(schema.claims, [""]);
    void byPath;
    return claims;
  }

  async function requireIssuer(
    context: CallContext,
    organisationId: string,
    input: z.output<typeof createCredentialInputSchema>,
  ) {
    let identifier: Identifier | undefined;
    if (input.issuer) identifier = await storage.identifiers.get(input.issuer);
    else if (input.issuerDid)
      identifier = await storage.identifiers.findOne({ op: "eq", column: "didId", value: input.issuerDid });
    else throw new CredkitError("BR_0084", "issuer is required");
    if (!identifier || identifier.deletedAt || identifier.organisationId !== organisationId) {
      throw new CredkitError("BR_0207", `issuer identifier ${input.issuer ?? input.issuerDid} not found`);
    }
    void context;
    if (identifier.state !== "ACTIVE")
      throw new CredkitError("BR_0218", `issuer identifier ${identifier.id} is deactivated`);
    if (identifier.type !== "DID" && identifier.type !== "KEY") {
      throw new CredkitError("BR_0218", `identifier type ${identifier.type} cannot issue this format`);
    }
    if (input.issuerKey) {
      const keyIds =
        identifier.type === "KEY"
          ? [identifier.keyId]
          : ((await storage.dids.get(identifier.didId ?? ""))?.keys ?? [])
              .filter((k) => k.role === "ASSERTION_METHOD")
              .map((k) => k.keyId);
      if (!keyIds.includes(input.issuerKey))
        throw new CredkitError("BR_0330", `key ${input.issuerKey} is not an assertion key of the issuer`);
    }
    return identifier;
  }

  async function changeState(
    id: string,
    context: CallContext,
    transition: "revoke" | "suspend" | "reactivate",
    patch: Partial<Credential>,
    entryStatus: "VALID" | "REVOKED" | "SUSPENDED",
    action: "REVOKED" | "SUSPENDED" | "REACTIVATED",
  ) {
    const credential = await load(id, context);
    if (credential.role !== "ISSUER")
      throw new CredkitError("BR_0002", "only issued credentials can change revocation state");
    const schema = await schemas.load(credential.credentialSchemaId);
    if (!schema.revocationMethod)
      throw new CredkitError("BR_0098", `credential schema ${schema.id} has no revocation method`);
    if (transition === "suspend" && !schema.allowSuspension)
      throw new CredkitError("BR_0162", "the credential schema does not allow suspension");
    const next = transitionCredential(credential.state, transition);
    const now = clock.now();
    await storage.transaction(async (tx) => {
      const changed = await tx.credentials.update(
        id,
        { ...patch, state: next, lastModified: now },
        { where: { op: "eq", column: "state", value: credential.state } },
      );
      if (!changed) throw new CredkitError("BR_0366", "the credential changed state concurrently");
      await statusLists.setCredentialStatus(tx, id, entryStatus);
      await recordHistory(deps, tx, context, {
        action,
        entityType: "CREDENTIAL",
        entityId: id,
        name: schema.name,
        organisationId: credential.organisationId,
      });
    });
  }

  return {
    async create(rawInput, context = UNSCOPED) {
      const input = parseInput(createCredentialInputSchema, rawInput);
      const schema = await schemas.load(input.credentialSchemaId, context);
      const organisationId = schema.organisationId;
      await requireActiveOrganisation(storage, organisationId);
      const protocol = config.issuanceProtocol[input.protocol];
      if (!protocol?.enabled)
        throw new CredkitError("BR_0089", `issuance protocol ${input.protocol} is not configured`);
      if (protocol.type !== "OPENID4VCI_FINAL1")
        throw new CredkitError("BR_0111", `protocol ${input.protocol} cannot issue ${schema.format}`);
      if (config.format[schema.format]?.type !== "SD_JWT_VC") {
        throw new CredkitError(
          "BR_0111",
          `format ${schema.format} cannot be issued by this build over ${input.protocol}`,
        );
      }
      if (input.webhookDestinationUrl !== undefined)
        validateWebhookDestination(config, "issuanceProtocol", input.protocol, input.webhookDestinationUrl);
      const issuer = await requireIssuer(context, organisationId, input);
      const claims = buildClaims(schema, input.claimValues);
      const id = deps.newId();
      const now = clock.now();
      const credential: Credential = {
        id,
        organisationId,
        credentialSchemaId: schema.id,
        role: "ISSUER",
        state: "CREATED",
        protocol: input.protocol,
        issuerIdentifierId: issuer.id,
        ...(input.issuerKey !== undefined && { issuerKeyId: input.issuerKey }),
        ...(input.issuerCertificate !== undefined && { issuerCertificateId: input.issuerCertificate }),
        claims,
        ...(input.redirectUri !== undefined && { redirectUri: input.redirectUri }),
        ...(input.profile !== undefined && { profile: input.profile }),
        ...(input.webhookDestinationUrl !== undefined && { webhookDestinationUrl: input.webhookDestinationUrl }),
        createdDate: now,
        lastModified: now,
      };
      await storage.transaction(async (tx) => {
        await tx.credentials.insert(credential);
        await recordHistory(deps, tx, context, {
          action: "CREATED",
          entityType: "CREDENTIAL",
          entityId: id,
          name: schema.name,
          organisationId,
        });
      });
      return { id };
    },

    async get(id, context = UNSCOPED) {
      const credential = await load(id, context);
      const related = await relations(storage, credential);
      return toCredentialDetail(credential, related, toClaimDtos(related.schema.claims, credential.claims, datatype));
    },

    async list(rawInput, context = UNSCOPED) {
      const input = parseInput(listCredentialsInputSchema, rawInput);
      if (input.name !== undefined && input.searchText !== undefined) {
        throw new CredkitError("BR_0084", "name cannot be combined with searchText");
      }
      const organisationId = resolveTargetOrganisation(context, input.organisationId);
      const schemaOf = (where: Condition): Condition => ({
        op: "exists",
        table: "credential_schema",
        on: { id: "credentialSchemaId" },
        where,
      });
      const search = input.searchText;
      const searchTypes = input.searchType ?? CREDENTIAL_SEARCH_TYPES;
      const searchConditions: Condition[] = !search
        ? []
        : searchTypes.map((type) =>
            type === "CREDENTIAL_SCHEMA_NAME"
              ? schemaOf({ op: "contains", column: "name", value: search })
              : {
                  op: "exists",
                  table: "claim",
                  on: { credentialId: "id" },
                  where: { op: "contains", column: type === "CLAIM_VALUE" ? "value" : "path", value: search },
                },
          );
      const query = buildListQuery(
        { ...input, name: undefined },
        {
          sortColumns: {},
          conditions: [
            { op: "eq", column: "organisationId", value: organisationId },
            notDeleted,
            input.name === undefined
              ? undefined
              : schemaOf(
                  input.exact?.includes("name")
                    ? { op: "equalsIgnoreCase", column: "name", value: input.name }
                    : { op: "startsWith", column: "name", value: input.name },
                ),
            inFilter("profile", input.profiles),
            inFilter("role", input.roles),
            inFilter("state", input.states),
            inFilter("issuerIdentifierId", input.issuers),
            inFilter("credentialSchemaId", input.credentialSchemaIds),
            searchConditions.length > 0 ? { op: "or", conditions: searchConditions } : undefined,
            ...dateRange("issuanceDate", input.issuanceDateAfter, input.issuanceDateBefore),
            ...dateRange("revocationDate", input.revocationDateAfter, input.revocationDateBefore),
          ],
        },
      );
      // sorting by a related entity's name (reference §6: schema.name, issuer)
      const related = {
        "schema.name": { table: "credential_schema", on: { id: "credentialSchemaId" } },
        issuer: { table: "identifier", on: { id: "issuerIdentifierId" } },
      } as const;
      if (input.sort === "schema.name" || input.sort === "issuer") {
        query.orderBy = [{ column: "name", direction: input.sortDirection ?? "ASC", from: related[input.sort] }];
      }
      const page = await storage.credentials.list(query);
      const includeLayout = input.include?.includes("layoutProperties") ?? false;
      const values = await Promise.all(
        page.values.map(async (credential) =>
          toCredentialListItem(credential, await relations(storage, credential), includeLayout),
        ),
      );
      return { ...page, values };
    },

    async delete(id, context = UNSCOPED) {
      const credential = await load(id, context);
      const schema = await storage.credentialSchemas.get(credential.credentialSchemaId);
      if (
        credential.role === "ISSUER" &&
        schema?.revocationMethod &&
        ["ACCEPTED", "SUSPENDED"].includes(credential.state)
      ) {
        throw new CredkitError("BR_0002", "an issued credential with a revocation method must be revoked, not deleted");
      }
      const now = clock.now();
      await storage.transaction(async (tx) => {
        await tx.credentials.update(id, { deletedAt: now, lastModified: now });
        await recordHistory(deps, tx, context, {
          action: "DELETED",
          entityType: "CREDENTIAL",
          entityId: id,
          name: schema?.name ?? id,
          organisationId: credential.organisationId,
        });
      });
    },

    async share(id, context = UNSCOPED) {
      const credential = await load(id, context);
      if (credential.role !== "ISSUER") throw new CredkitError("BR_0002", "only issued credentials can be offered");
      const next = transitionCredential(credential.state, "share");
      const schema = await schemas.load(credential.credentialSchemaId);
      const protocol = config.issuanceProtocol[credential.protocol];
      const params = { ...protocol?.params.public, ...protocol?.params.private } as Record<string, unknown>;
      const expiresIn = Number(params.preAuthorizedCodeExpiresIn ?? 300);
      const urlScheme = String(params.urlScheme ?? "openid-credential-offer");
      const now = clock.now();
      const expiresAt = new Date(now.getTime() + expiresIn * 1000);
      const transactionCode = schema.transactionCode
        ? generateTransactionCode(schema.transactionCode.type, schema.transactionCode.length)
        : undefined;
      const interactionId = deps.newId();
      const data: IssuerInteractionData = {
        credentialId: id,
        ...(transactionCode !== undefined && { txCodeHash: hashSecret(transactionCode) }),
      };
      await storage.transaction(async (tx) => {
        const changed = await tx.credentials.update(
          id,
          { state: next, interactionId, lastModified: now },
          { where: { op: "eq", column: "state", value: credential.state } },
        );
        if (!changed) throw new CredkitError("BR_0002", "the credential changed state concurrently");
        if (credential.interactionId) await tx.interactions.delete(credential.interactionId);
        await tx.interactions.insert({
          id: interactionId,
          organisationId: credential.organisationId,
          interactionType: "ISSUANCE",
          protocol: credential.protocol,
          data,
          txCodeAttempts: 0,
          expiresAt,
          createdDate: now,
          lastModified: now,
        });
        await recordHistory(deps, tx, context, {
          action: "SHARED",
          entityType: "CREDENTIAL",
          entityId: id,
          name: schema.name,
          organisationId: credential.organisationId,
        });
      });
      const offerUri = `${deps.baseUrl}/ssi/openid4vci/final-1.0/${schema.id}/offer/${id}`;
      return {
        url: `${urlScheme}://?credential_offer_uri=${encodeURIComponent(offerUri)}`,
        ...(transactionCode !== undefined && { transactionCode }),
        expiresAt,
      };
    },

    revoke: (id, context = UNSCOPED) =>
      changeState(
        id,
        context,
        "revoke",
        { revocationDate: clock.now(), suspendEndDate: undefined },
        "REVOKED",
        "REVOKED",
      ),

    async suspend(id, rawInput = {}, context = UNSCOPED) {
      const input = parseInput(suspendCredentialInputSchema, rawInput);
      if (input.suspendEndDate && input.suspendEndDate <= clock.now())
        throw new CredkitError("BR_0084", "suspendEndDate must be in the future");
      await changeState(
        id,
        context,
        "suspend",
        input.suspendEndDate ? { suspendEndDate: input.suspendEndDate } : {},
        "SUSPENDED",
        "SUSPENDED",
      );
    },

    reactivate: (id, context = UNSCOPED) =>
      changeState(id, context, "reactivate", { suspendEndDate: undefined }, "VALID", "REACTIVATED"),

    load,
  };
}
