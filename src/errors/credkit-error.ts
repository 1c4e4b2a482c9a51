import { ERROR_CATALOGUE, type ErrorCode } from "./catalogue.js";

/**
 * The one error type every credkit layer throws. `code` is a stable `BR_xxxx` string (Procivis One Core catalogue)
 * that callers can switch on; `message` is the fixed catalogue text; `status` the HTTP status the REST layer answers
 * with; `detail` explains this particular failure (sent as `cause.message` unless the deployment hides causes).
 */
export class CredkitError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly detail?: string;

  constructor(code: ErrorCode, detail?: string, options?: { cause?: unknown }) {
    const [status, message] = ERROR_CATALOGUE[code];
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "CredkitError";
    this.code = code;
    this.status = status;
    if (detail !== undefined) this.detail = detail;
  }

  toJSON(): { code: ErrorCode; message: string; cause?: { message: string } } {
    return this.detail === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, cause: { message: this.detail } };
  }
}

export function isCredkitError(value: unknown): value is CredkitError {
  return value instanceof CredkitError;
}

/** Message of the catalogue entry for a code. */
export function describeErrorCode(code: ErrorCode): { status: number; message: string } {
  const [status, message] = ERROR_CATALOGUE[code];
  return { status, message };
}
