import { z } from "zod";
import type { ErrorCode } from "../../errors/catalogue.js";
import { CredkitError } from "../../errors/credkit-error.js";

const uuid = z.uuid();

/** An entity id argument; a malformed id cannot exist, so it is "not found" (the code of the entity's kind). */
export function parseId(id: string, notFound: ErrorCode): string {
  if (typeof id !== "string" || !uuid.safeParse(id).success)
    throw new CredkitError(notFound, `${String(id)} not found`);
  return id;
}
