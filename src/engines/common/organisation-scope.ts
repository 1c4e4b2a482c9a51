import type { Organisation } from "../../domain/organisation.js";
import type { ErrorCode } from "../../errors/catalogue.js";
import { CredkitError } from "../../errors/credkit-error.js";
import type { Condition, StorageRepositories } from "../../ports/storage.js";
import type { CallContext } from "./call-context.js";

/** The organisation a write targets: the input's, else the caller's; a different one than the caller's is forbidden. */
export function resolveTargetOrganisation(context: CallContext, requested: string | undefined): string {
  if (context.organisationId !== undefined) {
    if (requested !== undefined && requested !== context.organisationId) {
      throw new CredkitError("BR_0178", "organisationId differs from the caller's organisation");
    }
    return context.organisationId;
  }
  if (requested === undefined) throw new CredkitError("BR_0290", "organisationId is required");
  return requested;
}

/** Loads the organisation new work goes to: it must exist (BR_0022) and be active (BR_0241). */
export async function requireActiveOrganisation(
  storage: StorageRepositories,
  organisationId: string,
): Promise<Organisation> {
  const organisation = await storage.organisations.get(organisationId);
  if (!organisation) throw new CredkitError("BR_0022", `organisation ${organisationId} not found`);
  if (organisation.deactivatedAt !== undefined) {
    throw new CredkitError("BR_0241", `organisation ${organisationId} is deactivated`);
  }
  return organisation;
}

/** Throws `notFound` unless the entity exists and belongs to the caller's organisation (never reveals others'). */
export function requireInScope<T extends { organisationId?: string }>(
  context: CallContext,
  entity: T | undefined,
  notFound: ErrorCode,
  id: string,
): T {
  if (!entity || (context.organisationId !== undefined && entity.organisationId !== context.organisationId)) {
    throw new CredkitError(notFound, `${id} not found`);
  }
  return entity;
}

/** Condition restricting a list to the caller's organisation and/or the requested one. */
export function organisationCondition(context: CallContext, requested: string | undefined): Condition {
  const organisationId = resolveTargetOrganisation(context, requested);
  return { op: "eq", column: "organisationId", value: organisationId };
}
