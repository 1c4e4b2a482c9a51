import type { CertificateValidationConfig } from "../../config/certificate-validation.js";
import type { CertificateState } from "../../domain/enums.js";
import type { Certificate } from "../../domain/identifier.js";
import type { Key } from "../../domain/key.js";
import { CredkitError } from "../../errors/credkit-error.js";
import type { Condition, StorageRepositories } from "../../ports/storage.js";
import { parsePemChain } from "../../providers/x509/index.js";
import type { CallContext } from "../common/call-context.js";
import { UNSCOPED } from "../common/call-context.js";
import type { EngineDeps } from "../common/engine-deps.js";
import { requireInScope } from "../common/organisation-scope.js";
import { parseId } from "../common/parse-id.js";
import { recordHistory } from "../history/record-history.js";
import { type CertificateDto, toCertificateDto } from "./certificate-dto.js";
import { type IdentifierCertificatesRequest, prepareIdentifierCertificates } from "./identifier-certificates.js";

/** What the CERTIFICATE_CHECK task answers (One Core's fields, plus the certificates it activated). */
export interface CertificateCheckResult {
  /** NOT_YET_ACTIVE certificates whose chain became valid */
  activatedCertificateIds: string[];
  /** certificates past their expiry (earliest notAfter of the chain) */
  expiredCertificateIds: string[];
  /** credkit reads no CRLs yet: always empty */
  revokedCertificateIds: string[];
  checkFailures: { certificateId: string; failure: string }[];
  /** ACTIVE identifiers left without an ACTIVE or NOT_YET_ACTIVE certificate */
  deactivatedIdentifierIds: string[];
}

export interface CertificateService {
  /** GET /api/certificate/v1/{id}: BR_0223 when unknown, of a deleted identifier, or out of the caller's scope */
  get(id: string, context?: CallContext): Promise<CertificateDto>;
  /** the certificates of an identifier as its detail shows them (oldest first) */
  ofIdentifier(identifierId: string): Promise<CertificateDto[]>;
  /** validates / creates the certificates of a new CERTIFICATE or CA identifier (see prepareIdentifierCertificates) */
  prepare(storage: StorageRepositories, request: IdentifierCertificatesRequest): Promise<Certificate[]>;
  /** inserts prepared certificates with their CREATED history (pass the transaction's repositories) */
  insert(storage: StorageRepositories, context: CallContext, certificates: readonly Certificate[]): Promise<void>;
  /** CERTIFICATE_CHECK: NOT_YET_ACTIVE → ACTIVE → EXPIRED by date, with history; deactivates emptied identifiers */
  checkStates(): Promise<CertificateCheckResult>;
}

const PAGE = 100;

export function createCertificateService(
  deps: EngineDeps,
  validation: Pick<CertificateValidationConfig, "leeway">,
): CertificateService {
  const { storage, clock } = deps;

  async function keysOf(certificates: readonly Certificate[]): Promise<Map<string, Key>> {
    const ids = [...new Set(certificates.flatMap((certificate) => certificate.keyId ?? []))];
    if (ids.length === 0) return new Map();
    return new Map((await storage.keys.findMany({ op: "in", column: "id", values: ids })).map((key) => [key.id, key]));
  }

  /** Moves one certificate from `from` to `to` (only if still in `from`) and records the history action. */
  async function transition(
    certificate: Certificate,
    from: CertificateState,
    to: CertificateState,
    action: "ACTIVATED" | "EXPIRED",
  ): Promise<boolean> {
    const now = clock.now();
    return storage.transaction(async (tx) => {
      const changed = await tx.certificates.update(
        certificate.id,
        { state: to, lastModified: now },
        { where: { op: "eq", column: "state", value: from } },
      );
      if (changed) {
        await recordHistory(deps, tx, UNSCOPED, {
          action,
          entityType: "CERTIFICATE",
          entityId: certificate.id,
          name: certificate.name,
          ...(certificate.organisationId !== undefined && { organisationId: certificate.organisationId }),
        });
      }
      return changed;
    });
  }

  /** Certificates in `state` of identifiers not deleted, page by page in id order. */
  async function* inState(state: CertificateState): AsyncGenerator<Certificate, void, undefined> {
    const where: Condition = {
      op: "and",
      conditions: [
        { op: "eq", column: "state", value: state },
        { op: "exists", table: "identifier", on: { id: "identifierId" }, where: { op: "isNull", column: "deletedAt" } },
      ],
    };
    let after: string | undefined;
    for (;;) {
      const page = await storage.certificates.findMany(
        after === undefined ? where : { op: "and", conditions: [where, { op: "gt", column: "id", value: after }] },
        { orderBy: [{ column: "id", direction: "ASC" }], limit: PAGE },
      );
      yield* page;
      if (page.length < PAGE) return;
      after = page[page.length - 1]!.id;
    }
  }

  return {
    async get(id, context = UNSCOPED) {
      const found = await storage.certificates.get(parseId(id, "BR_0223"));
      const identifier = found ? await storage.identifiers.get(found.identifierId) : undefined;
      const certificate = requireInScope(context, identifier?.deletedAt ? undefined : found, "BR_0223", id);
      const keys = await keysOf([certificate]);
      return toCertificateDto(certificate, certificate.keyId ? keys.get(certificate.keyId) : undefined);
    },

    async ofIdentifier(identifierId) {
      const certificates = await storage.certificates.findMany(
        { op: "eq", column: "identifierId", value: identifierId },
        { orderBy: [{ column: "createdDate", direction: "ASC" }] },
      );
      const keys = await keysOf(certificates);
      return certificates.map((certificate) =>
        toCertificateDto(certificate, certificate.keyId ? keys.get(certificate.keyId) : undefined),
      );
    },

    prepare: (tx, request) => prepareIdentifierCertificates(deps, tx, request, validation.leeway),

    async insert(tx, context, certificates) {
      for (const certificate of certificates) {
        await tx.certificates.insert(certificate);
        await recordHistory(deps, tx, context, {
          action: "CREATED",
          entityType: "CERTIFICATE",
          entityId: certificate.id,
          name: certificate.name,
          ...(certificate.organisationId !== undefined && { organisationId: certificate.organisationId }),
        });
      }
    },

    async checkStates() {
      const now = clock.now();
      const result: CertificateCheckResult = {
        activatedCertificateIds: [],
        expiredCertificateIds: [],
        revokedCertificateIds: [],
        checkFailures: [],
        deactivatedIdentifierIds: [],
      };
      const affected = new Set<string>();

      for await (const certificate of inState("NOT_YET_ACTIVE")) {
        let validFrom: Date;
        try {
          const chain = parsePemChain(certificate.chain);
          validFrom = new Date(Math.max(...chain.map((c) => new Date(c.validFrom).getTime())));
        } catch (error) {
          const failure = error instanceof CredkitError ? (error.detail ?? error.message) : String(error);
          result.checkFailures.push({ certificateId: certificate.id, failure });
          continue;
        }
        if (certificate.expiryDate < now) {
          if (await transition(certificate, "NOT_YET_ACTIVE", "EXPIRED", "EXPIRED")) {
            result.expiredCertificateIds.push(certificate.id);
            affected.add(certificate.identifierId);
          }
        } else if (validFrom <= now && (await transition(certificate, "NOT_YET_ACTIVE", "ACTIVE", "ACTIVATED"))) {
          result.activatedCertificateIds.push(certificate.id);
        }
      }

      for await (const certificate of inState("ACTIVE")) {
        if (certificate.expiryDate >= now) continue;
        if (await transition(certificate, "ACTIVE", "EXPIRED", "EXPIRED")) {
          result.expiredCertificateIds.push(certificate.id);
          affected.add(certificate.identifierId);
        }
      }

      for (const identifierId of affected) {
        const deactivated = await storage.transaction(async (tx) => {
          const usable = await tx.certificates.count({
            op: "and",
            conditions: [
              { op: "eq", column: "identifierId", value: identifierId },
              { op: "in", column: "state", values: ["ACTIVE", "NOT_YET_ACTIVE"] },
            ],
          });
          if (usable > 0) return false;
          const identifier = await tx.identifiers.get(identifierId);
          if (!identifier || identifier.deletedAt || identifier.state !== "ACTIVE") return false;
          const changed = await tx.identifiers.update(
            identifierId,
            { state: "DEACTIVATED", lastModified: clock.now() },
            { where: { op: "eq", column: "state", value: "ACTIVE" } },
          );
          if (changed) {
            await recordHistory(deps, tx, UNSCOPED, {
              action: "DEACTIVATED",
              entityType: "IDENTIFIER",
              entityId: identifierId,
              name: identifier.name,
              ...(identifier.organisationId !== undefined && { organisationId: identifier.organisationId }),
            });
          }
          return changed;
        });
        if (deactivated) result.deactivatedIdentifierIds.push(identifierId);
      }
      return result;
    },
  };
}
