import type { ZodError, z } from "zod";
import { CredkitError } from "../../errors/credkit-error.js";

/** Readable one-line summary of a zod failure: `keyType: expected string; foo: unknown field`. */
export function describeZodError(error: ZodError): string {
  return error.issues
    .map((issue) => {
      const path = issue.path.map(String).join(".");
      if (issue.code === "unrecognized_keys") {
        const prefix = path ? `${path}.` : "";
        return issue.keys.map((k) => `${prefix}${k}: unknown field`).join("; ");
      }
      return `${path || "(root)"}: ${issue.message}`;
    })
    .join("; ");
}

/** Validates engine input with its zod schema; failures are BR_0084 with a readable cause, never a zod dump. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw new CredkitError("BR_0084", describeZodError(result.error));
  return result.data;
}
