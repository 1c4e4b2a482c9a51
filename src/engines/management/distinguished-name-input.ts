import { z } from "zod";
import type { DistinguishedName } from "../../providers/x509/index.js";

/** PrintableString characters (X.680 §41.4). */
const PRINTABLE = /^[A-Za-z0-9 '()+,\-./:=?]+$/;
/**
 * X.520 upper bounds are 64 (ub-common-name, ub-organization-name …) or more; 64 for all. No control characters: NUL
 * cannot be stored as text (Postgres), and CR / LF would forge lines wherever a subject is shown or logged.
 */
const text = z
  .string()
  .min(1)
  .max(64)
  .refine((value) => !/\p{Cc}/u.test(value), "must not contain control characters");

/**
 * A certificate subject (CSR `subject`, certificate `content.subject`, CA `selfSigned.content.subject`): One Core's
 * field names, plus `organisationalUnitName`. At least one attribute; `countryName` is ISO 3166-1 alpha-2.
 */
export const distinguishedNameInputSchema = z
  .object({
    commonName: text.optional(),
    countryName: z
      .string()
      .regex(/^[A-Z]{2}$/, "must be an ISO 3166-1 alpha-2 code")
      .optional(),
    stateOrProvinceName: text.optional(),
    localityName: text.optional(),
    organisationName: text.optional(),
    organisationalUnitName: text.optional(),
    serialNumber: text.regex(PRINTABLE, "must be a PrintableString").optional(),
  })
  .strict()
  .refine((name) => Object.values(name).some((value) => value !== undefined), "give at least one attribute");

/** A parsed subject, typed for the X.509 provider. */
export type DistinguishedNameInput = z.output<typeof distinguishedNameInputSchema> & DistinguishedName;
