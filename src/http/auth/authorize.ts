import { CredkitError } from "../../errors/index.js";
import type { AuthContext } from "./authenticate.js";
import type { Permission } from "./permissions.js";

/** Whether the caller holds at least one of `anyOf` (always true for `"ALL"` or an empty list). */
export function hasPermission(ctx: AuthContext, ...anyOf: Permission[]): boolean {
  if (ctx.permissions === "ALL" || anyOf.length === 0) return true;
  const granted = ctx.permissions;
  return anyOf.some((permission) => granted.has(permission));
}

/**
 * Throws `CredkitError("BR_0178")` (a bare 403) unless the caller holds one of `anyOf`. With no permissions listed it
 * only requires authentication (the caller already has a context).
 */
export function requirePermission(ctx: AuthContext, ...anyOf: Permission[]): void {
  if (!hasPermission(ctx, ...anyOf)) {
    throw new CredkitError("BR_0178", `requires one of: ${anyOf.join(", ")}`);
  }
}

/**
 * The organisation a request acts on (reference §3.0).
 * - STS: the token's `organisationId`. A `requested` organisation that differs, or any `requested` organisation when
 *   the token names none, is refused with `BR_0178` (403). No organisation at all → `BR_0290`.
 * - other modes: `requested`, or `BR_0290` (400 "Organisation not specified") when it is missing.
 */
export function resolveOrganisationId(ctx: AuthContext, requested?: string): string {
  if (ctx.mode === "STS") {
    if (ctx.organisationId === undefined) {
      if (requested !== undefined) throw new CredkitError("BR_0178", "token is not bound to an organisation");
      throw new CredkitError("BR_0290", "the token carries no organisationId");
    }
    if (requested !== undefined && requested !== ctx.organisationId) {
      throw new CredkitError("BR_0178", "organisation does not match the token");
    }
    return ctx.organisationId;
  }
  if (requested === undefined || requested === "") {
    throw new CredkitError("BR_0290", "organisationId is required");
  }
  return requested;
}
