import type { CredkitConfig } from "../../config/schema.js";
import type { Credential } from "../../domain/credential.js";
import type { CredentialSchema } from "../../domain/credential-schema.js";
import type { Proof } from "../../domain/proof.js";
import type { ProofSchema } from "../../domain/proof-schema.js";
import { isCredkitError } from "../../errors/credkit-error.js";
import type { ParsedPresentation } from "../../ports/credential-formatter.js";
import type { Condition } from "../../ports/storage.js";
import { getFormatter } from "../../providers/registry.js";
import type { EngineDeps } from "../common/engine-deps.js";
import { createIssuerKeyResolver } from "../common/issuer-key-resolver.js";
import { createRemoteHttp } from "../common/remote-http.js";
import { createStatusListReader } from "../common/status-list-reader.js";
import { recordHistory } from "../history/record-history.js";
import { OAuthError } from "../issuer/openid4vci/oauth-error.js";
import type { DidService } from "../management/did-service.js";
import { claimsFromDocument } from "./openid4vp/claims-from-document.js";

/** A readable validation failure: the proof ends in ERROR with this reason. */
export class PresentationRejected extends Error {}

/** Whether a claims path (strings, indices, `null` for every element) selects anything in a disclosed document. */
export function hasDisclosedPath(document: unknown, path: readonly (string | number | null)[]): boolean {
  let current: unknown[] = [document];
  for (const step of path) {
    const next: unknown[] = [];
    for (const value of current) {
      if (step === null) {
        if (Array.isArray(value)) next.push(...value);
      } else if (typeof step === "number") {
        if (Array.isArray(value) && step < value.length) next.push(value[step]);
      } else if (typeof value === "object" && value !== null && !Array.isArray(value) && step in value) {
        next.push((value as Record<string, unknown>)[step]);
      }
    }
    current = next;
  }
  return current.length > 0;
}

/** The proof still waits for the response to this interaction (guards against concurrent answers and re-shares). */
export function openProofCondition(interactionId: string): Condition {
  return {
    op: "and",
    conditions: [
      { op: "eq", column: "interactionId", value: interactionId },
      { op: "in", column: "state", values: ["PENDING", "REQUESTED"] },
    ],
  };
}

export interface PresentedCredentialCheck {
  /** names the credential query / input descriptor in failure reasons */
  label: string;
  presentation: string;
  /** the verifier's client_id (KB-JWT `aud`) and the request's nonce */
  audience: string;
  nonce: string;
  schema: CredentialSchema;
  requiredPaths: readonly (readonly (string | number | null)[])[];
  leeway: number;
}

export interface PresentationChecker {
  /**
   * Verifies one presented SD-JWT VC: issuer signature and disclosures, key binding (aud, nonce, sd_hash, iat),
   * validity, vct = the schema's, every required claim disclosed, status list entry valid. Failures are
   * PresentationRejected with a readable reason.
   */
  verify(check: PresentedCredentialCheck): Promise<ParsedPresentation>;
  /** ends the request in ERROR with the reason (history ERRORED) and answers the wallet `invalid_request` */
  fail(proof: Proof, interactionId: string, reason: string): Promise<never>;
  /** the wallet declined (`error=access_denied` …): REJECTED with the reason, once (history REJECTED) */
  reject(
    proof: Proof,
    interactionId: string,
    error: string,
    description: string | null,
  ): Promise<Record<string, never>>;
  /**
   * ACCEPTED: stores the disclosed claims as credentials of role VERIFIER and retires the request, in one
   * transaction; only the first of concurrent identical responses settles the proof.
   */
  accept(
    proof: Proof,
    interactionId: string,
    proofSchema: ProofSchema,
    verified: readonly { credentialSchema: CredentialSchema; parsed: ParsedPresentation }[],
  ): Promise<{ redirect_uri?: string }>;
}

/** The validation both OpenID4VP verifiers (1.0 and draft 20) apply to presentations. */
export function createPresentationChecker(
  deps: EngineDeps,
  config: CredkitConfig,
  dids: DidService,
): PresentationChecker {
  const { storage, clock, providers } = deps;
  const reason = (error: unknown, fallback: string) =>
    isCredkitError(error) ? (error.detail ?? error.message) : fallback;

  return {
    async verify({ label, presentation, audience, nonce, schema, requiredPaths, leeway }) {
      const http = createRemoteHttp({
        fetch: deps.fetch,
        allowInsecureHttp: config.app.http.allowInsecureHttpTransport,
      });
      const resolveIssuerKey = createIssuerKeyResolver({ resolveDid: (did) => dids.resolve(did), http });
      const now = clock.now();
      let parsed: ParsedPresentation;
      try {
        parsed = await getFormatter(providers, schema.format).verifyPresentation(presentation, {
          resolveIssuerKey,
          now,
          leeway,
          keyBinding: { audience, nonce },
        });
      } catch (error) {
        throw new PresentationRejected(`${label}: ${reason(error, "presentation invalid")}`);
      }
      if (parsed.type !== schema.schemaId) {
        throw new PresentationRejected(`${label}: vct ${parsed.type} is not the requested ${schema.schemaId}`);
      }
      for (const path of requiredPaths) {
        if (!hasDisclosedPath(parsed.disclosedClaims, path)) {
          throw new PresentationRejected(
            `${label}: requested claim ${path.map((p) => p ?? "*").join(".")} not disclosed`,
          );
        }
      }
      if (parsed.status) {
        const reader = createStatusListReader({
          http,
          resolveIssuerKey,
          jwsVerifier: providers.jwsVerifier,
          now,
          leeway,
        });
        let status: number;
        try {
          status = await reader.read(parsed.status, parsed.issuer);
        } catch (error) {
          throw new PresentationRejected(`${label}: status list could not be checked: ${reason(error, "error")}`);
        }
        if (status === 1) throw new PresentationRejected(`${label}: credential is revoked`);
        if (status === 2) throw new PresentationRejected(`${label}: credential is suspended`);
        if (status !== 0) throw new PresentationRejected(`${label}: credential status is ${status}`);
      }
      return parsed;
    },

    async fail(proof, interactionId, why) {
      const now = clock.now();
      await storage.transaction(async (tx) => {
        const changed = await tx.proofs.update(
          proof.id,
          { state: "ERROR", errorReason: why, completedDate: now, lastModified: now },
          // the answered request only: not one that a concurrent re-share has replaced
          { where: openProofCondition(interactionId) },
        );
        await tx.interactions.delete(interactionId);
        if (changed) {
          await recordHistory(
            deps,
            tx,
            {},
            {
              action: "ERRORED",
              entityType: "PROOF",
              entityId: proof.id,
              name: why.slice(0, 255),
              organisationId: proof.organisationId,
              metadata: { ErrorMetadata: { errorCode: "BR_0291", message: why } },
            },
          );
        }
      });
      throw new OAuthError("invalid_request", why);
    },

    async reject(proof, interactionId, error, description) {
      const now = clock.now();
      await storage.transaction(async (tx) => {
        // only from an open state of this very request: a concurrent response may have settled it already
        const rejected = await tx.proofs.update(
          proof.id,
          { state: "REJECTED", errorReason: description ?? error, completedDate: now, lastModified: now },
          { where: openProofCondition(interactionId) },
        );
        if (!rejected) throw new OAuthError("invalid_request", "unknown or already answered request");
        await tx.interactions.delete(interactionId);
        await recordHistory(
          deps,
          tx,
          {},
          {
            action: "REJECTED",
            entityType: "PROOF",
            entityId: proof.id,
            name: error,
            organisationId: proof.organisationId,
          },
        );
      });
      return {};
    },

    async accept(proof, interactionId, proofSchema, verified) {
      const now = clock.now();
      const credentials: Credential[] = verified.map(({ credentialSchema, parsed }) => ({
        id: deps.newId(),
        organisationId: proof.organisationId,
        credentialSchemaId: credentialSchema.id,
        role: "VERIFIER",
        state: "ACCEPTED",
        protocol: proof.protocol,
        claims: claimsFromDocument(credentialSchema.claims, parsed.disclosedClaims, deps.newId),
        ...(parsed.issuedAt && { issuanceDate: parsed.issuedAt }),
        createdDate: now,
        lastModified: now,
      }));
      await storage.transaction(async (tx) => {
        const accepted = await tx.proofs.update(
          proof.id,
          {
            state: "ACCEPTED",
            completedDate: now,
            presentedCredentialIds: credentials.map((c) => c.id),
            ...(proofSchema.expireDuration > 0 && {
              retainUntilDate: new Date(now.getTime() + proofSchema.expireDuration * 1000),
            }),
            lastModified: now,
          },
          { where: openProofCondition(interactionId) },
        );
        if (!accepted) throw new OAuthError("invalid_request", "unknown or already answered request");
        for (const credential of credentials) await tx.credentials.insert(credential);
        await tx.interactions.delete(interactionId);
        await recordHistory(
          deps,
          tx,
          {},
          {
            action: "ACCEPTED",
            entityType: "PROOF",
            entityId: proof.id,
            name: proofSchema.name,
            organisationId: proof.organisationId,
          },
        );
      });
      return proof.redirectUri ? { redirect_uri: proof.redirectUri } : {};
    },
  };
}
