import { z } from "zod";
import type { CredkitConfig } from "../../config/schema.js";
import { CredkitError } from "../../errors/credkit-error.js";
import type { Clock } from "../../ports/clock.js";
import type { Condition, Storage } from "../../ports/storage.js";
import type { HolderService } from "../holder/holder-service.js";
import type { CredentialService } from "../issuer/credential-service.js";
import type { Openid4vciIssuerService } from "../issuer/openid4vci/openid4vci-issuer-service.js";
import type { CertificateService } from "../management/certificate-service.js";
import type { NotificationService } from "../notification/notification-service.js";
import type { Openid4vpVerifier } from "../verifier/openid4vp/openid4vp-verifier.js";
import type { ProofRequestService } from "../verifier/proof-request-service.js";

/** POST /api/task/v1/run (reference §3.10) */
export const runTaskInputSchema = z
  .object({
    /** task instance name (a key of the `task` configuration block) */
    name: z.string().min(1),
    params: z.unknown().optional(),
  })
  .strict();
export type RunTaskInput = z.input<typeof runTaskInputSchema>;

/** A task's own JSON result; the REST endpoint answers it as the response body. */
export type TaskResult = Record<string, unknown>;

/** What the tasks act on: the engines of one credkit. */
export interface TaskTargets {
  config: CredkitConfig;
  storage: Storage;
  clock: Clock;
  notifications: NotificationService;
  openid4vci: Pick<Openid4vciIssuerService, "expireOffers">;
  openid4vp: Pick<Openid4vpVerifier, "expireRequests">;
  credentials: Pick<CredentialService, "reactivate">;
  proofRequests: Pick<ProofRequestService, "deleteClaims">;
  holder: Pick<HolderService, "checkRevocation">;
  certificates: Pick<CertificateService, "checkStates">;
}

export interface TaskService {
  /**
   * Runs the configured task instance `name` once (its `type` decides what it does) and answers its summary.
   * Unknown or disabled name → BR_0089; params that are not an object or carry unknown keys → BR_0405.
   */
  run(name: string, params?: unknown): Promise<TaskResult>;
  /** names of the enabled task instances, in configured order */
  names(): string[];
}

/** Rows handled per page by the sweeping tasks. */
const PAGE = 100;

const noParams = z.object({}).strict();
const PARAM_SCHEMAS: Record<string, z.ZodType<Record<string, unknown>>> = {
  WEBHOOK_NOTIFY: z.object({ limit: z.number().int().positive().optional() }).strict(),
  INTERACTION_EXPIRATION_CHECK: noParams,
  SUSPEND_CHECK: noParams,
  RETAIN_PROOF_CHECK: noParams,
  HOLDER_CHECK_CREDENTIAL_STATUS: noParams,
  CERTIFICATE_CHECK: noParams,
};

const eq = (column: string, value: string): Condition => ({ op: "eq", column, value });

export function createTaskService(targets: TaskTargets): TaskService {
  const { config, storage, clock } = targets;

  /** Rows matching `where`, page by page in id order (rows that stop matching are not revisited). */
  async function* sweep(
    repository: "credentials" | "proofs",
    where: Condition,
  ): AsyncGenerator<{ id: string; state: string }, void, undefined> {
    let after: string | undefined;
    for (;;) {
      const page = await storage[repository].findMany(
        after === undefined ? where : { op: "and", conditions: [where, { op: "gt", column: "id", value: after }] },
        { orderBy: [{ column: "id", direction: "ASC" }], limit: PAGE },
      );
      for (const row of page) yield { id: row.id, state: row.state };
      if (page.length < PAGE) return;
      after = page[page.length - 1]!.id;
    }
  }

  const runners: Record<string, (name: string, params: Record<string, unknown>) => Promise<TaskResult>> = {
    async WEBHOOK_NOTIFY(name, params) {
      const limit = params.limit as number | undefined;
      return { ...(await targets.notifications.deliverDue(name, limit === undefined ? {} : { limit })) };
    },

    async INTERACTION_EXPIRATION_CHECK() {
      const expiredCredentialOffers = await targets.openid4vci.expireOffers();
      const expiredProofRequests = await targets.openid4vp.expireRequests();
      return { expiredCredentialOffers, expiredProofRequests };
    },

    // issuer credentials whose suspension end date has passed are reactivated (reference §8)
    async SUSPEND_CHECK() {
      const now = clock.now();
      const where: Condition = {
        op: "and",
        conditions: [
          eq("role", "ISSUER"),
          eq("state", "SUSPENDED"),
          { op: "lte", column: "suspendEndDate", value: now },
          { op: "isNull", column: "deletedAt" },
        ],
      };
      const updatedCredentialIds: string[] = [];
      const failedCredentialIds: string[] = [];
      for await (const { id } of sweep("credentials", where)) {
        try {
          await targets.credentials.reactivate(id);
          updatedCredentialIds.push(id);
        } catch {
          failedCredentialIds.push(id); // e.g. revoked concurrently
        }
      }
      return {
        totalChecks: updatedCredentialIds.length + failedCredentialIds.length,
        updatedCredentialIds,
        failedCredentialIds,
      };
    },

    // accepted proofs past their retention (proof schema expireDuration) lose their claims (reference §8)
    async RETAIN_PROOF_CHECK() {
      const now = clock.now();
      const where: Condition = {
        op: "and",
        conditions: [
          eq("role", "VERIFIER"),
          eq("state", "ACCEPTED"),
          { op: "lte", column: "retainUntilDate", value: now },
          { op: "isNull", column: "claimsRemovedAt" },
        ],
      };
      const updatedProofIds: string[] = [];
      const failedProofIds: string[] = [];
      for await (const { id } of sweep("proofs", where)) {
        try {
          await targets.proofRequests.deleteClaims(id);
          updatedProofIds.push(id);
        } catch {
          failedProofIds.push(id);
        }
      }
      return { totalChecks: updatedProofIds.length + failedProofIds.length, updatedProofIds, failedProofIds };
    },

    // certificates move NOT_YET_ACTIVE → ACTIVE → EXPIRED by date; identifiers left without one are deactivated
    async CERTIFICATE_CHECK() {
      return { ...(await targets.certificates.checkStates()) };
    },

    // held credentials (ACCEPTED or SUSPENDED) are checked against their status lists (reference §8)
    async HOLDER_CHECK_CREDENTIAL_STATUS() {
      const where: Condition = {
        op: "and",
        conditions: [
          eq("role", "HOLDER"),
          { op: "in", column: "state", values: ["ACCEPTED", "SUSPENDED"] },
          { op: "isNull", column: "deletedAt" },
        ],
      };
      let totalChecks = 0;
      const updatedCredentialIds: string[] = [];
      const failedCredentialIds: string[] = [];
      const batch: { id: string; state: string }[] = [];
      const flush = async () => {
        if (batch.length === 0) return;
        const before = new Map(batch.map((c) => [c.id, c.state]));
        batch.length = 0;
        let results: { credentialId: string; status: string; success: boolean }[];
        try {
          results = await targets.holder.checkRevocation({ credentialIds: [...before.keys()] });
        } catch {
          // one credential changed under us: check them one by one
          results = [];
          for (const id of before.keys()) {
            try {
              results.push(...(await targets.holder.checkRevocation({ credentialIds: [id] })));
            } catch {
              results.push({ credentialId: id, status: before.get(id)!, success: false });
            }
          }
        }
        for (const result of results) {
          totalChecks++;
          if (!result.success) failedCredentialIds.push(result.credentialId);
          else if (result.status !== before.get(result.credentialId)) updatedCredentialIds.push(result.credentialId);
        }
      };
      for await (const credential of sweep("credentials", where)) {
        batch.push(credential);
        if (batch.length >= PAGE) await flush();
      }
      await flush();
      return { totalChecks, updatedCredentialIds, failedCredentialIds };
    },
  };

  return {
    names: () =>
      Object.entries(config.task)
        .filter(([, entry]) => entry.enabled)
        .sort(([, a], [, b]) => (a.order ?? 0) - (b.order ?? 0))
        .map(([name]) => name),

    async run(name, rawParams) {
      const entry = config.task[name];
      if (entry === undefined || !entry.enabled)
        throw new CredkitError("BR_0089", `task ${JSON.stringify(name)} is not configured`);
      const runner = runners[entry.type];
      const schema = PARAM_SCHEMAS[entry.type];
      if (runner === undefined || schema === undefined)
        throw new CredkitError("BR_0089", `task ${name}: type ${entry.type} is not supported by this build`);
      const parsed = schema.safeParse(rawParams ?? {});
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const where = issue && issue.path.length > 0 ? `params.${issue.path.join(".")}` : "params";
        throw new CredkitError("BR_0405", `task ${name}: ${where}: ${issue?.message ?? "invalid"}`);
      }
      return runner(name, parsed.data);
    },
  };
}
