import type { CredkitConfig } from "../../config/schema.js";
import type { Credential } from "../../domain/credential.js";
import type { CredentialSchema } from "../../domain/credential-schema.js";
import { transitionCredential } from "../../domain/credential-state.js";
import type { DidDocument } from "../../domain/did.js";
import type { CredentialState, HistoryAction, KeyAlgorithmType } from "../../domain/enums.js";
import type { Interaction } from "../../domain/interaction.js";
import { CredkitError, isCredkitError } from "../../errors/credkit-error.js";
import type { ParsedCredential } from "../../ports/credential-formatter.js";
import type { Storage } from "../../ports/storage.js";
import { splitSdJwt } from "../../providers/format/sd-jwt-vc/decode-sd-jwt.js";
import { createSdJwtVcFormatter } from "../../providers/format/sd-jwt-vc/index.js";
import { decodeCompactJws } from "../../providers/jose/decode-compact-jws.js";
import { computeJwkThumbprint } from "../../providers/key-algorithm/jwk-thumbprint.js";
import {
  describeTokenStatus,
  parseStatusClaim,
  type StatusListReference,
  TOKEN_STATUS,
} from "../../providers/revocation/token-status-list/index.js";
import { type CallContext, UNSCOPED } from "../common/call-context.js";
import type { EngineDeps } from "../common/engine-deps.js";
import { createIssuerKeyResolver } from "../common/issuer-key-resolver.js";
import { createKeySigner } from "../common/key-signer.js";
import { requireActiveOrganisation, requireInScope, resolveTargetOrganisation } from "../common/organisation-scope.js";
import { parseId } from "../common/parse-id.js";
import { parseInput } from "../common/parse-input.js";
import { createRemoteHttp } from "../common/remote-http.js";
import { createStatusListReader, type StatusListReader } from "../common/status-list-reader.js";
import { recordHistory } from "../history/record-history.js";
import {
  type AcceptIssuanceInput,
  acceptIssuanceInputSchema,
  type CheckRevocationInput,
  checkRevocationInputSchema,
  type HandleInvitationInput,
  type HandleInvitationResult,
  handleInvitationInputSchema,
  type RejectIssuanceInput,
  type RejectPresentationInput,
  type RevocationCheckResult,
  rejectIssuanceInputSchema,
  type SubmitPresentationInput,
  type SubmitPresentationV1Input,
} from "./holder-inputs.js";
import { resolveHolderKey } from "./holder-key.js";
import {
  PRE_AUTHORIZED_CODE_GRANT,
  parseInvitationUrl,
  resolveCredentialOffer,
} from "./openid4vci/credential-offer.js";
import { sendNotification } from "./openid4vci/credential-request.js";
import {
  type AuthorizationServerMetadata,
  type CredentialConfiguration,
  configurationClaims,
  configurationDisplayName,
  fetchAuthorizationServerMetadata,
  fetchCredentialIssuerMetadata,
} from "./openid4vci/issuer-metadata.js";
import { obtainCredential } from "./openid4vci/obtain-credential.js";
import { type WalletIssuanceData, walletIssuanceDataSchema } from "./openid4vci/wallet-interaction.js";
import { isPresentationInvitation } from "./openid4vp/invitation.js";
import type { PresentationDefinitionV2Dto } from "./openid4vp/presentation-definition.js";
import { createWalletVerification } from "./openid4vp/wallet-verification.js";
import {
  createWalletDraft20,
  isDraft20Invitation,
  type PresentationDefinitionV1Dto,
} from "./openid4vp-draft20/wallet-draft20.js";
import { flattenClaims, mergeClaimSchemas } from "./received-claims.js";

/**
 * The wallet (holder) engine (reference §3.8, platform spec §3 move 1): handle a credential offer, accept it (token,
 * nonce, key proof, credential request, verification, storage), reject it (credential_deleted notification), and
 * check the status of held credentials against their issuers' token status lists.
 */
export interface HolderService {
  /**
   * POST /api/interaction/v1/handle-invitation: an OpenID4VCI offer (fetches metadata, opens an interaction) or an
   * OpenID4VP 1.0 presentation request (verifies it, opens an interaction and a REQUESTED holder proof)
   */
  handleInvitation(input: HandleInvitationInput, context?: CallContext): Promise<HandleInvitationResult>;
  /** POST /api/interaction/v1/issuance-accept: obtains, verifies and stores the credential; answers its id */
  acceptIssuance(input: AcceptIssuanceInput, context?: CallContext): Promise<{ id: string }>;
  /** POST /api/interaction/v1/issuance-reject: before accept drops the offer, after accept rejects the credential */
  rejectIssuance(input: RejectIssuanceInput, context?: CallContext): Promise<void>;
  /** POST /api/credential/v1/revocation-check: status of held credentials from their status lists */
  checkRevocation(input: CheckRevocationInput, context?: CallContext): Promise<RevocationCheckResult[]>;
  /** GET /api/proof-request/v2/{id}/presentation-definition: what the wallet can present for a received request */
  getPresentationDefinition(proofId: string, context?: CallContext): Promise<PresentationDefinitionV2Dto>;
  /** GET /api/proof-request/v1/{id}/presentation-definition: Presentation Exchange; BR_0292 for OpenID4VP 1.0 */
  getPresentationDefinitionV1(proofId: string, context?: CallContext): Promise<PresentationDefinitionV1Dto>;
  /** POST /api/interaction/v2/presentation-submit: presents the chosen credentials (direct_post / direct_post.jwt) */
  submitPresentation(input: SubmitPresentationInput, context?: CallContext): Promise<void>;
  /** POST /api/interaction/v1/presentation-submit: Presentation Exchange; BR_0292 for OpenID4VP 1.0 requests */
  submitPresentationV1(input: SubmitPresentationV1Input, context?: CallContext): Promise<void>;
  /** POST /api/interaction/v1/presentation-reject: tells the verifier `access_denied` */
  rejectPresentation(input: RejectPresentationInput, context?: CallContext): Promise<void>;
}

export interface HolderServiceOptions {
  config: CredkitConfig;
  /** DID resolution (the DidService) for issuers identified by a DID */
  dids: { resolve(did: string): Promise<DidDocument> };
  /** receives failures that do not fail the call (issuer notifications); default console.warn */
  log?: (message: string, error?: unknown) => void;
}

/** How long an offer stays open between handle-invitation and accept. */
const INTERACTION_LIFETIME_MS = 15 * 60 * 1000;
/** Assumed access token lifetime when the token response has no expires_in (bounds issuance-reject). */
const DEFAULT_TOKEN_LIFETIME_MS = 15 * 60 * 1000;
const DEFAULT_LEEWAY_SECONDS = 60;
/** SD-JWT VC format identifiers of credential configurations (OpenID4VCI 1.0 Appendix A.3; vc+sd-jwt before). */
const SD_JWT_VC_FORMATS = ["dc+sd-jwt", "vc+sd-jwt"];
/** JOSE algs of key proofs → key algorithm types. */
const KEY_TYPE_OF_JOSE_ALG: Record<string, KeyAlgorithmType> = {
  EdDSA: "EDDSA",
  Ed25519: "EDDSA",
  ES256: "ECDSA",
  "ML-DSA-65": "ML_DSA",
};
/** States whose status a revocation check refreshes (REVOKED is terminal). */
const CHECKED_STATES: readonly CredentialState[] = ["ACCEPTED", "SUSPENDED"];
/** Members of the credential payload that are about the token, not the subject: not stored as claims. */
const TOKEN_MEMBERS = ["jti", "aud", "vct#integrity"];

type ProviderBlock = Record<string, { type: string; enabled: boolean; params: { public: Record<string, unknown> } }>;

function enabledInstance(block: ProviderBlock, type: string): [string, ProviderBlock[string]] | undefined {
  return Object.entries(block).find(([, entry]) => entry.type === type && entry.enabled);
}

function detailOf(error: unknown): string {
  if (isCredkitError(error)) return error.detail ?? error.message;
  return error instanceof Error ? error.message : String(error);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function createHolderService(deps: EngineDeps, options: HolderServiceOptions): HolderService {
  const { storage, providers, clock } = deps;
  const { config } = options;
  const log = options.log ?? ((message: string, error?: unknown) => console.warn(`[credkit] ${message}`, error ?? ""));
  const http = createRemoteHttp({ fetch: deps.fetch, allowInsecureHttp: config.app.http.allowInsecureHttpTransport });
  // the registry's SD-JWT VC formatter and JWS verifier: one set of prepared-key caches for the whole kit
  const algorithms = new Map([...providers.keyAlgorithms.values()].map((algorithm) => [algorithm.type, algorithm]));
  // the registry's formatter and JWS verifier share their prepared-key caches with the rest of the kit
  const formatter = providers.formatters.get("SD_JWT_VC") ?? createSdJwtVcFormatter({ algorithms });
  const { jwsVerifier } = providers;
  const verification = createWalletVerification(deps, { config, dids: options.dids, http, formatter, jwsVerifier });
  const draft20 = createWalletDraft20(deps, { config, dids: options.dids, http, formatter, jwsVerifier });

  function issuerKeyResolver() {
    return createIssuerKeyResolver({ resolveDid: (did) => options.dids.resolve(did), http });
  }

  /** The issuanceProtocol instance handling OpenID4VCI 1.0 offers (its name is stored on interactions, credentials). */
  function protocolInstance(): string {
    const found = enabledInstance(config.issuanceProtocol as ProviderBlock, "OPENID4VCI_FINAL1");
    if (!found) throw new CredkitError("BR_0089", "no enabled issuanceProtocol of type OPENID4VCI_FINAL1");
    return found[0];
  }

  function sdJwtVcFormat(): { name: string; leeway: number } {
    const found = enabledInstance(config.format as ProviderBlock, "SD_JWT_VC");
    if (!found) throw new CredkitError("BR_0089", "no enabled format of type SD_JWT_VC");
    const leeway = found[1].params.public.leeway;
    return { name: found[0], leeway: typeof leeway === "number" && leeway >= 0 ? leeway : DEFAULT_LEEWAY_SECONDS };
  }

  /**
   * Key algorithms the issuer takes key proofs from (`proof_types_supported.jwt`, OpenID4VCI 1.0 §12.2.4), limited to
   * the enabled ones; undefined when the configuration asks for no key proof. BR_0085 when none fits.
   */
  function proofKeyAlgorithms(configuration: CredentialConfiguration): KeyAlgorithmType[] | undefined {
    const proofTypes = configuration.proof_types_supported;
    if (proofTypes === undefined) return undefined;
    const jwt = proofTypes.jwt;
    if (jwt === undefined) {
      throw new CredkitError(
        "BR_0085",
        `the issuer asks for key proofs of type ${Object.keys(proofTypes).join(", ") || "(none)"}; this wallet sends jwt proofs`,
      );
    }
    const enabled = [...algorithms.keys()];
    const declared = jwt.proof_signing_alg_values_supported;
    if (declared === undefined || declared.length === 0) return enabled;
    const types = [
      ...new Set(
        declared.map((alg) => KEY_TYPE_OF_JOSE_ALG[alg]).filter((t): t is KeyAlgorithmType => t !== undefined),
      ),
    ].filter((type) => algorithms.has(type));
    if (types.length === 0) {
      throw new CredkitError(
        "BR_0085",
        `the issuer accepts key proofs signed with ${declared.join(", ")}; this wallet signs with ${[...algorithms.values()].map((a) => a.jwsAlgorithm).join(", ")}`,
      );
    }
    return types;
  }

  async function loadWalletInteraction(
    id: string,
    context: CallContext,
  ): Promise<{ interaction: Interaction; data: WalletIssuanceData }> {
    const interaction = requireInScope(
      context,
      await storage.interactions.get(parseId(id, "BR_0257")),
      "BR_0257",
      `interaction ${id}`,
    );
    const parsed = walletIssuanceDataSchema.safeParse(interaction.data);
    if (interaction.interactionType !== "ISSUANCE" || !parsed.success) {
      throw new CredkitError("BR_0257", `interaction ${id} is not a credential offer received by this wallet`);
    }
    return { interaction, data: parsed.data };
  }

  function isExpired(interaction: Interaction): boolean {
    return interaction.expiresAt !== undefined && interaction.expiresAt.getTime() <= clock.now().getTime();
  }

  /** The verified credential: issuer signature and validity (SD-JWT VC), vct, holder binding to `holderJwk`. */
  async function verifyReceivedCredential(
    token: string,
    configuration: CredentialConfiguration,
    holderThumbprint: string,
    proofSent: boolean,
    leeway: number,
  ): Promise<ParsedCredential> {
    let parsed: ParsedCredential;
    try {
      parsed = await formatter.verifyCredential(token, {
        resolveIssuerKey: issuerKeyResolver(),
        now: clock.now(),
        leeway,
      });
    } catch (error) {
      if (!isCredkitError(error)) throw error;
      throw new CredkitError(error.code, `received credential: ${detailOf(error)}`, { cause: error });
    }
    for (const member of TOKEN_MEMBERS) delete parsed.claims[member];
    if (parsed.type !== configuration.vct) {
      throw new CredkitError(
        "BR_0087",
        `received credential: vct ${JSON.stringify(parsed.type)} is not the offered ${JSON.stringify(configuration.vct)}`,
      );
    }
    if (parsed.holderJwk === undefined) {
      if (proofSent) throw new CredkitError("BR_0173", "received credential: not bound to the holder key (no cnf.jwk)");
      return parsed;
    }
    let thumbprint: string;
    try {
      thumbprint = computeJwkThumbprint(parsed.holderJwk);
    } catch (error) {
      throw new CredkitError("BR_0173", `received credential: cnf.jwk is not a usable key: ${detailOf(error)}`);
    }
    if (thumbprint !== holderThumbprint) {
      throw new CredkitError("BR_0173", "received credential: cnf.jwk is not the holder key the wallet proved");
    }
    return parsed;
  }

  /** A schema name unused in the organisation: the display name, then with the vct, then with the schema id. */
  async function uniqueSchemaName(tx: Storage, organisationId: string, wanted: string, vct: string, id: string) {
    for (const candidate of [wanted, `${wanted} (${vct})`, `${wanted} (${id})`]) {
      const name = candidate.slice(0, 255);
      const taken = await tx.credentialSchemas.findOne({
        op: "and",
        conditions: [
          { op: "eq", column: "organisationId", value: organisationId },
          { op: "eq", column: "name", value: name },
          { op: "isNull", column: "deletedAt" },
        ],
      });
      if (!taken) return name;
    }
    return id;
  }

  /**
   * The local schema of a received credential: the organisation's schema for the vct (extended with new claims when
   * the wallet created it), else a new SD_JWT_VC schema named after the metadata display name (or the vct).
   */
  async function localSchemaFor(
    tx: Storage,
    context: CallContext,
    organisationId: string,
    received: { credential: ParsedCredential; configuration: CredentialConfiguration; credentialIssuer: string },
    formatName: string,
    now: Date,
  ): Promise<CredentialSchema> {
    const vct = received.credential.type;
    const declared = configurationClaims(received.configuration);
    const factory = { newId: deps.newId, now };
    const existing = await tx.credentialSchemas.findOne({
      op: "and",
      conditions: [
        { op: "eq", column: "organisationId", value: organisationId },
        { op: "eq", column: "schemaId", value: vct },
        { op: "isNull", column: "deletedAt" },
      ],
    });
    if (existing) {
      if (existing.importedSourceUrl !== received.credentialIssuer) return existing;
      const merged = mergeClaimSchemas(existing.claims, received.credential.claims, declared, factory);
      if (!merged.changed) return existing;
      await tx.credentialSchemas.update(existing.id, { claims: merged.claims, lastModified: now });
      return { ...existing, claims: merged.claims, lastModified: now };
    }
    const id = deps.newId();
    const revocation = received.credential.status
      ? enabledInstance(config.revocation as ProviderBlock, "TOKENSTATUSLIST")?.[0]
      : undefined;
    const schema: CredentialSchema = {
      id,
      organisationId,
      name: await uniqueSchemaName(
        tx,
        organisationId,
        configurationDisplayName(received.configuration) ?? vct,
        vct,
        id,
      ),
      format: formatName,
      ...(revocation !== undefined && { revocationMethod: revocation }),
      schemaId: vct,
      importedSourceUrl: received.credentialIssuer,
      claims: mergeClaimSchemas([], received.credential.claims, declared, factory).claims,
      layoutType: "CARD",
      allowSuspension: false,
      requiresWalletInstanceAttestation: false,
      createdDate: now,
      lastModified: now,
    };
    await tx.credentialSchemas.insert(schema);
    await recordHistory(deps, tx, context, {
      action: "CREATED",
      entityType: "CREDENTIAL_SCHEMA",
      entityId: id,
      name: schema.name,
      organisationId,
    });
    return schema;
  }

  /** The status list reference and `iss` of a stored SD-JWT VC (the status claim is never disclosable). */
  function statusReferenceOf(credential: Credential): { issuer: string; reference?: StatusListReference } {
    if (!credential.credentialBlob) throw new CredkitError("BR_0005", "the credential has no stored token");
    const { payload } = decodeCompactJws(splitSdJwt(credential.credentialBlob).issuerJwt, "credential");
    if (typeof payload.iss !== "string" || payload.iss === "") {
      throw new CredkitError("BR_0355", "the stored credential has no iss");
    }
    const status = payload.status;
    if (status === undefined || (isObject(status) && status.status_list === undefined)) return { issuer: payload.iss };
    return { issuer: payload.iss, reference: parseStatusClaim(status) };
  }

  async function checkOne(
    credential: Credential,
    reader: StatusListReader,
    context: CallContext,
  ): Promise<RevocationCheckResult> {
    const result = (status: CredentialState, reason?: string): RevocationCheckResult => ({
      credentialId: credential.id,
      status,
      success: reason === undefined,
      ...(reason !== undefined && { reason }),
    });
    if (!CHECKED_STATES.includes(credential.state)) return result(credential.state);
    let value: number;
    try {
      const { issuer, reference } = statusReferenceOf(credential);
      if (reference === undefined) return result(credential.state);
      value = await reader.read(reference, issuer);
    } catch (error) {
      return result(credential.state, detailOf(error));
    }
    const next: CredentialState | undefined =
      value === TOKEN_STATUS.VALID
        ? "ACCEPTED"
        : value === TOKEN_STATUS.INVALID
          ? "REVOKED"
          : value === TOKEN_STATUS.SUSPENDED
            ? "SUSPENDED"
            : undefined;
    if (next === undefined) {
      return result(credential.state, `the status list holds ${describeTokenStatus(value)} value ${value}`);
    }
    if (next === credential.state) return result(next);
    const action: HistoryAction = next === "REVOKED" ? "REVOKED" : next === "SUSPENDED" ? "SUSPENDED" : "REACTIVATED";
    const now = clock.now();
    const schema = await storage.credentialSchemas.get(credential.credentialSchemaId);
    await storage.transaction(async (tx) => {
      const changed = await tx.credentials.update(
        credential.id,
        { state: next, lastModified: now, ...(next === "REVOKED" && { revocationDate: now }) },
        { where: { op: "eq", column: "state", value: credential.state } },
      );
      if (!changed) return;
      await recordHistory(deps, tx, context, {
        action,
        entityType: "CREDENTIAL",
        entityId: credential.id,
        name: schema?.name ?? credential.id,
        organisationId: credential.organisationId,
      });
    });
    return result(next);
  }

  return {
    async handleInvitation(rawInput, context = UNSCOPED) {
      const input = parseInput(handleInvitationInputSchema, rawInput);
      const organisationId = resolveTargetOrganisation(context, input.organisationId);
      await requireActiveOrganisation(storage, organisationId);
      if (isDraft20Invitation(input.url)) {
        return draft20.handleInvitation({ url: input.url, organisationId }, context);
      }
      if (isPresentationInvitation(input.url)) {
        return verification.handleInvitation({ url: input.url, organisationId }, context);
      }
      const protocol = protocolInstance();
      sdJwtVcFormat();

      const offer = await resolveCredentialOffer(http, parseInvitationUrl(input.url));
      const issuerUrl = http.checkUrl(offer.credential_issuer, "credential_issuer");
      if (issuerUrl.search !== "" || issuerUrl.hash !== "") {
        throw new CredkitError("BR_0085", "credential_issuer must have no query or fragment (OpenID4VCI 1.0 §12.2.1)");
      }
      const preAuthorized = offer.grants?.[PRE_AUTHORIZED_CODE_GRANT];
      if (preAuthorized === undefined) {
        throw new CredkitError(
          "BR_0085",
          offer.grants?.authorization_code !== undefined
            ? "authorization code flow not supported: the offer has no pre-authorized_code grant"
            : "the offer has no grant this wallet supports (urn:ietf:params:oauth:grant-type:pre-authorized_code)",
        );
      }

      const issuerMetadata = await fetchCredentialIssuerMetadata(http, offer.credential_issuer);
      // one credential per offer for now: the first offered configuration
      const credentialConfigurationId = offer.credential_configuration_ids[0]!;
      const configuration = issuerMetadata.credential_configurations_supported[credentialConfigurationId];
      if (configuration === undefined) {
        throw new CredkitError(
          "BR_0085",
          `offered credential configuration ${JSON.stringify(credentialConfigurationId)} is not in the issuer metadata`,
        );
      }
      if (!SD_JWT_VC_FORMATS.includes(configuration.format)) {
        throw new CredkitError(
          "BR_0085",
          `credential format ${configuration.format} is not supported by this wallet yet`,
        );
      }
      if (configuration.vct === undefined) {
        throw new CredkitError("BR_0085", `credential configuration ${credentialConfigurationId} has no vct`);
      }
      const keyAlgorithms = proofKeyAlgorithms(configuration);
      http.checkUrl(issuerMetadata.credential_endpoint, "credential_endpoint");

      // OpenID4VCI 1.0 §4.1.1: a grant's authorization_server must be one the metadata lists
      const listed = issuerMetadata.authorization_servers;
      if (
        preAuthorized.authorization_server !== undefined &&
        listed &&
        !listed.includes(preAuthorized.authorization_server)
      ) {
        throw new CredkitError(
          "BR_0085",
          `the grant's authorization_server ${preAuthorized.authorization_server} is not listed in authorization_servers`,
        );
      }
      const authorizationServer = preAuthorized.authorization_server ?? listed?.[0] ?? offer.credential_issuer;
      http.checkUrl(authorizationServer, "authorization server");
      let asMetadata: AuthorizationServerMetadata | undefined;
      let tokenEndpoint: string;
      try {
        asMetadata = await fetchAuthorizationServerMetadata(http, authorizationServer);
        tokenEndpoint = asMetadata.token_endpoint;
      } catch (error) {
        // issuers following earlier drafts publish token_endpoint in their own metadata
        if (issuerMetadata.token_endpoint === undefined || !isCredkitError(error) || error.code !== "BR_0395")
          throw error;
        tokenEndpoint = issuerMetadata.token_endpoint;
      }
      http.checkUrl(tokenEndpoint, "token_endpoint");

      const now = clock.now();
      const data: WalletIssuanceData = {
        role: "HOLDER",
        offer,
        issuerMetadata,
        ...(asMetadata !== undefined && { asMetadata }),
        tokenEndpoint,
        credentialConfigurationId,
        ...(preAuthorized.tx_code !== undefined && { txCode: preAuthorized.tx_code }),
        ...(input.redirectUri !== undefined && { redirectUri: input.redirectUri }),
      };
      const interaction: Interaction = {
        id: deps.newId(),
        organisationId,
        interactionType: "ISSUANCE",
        protocol,
        data,
        expiresAt: new Date(now.getTime() + INTERACTION_LIFETIME_MS),
        createdDate: now,
        lastModified: now,
      };
      await storage.interactions.insert(interaction);

      const txCode = preAuthorized.tx_code;
      return {
        interactionId: interaction.id,
        interactionType: "ISSUANCE",
        ...(txCode !== undefined && {
          txCode: {
            // OpenID4VCI 1.0 §4.1.1: input_mode defaults to numeric
            input_mode: txCode.input_mode ?? "numeric",
            ...(txCode.length !== undefined && { length: txCode.length }),
            ...(txCode.description !== undefined && { description: txCode.description }),
          },
        }),
        ...(keyAlgorithms !== undefined && { keyAlgorithms }),
        protocol,
      };
    },

    async acceptIssuance(rawInput, context = UNSCOPED) {
      const input = parseInput(acceptIssuanceInputSchema, rawInput);
      const { interaction, data } = await loadWalletInteraction(input.interactionId, context);
      if (data.credentialId !== undefined) {
        throw new CredkitError(
          "BR_0002",
          `the offer of interaction ${interaction.id} was already accepted (credential ${data.credentialId})`,
        );
      }
      if (isExpired(interaction)) throw new CredkitError("BR_0257", `interaction ${interaction.id} expired`);
      const organisationId = interaction.organisationId;
      if (organisationId === undefined)
        throw new CredkitError("BR_0257", `interaction ${interaction.id} has no organisation`);
      await requireActiveOrganisation(storage, organisationId);
      const format = sdJwtVcFormat();
      if (data.txCode !== undefined && input.txCode === undefined) {
        throw new CredkitError("BR_0170", "the offer requires a transaction code: pass txCode");
      }
      if (data.txCode === undefined && input.txCode !== undefined) {
        throw new CredkitError("BR_0170", "the offer asks for no transaction code: leave txCode out");
      }
      const configuration = data.issuerMetadata.credential_configurations_supported[data.credentialConfigurationId];
      const preAuthorizedCode = data.offer.grants?.[PRE_AUTHORIZED_CODE_GRANT]?.["pre-authorized_code"];
      if (configuration === undefined || preAuthorizedCode === undefined) {
        throw new CredkitError("BR_0257", `interaction ${interaction.id} holds no usable offer`);
      }
      const keyAlgorithms = proofKeyAlgorithms(configuration);
      const holder = await resolveHolderKey(storage, providers, context, organisationId, input);
      if (keyAlgorithms !== undefined && !keyAlgorithms.includes(holder.key.keyType as KeyAlgorithmType)) {
        throw new CredkitError(
          "BR_0043",
          `the issuer takes key proofs from ${keyAlgorithms.join(", ")} keys; the holder key is ${holder.key.keyType}`,
        );
      }
      const holderThumbprint = computeJwkThumbprint(holder.publicJwk);

      // OpenID4VCI 1.0 §6-§8: token, nonce, key proof, credential
      const proofSent = keyAlgorithms !== undefined;
      const obtained = await obtainCredential(http, {
        issuerMetadata: data.issuerMetadata,
        tokenEndpoint: data.tokenEndpoint,
        credentialConfigurationId: data.credentialConfigurationId,
        preAuthorizedCode,
        ...(input.txCode !== undefined && { txCode: input.txCode }),
        ...(proofSent && {
          proof: {
            signer: createKeySigner(providers, holder.key),
            holder: holder.kid !== undefined ? { kid: holder.kid } : { jwk: holder.publicJwk },
          },
        }),
        now: () => clock.now(),
      });
      const { token, tokenReceivedAt } = obtained;
      const metadata = data.issuerMetadata;

      const received = await verifyReceivedCredential(
        obtained.credential,
        configuration,
        holderThumbprint,
        proofSent,
        format.leeway,
      );

      // one transaction: schema, credential, history, interaction — nothing is stored when a step above failed
      const now = clock.now();
      const credentialId = deps.newId();
      const accessTokenExpiresAt = new Date(
        tokenReceivedAt.getTime() +
          (token.expires_in !== undefined ? token.expires_in * 1000 : DEFAULT_TOKEN_LIFETIME_MS),
      );
      await storage.transaction(async (tx) => {
        const schema = await localSchemaFor(
          tx,
          context,
          organisationId,
          { credential: received, configuration, credentialIssuer: metadata.credential_issuer },
          format.name,
          now,
        );
        const credential: Credential = {
          id: credentialId,
          organisationId,
          credentialSchemaId: schema.id,
          role: "HOLDER",
          state: "ACCEPTED",
          protocol: interaction.protocol,
          ...(holder.identifierId !== undefined && { holderIdentifierId: holder.identifierId }),
          holderKeyId: holder.key.id,
          interactionId: interaction.id,
          claims: flattenClaims(schema.claims, received.claims, deps.newId),
          credentialBlob: obtained.credential,
          issuanceDate: received.issuedAt ?? now,
          ...(data.redirectUri !== undefined && { redirectUri: data.redirectUri }),
          createdDate: now,
          lastModified: now,
        };
        await tx.credentials.insert(credential);
        await recordHistory(deps, tx, context, {
          action: "ACCEPTED",
          entityType: "CREDENTIAL",
          entityId: credentialId,
          name: schema.name,
          organisationId,
        });
        const acceptedData: WalletIssuanceData = {
          ...data,
          credentialId,
          issuer: received.issuer,
          // sealed at rest: needed only to send credential_deleted if the issuance is rejected
          accessToken: deps.secrets.seal(token.access_token, interaction.id),
          accessTokenExpiresAt: accessTokenExpiresAt.toISOString(),
          ...(obtained.notificationId !== undefined && { notificationId: obtained.notificationId }),
        };
        const updated = await tx.interactions.update(
          interaction.id,
          // kept as long as the issuance can still be rejected (platform spec §3 move 1)
          { data: acceptedData, expiresAt: accessTokenExpiresAt, lastModified: now },
          { where: { op: "eq", column: "lastModified", value: interaction.lastModified } },
        );
        if (!updated) {
          throw new CredkitError("BR_0002", `the offer of interaction ${interaction.id} was accepted concurrently`);
        }
      });

      // OpenID4VCI 1.0 §11: tell the issuer the credential was stored; its failure does not undo the acceptance
      if (obtained.notificationId !== undefined && metadata.notification_endpoint !== undefined) {
        try {
          await sendNotification(http, {
            notificationEndpoint: metadata.notification_endpoint,
            accessToken: token.access_token,
            notificationId: obtained.notificationId,
            event: "credential_accepted",
          });
        } catch (error) {
          log(`credential_accepted notification for credential ${credentialId} failed: ${detailOf(error)}`, error);
        }
      }
      return { id: credentialId };
    },

    async rejectIssuance(rawInput, context = UNSCOPED) {
      const input = parseInput(rejectIssuanceInputSchema, rawInput);
      const { interaction, data } = await loadWalletInteraction(input.interactionId, context);
      if (data.credentialId === undefined) {
        // not accepted yet: nothing was issued, forget the offer
        if (isExpired(interaction)) throw new CredkitError("BR_0257", `interaction ${interaction.id} expired`);
        await storage.interactions.delete(interaction.id);
        return;
      }
      // platform spec §3 move 1: within the access token lifetime after accept
      const now = clock.now();
      if (data.accessTokenExpiresAt !== undefined && new Date(data.accessTokenExpiresAt).getTime() <= now.getTime()) {
        throw new CredkitError(
          "BR_0237",
          `the access token of interaction ${interaction.id} expired at ${data.accessTokenExpiresAt}: the issuance can no longer be rejected`,
        );
      }
      const credential = requireInScope(
        context,
        await storage.credentials.get(data.credentialId),
        "BR_0001",
        `credential ${data.credentialId}`,
      );
      if (credential.deletedAt !== undefined)
        throw new CredkitError("BR_0001", `credential ${credential.id} not found`);
      const state = transitionCredential(credential.state, "reject");
      const schema = await storage.credentialSchemas.get(credential.credentialSchemaId);
      await storage.transaction(async (tx) => {
        const changed = await tx.credentials.update(
          credential.id,
          { state, lastModified: now },
          { where: { op: "eq", column: "state", value: credential.state } },
        );
        if (!changed) throw new CredkitError("BR_0366", `credential ${credential.id} changed state concurrently`);
        await recordHistory(deps, tx, context, {
          action: "REJECTED",
          entityType: "CREDENTIAL",
          entityId: credential.id,
          name: schema?.name ?? credential.id,
          organisationId: credential.organisationId,
        });
      });
      // platform spec §6.4: credential_deleted to issuers supporting OpenID4VCI notifications (OpenID4VCI 1.0 §11.1)
      const endpoint = data.issuerMetadata.notification_endpoint;
      if (endpoint !== undefined && data.notificationId !== undefined && data.accessToken !== undefined) {
        try {
          await sendNotification(http, {
            notificationEndpoint: endpoint,
            accessToken: deps.secrets.open(data.accessToken, interaction.id),
            notificationId: data.notificationId,
            event: "credential_deleted",
          });
        } catch (error) {
          log(`credential_deleted notification for credential ${credential.id} failed: ${detailOf(error)}`, error);
        }
      }
    },

    async checkRevocation(rawInput, context = UNSCOPED) {
      const input = parseInput(checkRevocationInputSchema, rawInput);
      const credentials: Credential[] = [];
      for (const id of new Set(input.credentialIds)) {
        const credential = requireInScope(context, await storage.credentials.get(id), "BR_0001", `credential ${id}`);
        if (credential.deletedAt !== undefined) throw new CredkitError("BR_0001", `credential ${id} not found`);
        if (credential.role !== "HOLDER") {
          throw new CredkitError("BR_0197", `credential ${id} has role ${credential.role}`);
        }
        credentials.push(credential);
      }
      const reader = createStatusListReader({
        http,
        resolveIssuerKey: issuerKeyResolver(),
        jwsVerifier,
        now: clock.now(),
        leeway: sdJwtVcFormat().leeway,
      });
      const results: RevocationCheckResult[] = [];
      for (const credential of credentials) results.push(await checkOne(credential, reader, context));
      return results;
    },

    getPresentationDefinition: (proofId, context) => verification.presentationDefinitionV2(proofId, context),
    getPresentationDefinitionV1: async (proofId, context) =>
      (await draft20.ownsProof(proofId))
        ? draft20.presentationDefinitionV1(proofId, context)
        : verification.presentationDefinitionV1(proofId, context),
    submitPresentation: (input, context) => verification.submit(input, context),
    submitPresentationV1: async (input, context) => {
      const interactionId = (input as { interactionId?: unknown } | undefined)?.interactionId;
      if (typeof interactionId === "string" && (await draft20.ownsInteraction(interactionId)))
        return draft20.submitV1(input, context);
      return verification.submitV1(input, context);
    },
    rejectPresentation: (input, context) => verification.reject(input, context),
  };
}
