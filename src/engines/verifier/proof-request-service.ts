import { z } from "zod";
import type { CredkitConfig } from "../../config/schema.js";
import type { Credential } from "../../domain/credential.js";
import { PROOF_ROLES, PROOF_STATES } from "../../domain/enums.js";
import type { Proof } from "../../domain/proof.js";
import { transitionProof } from "../../domain/proof-state.js";
import { CredkitError } from "../../errors/credkit-error.js";
import type { Condition, Page, StorageRepositories } from "../../ports/storage.js";
import type { CallContext } from "../common/call-context.js";
import { UNSCOPED } from "../common/call-context.js";
import type { EngineDeps } from "../common/engine-deps.js";
import { requireActiveOrganisation, requireInScope, resolveTargetOrganisation } from "../common/organisation-scope.js";
import { parseId } from "../common/parse-id.js";
import { parseInput } from "../common/parse-input.js";
import { type ProofTrustDetailDto, toProofTrustDetail } from "../common/proof-trust.js";
import { holderVerifierAuthentication } from "../common/verifier-authentication-dto.js";
import { recordHistory } from "../history/record-history.js";
import { datatypeResolver, toClaimDtos } from "../issuer/credential-claims.js";
import { toCredentialDetail } from "../issuer/credential-dto.js";
import { toCredentialSchemaListItem } from "../issuer/credential-schema-dto.js";
import { buildListQuery, dateRange, inFilter, listInputSchema, timestampInput } from "../list/list-input.js";
import { validateWebhookDestination } from "../notification/webhook-destination.js";
import type { Openid4vpVerifier } from "./openid4vp/openid4vp-verifier.js";
import { type Draft20Verifier, OPENID4VP_DRAFT20 } from "./openid4vp-draft20/draft20-verifier.js";
import {
  type ProofDetailDto,
  type ProofInputDto,
  type ProofListItemDto,
  toProofDetail,
  toProofListItem,
} from "./proof-dto.js";
import type { ProofSchemaService } from "./proof-schema-service.js";

/** POST /api/proof-request/v1 (reference §3.7) */
export const createProofRequestInputSchema = z
  .object({
    proofSchemaId: z.uuid(),
    verifier: z.uuid().optional(),
    /** deprecated alias: a DID id */
    verifierDid: z.uuid().optional(),
    protocol: z.string().min(1),
    redirectUri: z.string().url().optional(),
    verifierKey: z.uuid().optional(),
    verifierCertificate: z.uuid().optional(),
    transport: z.array(z.string()).optional(),
    profile: z.string().max(255).optional(),
    webhookDestinationUrl: z.string().max(2048).optional(),
  })
  .strict();
export type CreateProofRequestInput = z.input<typeof createProofRequestInputSchema>;

export const CLIENT_ID_SCHEMES = [
  "redirect_uri",
  "decentralized_identifier",
  "did",
  "x509_san_dns",
  "x509_hash",
  "verifier_attestation",
] as const;

/** POST /api/proof-request/v1/{id}/share (body optional) */
export const shareProofRequestInputSchema = z
  .object({
    params: z
      .object({
        clientIdScheme: z.enum(CLIENT_ID_SCHEMES).optional(),
        /** credkit extension: direct_post or direct_post.jwt (default from the protocol's config) */
        responseMode: z.enum(["direct_post", "direct_post.jwt"]).optional(),
      })
      .strict()
      .optional(),
  })
  .strict();
export type ShareProofRequestInput = z.input<typeof shareProofRequestInputSchema>;

export const listProofRequestsInputSchema = listInputSchema({
  sort: ["schema.name", "verifier", "createdDate", "state"],
  exact: ["name"],
  extra: {
    organisationId: z.uuid().optional(),
    profiles: z.array(z.string()).optional(),
    states: z.array(z.enum(PROOF_STATES)).optional(),
    roles: z.array(z.enum(PROOF_ROLES)).optional(),
    proofSchemaIds: z.array(z.uuid()).optional(),
    verifiers: z.array(z.uuid()).optional(),
    requestedDateAfter: timestampInput.optional(),
    requestedDateBefore: timestampInput.optional(),
    completedDateAfter: timestampInput.optional(),
    completedDateBefore: timestampInput.optional(),
  },
});
export type ListProofRequestsInput = z.input<typeof listProofRequestsInputSchema>;

export interface ProofRequestService {
  create(input: CreateProofRequestInput, context?: CallContext): Promise<{ id: string }>;
  get(id: string, context?: CallContext): Promise<ProofDetailDto>;
  list(input: ListProofRequestsInput, context?: CallContext): Promise<Page<ProofListItemDto>>;
  share(id: string, input?: ShareProofRequestInput, context?: CallContext): Promise<{ url: string; expiresAt?: Date }>;
  delete(id: string, context?: CallContext): Promise<void>;
  deleteClaims(id: string, context?: CallContext): Promise<void>;
  /** GET /api/proof-request/v1/{id}/trust-detail: the verifier's EUDI trust information a wallet received, or `{}` */
  trustDetail(id: string, context?: CallContext): Promise<ProofTrustDetailDto>;
  load(id: string, context?: CallContext): Promise<Proof>;
}

export function createProofRequestService(
  deps: EngineDeps,
  config: CredkitConfig,
  proofSchemas: ProofSchemaService,
  openid4vp: Openid4vpVerifier,
  draft20: Draft20Verifier,
): ProofRequestService {
  const { storage, clock } = deps;
  const datatype = datatypeResolver(config);

  async function load(id: string, context: CallContext = UNSCOPED): Promise<Proof> {
    return requireInScope(context, await storage.proofs.get(parseId(id, "BR_0012")), "BR_0012", id);
  }

  async function relations(repositories: StorageRepositories, proof: Proof) {
    const verifier = proof.verifierIdentifierId
      ? await repositories.identifiers.get(proof.verifierIdentifierId)
      : undefined;
    const schema = proof.proofSchemaId ? await repositories.proofSchemas.get(proof.proofSchemaId) : undefined;
    return { ...(verifier && { verifier }), ...(schema && { schema }) };
  }

  async function proofInputs(proof: Proof): Promise<ProofInputDto[]> {
    const schema = proof.proofSchemaId ? await storage.proofSchemas.get(proof.proofSchemaId) : undefined;
    if (!schema) return [];
    const presented = proof.presentedCredentialIds ?? [];
    const credentials =
      presented.length > 0 ? await storage.credentials.findMany({ op: "in", column: "id", values: presented }) : [];
    const byId = new Map<string, Credential>(credentials.map((c) => [c.id, c]));
    const inputs: ProofInputDto[] = [];
    for (const input of schema.proofInputSchemas) {
      const credentialSchema = await storage.credentialSchemas.get(input.credentialSchemaId);
      if (!credentialSchema) continue;
      const credential = presented.map((id) => byId.get(id)).find((c) => c?.credentialSchemaId === credentialSchema.id);
      const claims = credential ? toClaimDtos(credentialSchema.claims, credential.claims, datatype) : [];
      inputs.push({
        claims,
        ...(credential && {
          credential: toCredentialDetail(credential, { schema: credentialSchema }, claims),
        }),
        credentialSchema: toCredentialSchemaListItem(credentialSchema),
      });
    }
    return inputs;
  }

  const service: ProofRequestService = {
    async create(rawInput, context = UNSCOPED) {
      const input = parseInput(createProofRequestInputSchema, rawInput);
      const schema = await proofSchemas.load(input.proofSchemaId, context);
      const organisationId = schema.organisationId;
      await requireActiveOrganisation(storage, organisationId);
      const protocol = config.verificationProtocol[input.protocol];
      if (!protocol?.enabled)
        throw new CredkitError("BR_0089", `verification protocol ${input.protocol} is not configured`);
      if (protocol.type !== "OPENID4VP_FINAL1" && protocol.type !== OPENID4VP_DRAFT20)
        throw new CredkitError("BR_0112", `protocol ${input.protocol} is not supported by this build`);
      if (input.webhookDestinationUrl !== undefined)
        validateWebhookDestination(config, "verificationProtocol", input.protocol, input.webhookDestinationUrl);
      let verifierId: string | undefined;
      // verifierCertificate: a certificate of the verifier identifier (x509 client_id prefixes); alone, it names it
      const certificate = input.verifierCertificate
        ? await storage.certificates.get(input.verifierCertificate)
        : undefined;
      // (scoped through its identifier below: it must be on the organisation's verifier identifier)
      if (input.verifierCertificate && !certificate) {
        throw new CredkitError("BR_0223", `certificate ${input.verifierCertificate} not found`);
      }
      if (input.verifier || input.verifierDid || certificate) {
        const identifier = input.verifier
          ? await storage.identifiers.get(input.verifier)
          : certificate && !input.verifierDid
            ? await storage.identifiers.get(certificate.identifierId)
            : await storage.identifiers.findOne({ op: "eq", column: "didId", value: input.verifierDid! });
        if (!identifier || identifier.deletedAt || identifier.organisationId !== organisationId) {
          throw new CredkitError("BR_0207", `verifier identifier ${input.verifier ?? input.verifierDid} not found`);
        }
        if (identifier.state !== "ACTIVE") throw new CredkitError("BR_0218", "the verifier identifier is deactivated");
        if (certificate && certificate.identifierId !== identifier.id) {
          throw new CredkitError(
            "BR_0223",
            `certificate ${certificate.id} is not on verifier identifier ${identifier.id}`,
          );
        }
        verifierId = identifier.id;
      }
      const id = deps.newId();
      const now = clock.now();
      const proof: Proof = {
        id,
        organisationId,
        role: "VERIFIER",
        state: "CREATED",
        protocol: input.protocol,
        proofSchemaId: schema.id,
        ...(verifierId !== undefined && { verifierIdentifierId: verifierId }),
        ...(input.verifierKey !== undefined && { verifierKeyId: input.verifierKey }),
        ...(certificate && { verifierCertificateId: certificate.id }),
        transport: input.transport?.[0] ?? "HTTP",
        ...(input.redirectUri !== undefined && { redirectUri: input.redirectUri }),
        ...(input.profile !== undefined && { profile: input.profile }),
        ...(input.webhookDestinationUrl !== undefined && { webhookDestinationUrl: input.webhookDestinationUrl }),
        createdDate: now,
        lastModified: now,
      };
      await storage.transaction(async (tx) => {
        await tx.proofs.insert(proof);
        await recordHistory(deps, tx, context, {
          action: "CREATED",
          entityType: "PROOF",
          entityId: id,
          name: schema.name,
          organisationId,
        });
      });
      return { id };
    },

    async get(id, context = UNSCOPED) {
      const proof = await load(id, context);
      return {
        ...toProofDetail(proof, await relations(storage, proof), await proofInputs(proof)),
        // holder proofs: the verifier as the wallet authenticated it
        ...(await holderVerifierAuthentication(storage, proof)),
      };
    },

    async list(rawInput, context = UNSCOPED) {
      const input = parseInput(listProofRequestsInputSchema, rawInput);
      const organisationId = resolveTargetOrganisation(context, input.organisationId);
      const schemaOf = (where: Condition): Condition => ({
        op: "exists",
        table: "proof_schema",
        on: { id: "proofSchemaId" },
        where,
      });
      const query = buildListQuery(
        { ...input, name: undefined },
        {
          sortColumns: {},
          conditions: [
            { op: "eq", column: "organisationId", value: organisationId },
            input.name === undefined
              ? undefined
              : schemaOf(
                  input.exact?.includes("name")
                    ? { op: "equalsIgnoreCase", column: "name", value: input.name }
                    : { op: "startsWith", column: "name", value: input.name },
                ),
            inFilter("profile", input.profiles),
            inFilter("state", input.states),
            inFilter("role", input.roles),
            inFilter("proofSchemaId", input.proofSchemaIds),
            inFilter("verifierIdentifierId", input.verifiers),
            ...dateRange("requestedDate", input.requestedDateAfter, input.requestedDateBefore),
            ...dateRange("completedDate", input.completedDateAfter, input.completedDateBefore),
          ],
        },
      );
      if (input.sort === "schema.name") {
        query.orderBy = [
          {
            column: "name",
            direction: input.sortDirection ?? "ASC",
            from: { table: "proof_schema", on: { id: "proofSchemaId" } },
          },
        ];
      } else if (input.sort === "verifier") {
        query.orderBy = [
          {
            column: "name",
            direction: input.sortDirection ?? "ASC",
            from: { table: "identifier", on: { id: "verifierIdentifierId" } },
          },
        ];
      }
      const page = await storage.proofs.list(query);
      const values = await Promise.all(
        page.values.map(async (proof) => toProofListItem(proof, await relations(storage, proof))),
      );
      return { ...page, values };
    },

    async share(id, rawInput = {}, context = UNSCOPED) {
      const input = parseInput(shareProofRequestInputSchema, rawInput ?? {});
      const proof = await load(id, context);
      if (proof.role !== "VERIFIER")
        throw new CredkitError("BR_0013", "only proof requests of this verifier can be shared");
      const next = transitionProof(proof.state, "share");
      if (config.verificationProtocol[proof.protocol]?.type === OPENID4VP_DRAFT20)
        return draft20.share(proof, next, input.params ?? {}, context);
      return openid4vp.share(proof, next, input.params ?? {}, context);
    },

    async delete(id, context = UNSCOPED) {
      const proof = await load(id, context);
      const schema = proof.proofSchemaId ? await storage.proofSchemas.get(proof.proofSchemaId) : undefined;
      const now = clock.now();
      await storage.transaction(async (tx) => {
        if (["CREATED", "PENDING", "INTERACTION_EXPIRED"].includes(proof.state)) {
          await tx.proofs.delete(id);
          if (proof.interactionId) await tx.interactions.delete(proof.interactionId);
          await recordHistory(deps, tx, context, {
            action: "DELETED",
            entityType: "PROOF",
            entityId: id,
            name: schema?.name ?? id,
            organisationId: proof.organisationId,
          });
          return;
        }
        const next = transitionProof(proof.state, "retract");
        await tx.proofs.update(id, { state: next, lastModified: now });
        await recordHistory(deps, tx, context, {
          action: "RETRACTED",
          entityType: "PROOF",
          entityId: id,
          name: schema?.name ?? id,
          organisationId: proof.organisationId,
        });
      });
    },

    async deleteClaims(id, context = UNSCOPED) {
      const proof = await load(id, context);
      if (proof.state !== "ACCEPTED")
        throw new CredkitError("BR_0013", "claims can only be removed from accepted proofs");
      const now = clock.now();
      await storage.transaction(async (tx) => {
        for (const credentialId of proof.presentedCredentialIds ?? [])
          await tx.credentials.update(credentialId, { claims: [], credentialBlob: undefined, lastModified: now });
        await tx.proofs.update(id, { claimsRemovedAt: now, lastModified: now });
        await recordHistory(deps, tx, context, {
          action: "CLAIMS_REMOVED",
          entityType: "PROOF",
          entityId: id,
          name: id,
          organisationId: proof.organisationId,
        });
      });
    },

    async trustDetail(id, context = UNSCOPED) {
      return toProofTrustDetail(await load(id, context));
    },

    load,
  };
  return service;
}
