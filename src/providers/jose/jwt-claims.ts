import { CredkitError } from "../../errors/index.js";

/**
 * Check the validity window of a JWT claims set (RFC 7519 §4.1.4–4.1.6) at `now`, tolerating `leeway` seconds of clock
 * skew: `exp` must be after now, `nbf` not after now, `iat` not in the future. Claims that are absent are not checked;
 * present ones must be NumericDates. Failures throw CredkitError BR_0355 with a detail such as "credential expired at
 * 2025-01-01T00:00:00.000Z"; `subject` names the token ("credential", "key binding JWT").
 */
export function checkJwtTimes(payload: Record<string, unknown>, now: Date, leeway: number, subject = "JWT"): void {
  const nowSeconds = now.getTime() / 1000;
  const exp = readNumericDate(payload, "exp", subject);
  if (exp !== undefined && nowSeconds >= exp + leeway) {
    throw new CredkitError("BR_0355", `${subject} expired at ${formatNumericDate(exp)}`);
  }
  const nbf = readNumericDate(payload, "nbf", subject);
  if (nbf !== undefined && nowSeconds < nbf - leeway) {
    throw new CredkitError("BR_0355", `${subject} not valid before ${formatNumericDate(nbf)}`);
  }
  const iat = readNumericDate(payload, "iat", subject);
  if (iat !== undefined && iat > nowSeconds + leeway) {
    throw new CredkitError("BR_0355", `${subject} issued in the future (iat ${formatNumericDate(iat)})`);
  }
}

/** A NumericDate claim (seconds since the epoch, RFC 7519 §2) or undefined when absent; anything else throws BR_0355. */
export function readNumericDate(payload: Record<string, unknown>, claim: string, subject = "JWT"): number | undefined {
  const value = payload[claim];
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isFinite(value)) {
    throw new CredkitError("BR_0355", `${subject} ${claim} is not a NumericDate`);
  }
  return value;
}

/** The Date of a NumericDate. */
export function dateOfNumericDate(seconds: number): Date {
  return new Date(seconds * 1000);
}

/** The NumericDate of a Date: whole seconds, rounded down. */
export function numericDateOf(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}

/** ISO 8601 text of a NumericDate for error details (the raw number when it is out of the Date range). */
export function formatNumericDate(seconds: number): string {
  const date = dateOfNumericDate(seconds);
  return Number.isNaN(date.getTime()) ? String(seconds) : date.toISOString();
}
