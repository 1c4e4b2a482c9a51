import { z } from "zod";
import { CredkitError } from "../../../errors/credkit-error.js";

/**
 * Digital Credentials Query Language (DCQL) query, OpenID for Verifiable Presentations 1.0 §6.
 *
 * The schema is strict on the structure §6 defines (types, non-empty arrays, identifier syntax, cross references) and,
 * as §6 requires ("Implementations MUST ignore any unknown properties"), ignores properties it does not know: they
 * are dropped from the parsed value, except inside `meta`, whose members are format specific and are kept as given.
 */

/** One component of a claims path pointer (§7): object key, array index, or `null` for every array element. */
export type ClaimsPathComponent = string | number | null;

/** A claims path pointer (§7): a non-empty array of strings, non-negative integers and nulls. */
export type ClaimsPathPointer = ClaimsPathComponent[];

/** A value a Claims Query's `values` may list (§6.3): string, integer or boolean. */
export type DcqlClaimValue = string | number | boolean;

/** Claims Query (§6.3). */
export interface ClaimsQuery {
  /** Required when the Credential Query has `claim_sets`; unique within the Credential Query's `claims`. */
  id?: string;
  /** Claims path pointer; for `mso_mdoc` exactly `[namespace, data element identifier]`. */
  path: ClaimsPathPointer;
  /** Expected values: the claim matches when its type and value equal one of them. */
  values?: DcqlClaimValue[];
  /** `mso_mdoc` only (Appendix B.2.4): ISO 18013-5 IntentToRetain. */
  intent_to_retain?: boolean;
}

/** Trusted Authorities Query (§6.1.1); `type` is `aki`, `etsi_tl`, `openid_federation` or a type defined elsewhere. */
export interface TrustedAuthoritiesQuery {
  type: string;
  values: string[];
}

/**
 * `meta` of a Credential Query (§6.1): format specific. `vct_values` is required for `dc+sd-jwt` (Appendix B.3.5),
 * `doctype_value` for `mso_mdoc` (Appendix B.2.3), `type_values` for `jwt_vc_json` and `ldp_vc` (Appendix B.1.1).
 * Other members are kept as sent.
 */
export interface CredentialQueryMeta {
  vct_values?: string[];
  doctype_value?: string;
  type_values?: string[][];
  [member: string]: unknown;
}

/** Credential Query (§6.1), defaults applied. */
export interface CredentialQuery {
  id: string;
  format: string;
  /** Default `false`: exactly one Presentation for this query. */
  multiple: boolean;
  meta: CredentialQueryMeta;
  trusted_authorities?: TrustedAuthoritiesQuery[];
  /** Default `true`. */
  require_cryptographic_holder_binding: boolean;
  claims?: ClaimsQuery[];
  /** Options of claim ids, most preferred first. */
  claim_sets?: string[][];
}

/** Credential Set Query (§6.2), defaults applied. */
export interface CredentialSetQuery {
  /** Each option is a list of Credential Query ids that together satisfy the set. */
  options: string[][];
  /** Default `true`. */
  required: boolean;
}

/** A parsed DCQL query (§6), defaults applied. */
export interface DcqlQuery {
  credentials: CredentialQuery[];
  credential_sets?: CredentialSetQuery[];
}

const ID_PATTERN = /^[A-Za-z0-9_-]+$/;

/** Credential formats whose `meta` content this module understands and checks. */
const SD_JWT_VC_FORMAT = "dc+sd-jwt";
const MDOC_FORMAT = "mso_mdoc";
const W3C_FORMATS: ReadonlySet<string> = new Set(["jwt_vc_json", "ldp_vc"]);

const idSchema = z
  .string({ error: "must be a string" })
  .regex(ID_PATTERN, { error: "must be a non-empty string of letters, digits, '_' or '-'" });

function nonEmptyArray<T extends z.ZodType>(item: T) {
  return z.array(item, { error: "must be an array" }).min(1, { error: "must be a non-empty array" });
}

const PATH_COMPONENT_ERROR = "must be a string, a non-negative integer or null";
const pathComponentSchema = z.union(
  [z.string(), z.int({ error: PATH_COMPONENT_ERROR }).nonnegative({ error: PATH_COMPONENT_ERROR }), z.null()],
  { error: PATH_COMPONENT_ERROR },
);

const CLAIM_VALUE_ERROR = "must be a string, an integer or a boolean";
const claimValueSchema = z.union([z.string(), z.int({ error: CLAIM_VALUE_ERROR }), z.boolean()], {
  error: CLAIM_VALUE_ERROR,
});

const claimsQuerySchema = z.object(
  {
    id: idSchema.optional(),
    path: nonEmptyArray(pathComponentSchema),
    values: nonEmptyArray(claimValueSchema).optional(),
    intent_to_retain: z.boolean({ error: "must be a boolean" }).optional(),
  },
  { error: "must be an object" },
);

const trustedAuthoritiesQuerySchema = z.object(
  {
    type: z.string({ error: "must be a string" }).min(1, { error: "must be a non-empty string" }),
    values: nonEmptyArray(z.string({ error: "must be a string" })),
  },
  { error: "must be an object" },
);

const credentialQuerySchema = z
  .object(
    {
      id: idSchema,
      format: z.string({ error: "must be a string" }).min(1, { error: "must be a non-empty string" }),
      multiple: z.boolean({ error: "must be a boolean" }).default(false),
      meta: z.record(z.string(), z.unknown(), { error: "is required and must be an object" }),
      trusted_authorities: nonEmptyArray(trustedAuthoritiesQuerySchema).optional(),
      require_cryptographic_holder_binding: z.boolean({ error: "must be a boolean" }).default(true),
      claims: nonEmptyArray(claimsQuerySchema).optional(),
      claim_sets: nonEmptyArray(nonEmptyArray(idSchema)).optional(),
    },
    { error: "must be an object" },
  )
  .superRefine((query, ctx) => {
    checkMeta(query.format, query.meta, ctx);
    checkClaims(query, ctx);
  });

const credentialSetQuerySchema = z.object(
  {
    options: nonEmptyArray(nonEmptyArray(idSchema)),
    required: z.boolean({ error: "must be a boolean" }).default(true),
  },
  { error: "must be an object" },
);

const dcqlQueryObjectSchema = z
  .object(
    {
      credentials: nonEmptyArray(credentialQuerySchema),
      credential_sets: nonEmptyArray(credentialSetQuerySchema).optional(),
    },
    { error: "must be a JSON object" },
  )
  .superRefine((query, ctx) => {
    const seen = new Set<string>();
    query.credentials.forEach((credential, index) => {
      if (seen.has(credential.id)) {
        ctx.addIssue({
          code: "custom",
          path: ["credentials", index, "id"],
          message: `duplicate credential query id '${credential.id}'`,
        });
      }
      seen.add(credential.id);
    });
    query.credential_sets?.forEach((set, setIndex) => {
      set.options.forEach((option, optionIndex) => {
        option.forEach((id, idIndex) => {
          if (!seen.has(id)) {
            ctx.addIssue({
              code: "custom",
              path: ["credential_sets", setIndex, "options", optionIndex, idIndex],
              message: `references unknown credential query id '${id}'`,
            });
          }
        });
      });
    });
  });

type RefineContext = z.core.$RefinementCtx<unknown>;

function checkMeta(format: string, meta: Record<string, unknown>, ctx: RefineContext): void {
  const issue = (member: string, message: string) => ctx.addIssue({ code: "custom", path: ["meta", member], message });
  if (format === SD_JWT_VC_FORMAT) {
    const vct = meta.vct_values;
    if (!Array.isArray(vct) || vct.length === 0 || !vct.every((v) => typeof v === "string")) {
      issue("vct_values", "is required for dc+sd-jwt and must be a non-empty array of strings");
    }
  } else if (format === MDOC_FORMAT) {
    if (typeof meta.doctype_value !== "string" || meta.doctype_value === "") {
      issue("doctype_value", "is required for mso_mdoc and must be a non-empty string");
    }
  } else if (W3C_FORMATS.has(format)) {
    const types = meta.type_values;
    const valid =
      Array.isArray(types) &&
      types.length > 0 &&
      types.every((t) => Array.isArray(t) && t.length > 0 && t.every((v) => typeof v === "string"));
    if (!valid)
      issue("type_values", `is required for ${format} and must be a non-empty array of non-empty string arrays`);
  }
}

function checkClaims(
  query: { format: string; claims?: z.output<typeof claimsQuerySchema>[]; claim_sets?: string[][] },
  ctx: RefineContext,
): void {
  const claims = query.claims ?? [];
  if (query.format === MDOC_FORMAT) {
    claims.forEach((claim, index) => {
      if (claim.path.length !== 2 || !claim.path.every((c) => typeof c === "string")) {
        ctx.addIssue({
          code: "custom",
          path: ["claims", index, "path"],
          message: "must be [namespace, data element identifier] (two strings) for mso_mdoc",
        });
      }
    });
  }
  const ids = new Set<string>();
  claims.forEach((claim, index) => {
    if (claim.id === undefined) return;
    if (ids.has(claim.id)) {
      ctx.addIssue({
        code: "custom",
        path: ["claims", index, "id"],
        message: `duplicate claim id '${claim.id}'`,
      });
    }
    ids.add(claim.id);
  });
  if (query.claim_sets === undefined) return;
  if (query.claims === undefined) {
    ctx.addIssue({ code: "custom", path: ["claim_sets"], message: "must not be present when claims is absent" });
    return;
  }
  claims.forEach((claim, index) => {
    if (claim.id === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["claims", index, "id"],
        message: "is required when claim_sets is present",
      });
    }
  });
  query.claim_sets.forEach((set, setIndex) => {
    set.forEach((id, idIndex) => {
      if (!ids.has(id)) {
        ctx.addIssue({
          code: "custom",
          path: ["claim_sets", setIndex, idIndex],
          message: `references unknown claim id '${id}'`,
        });
      }
    });
  });
}

/**
 * The zod schema of a DCQL query. Its output is a {@link DcqlQuery}: the refinements check what the structural
 * types cannot (format specific `meta`, identifiers and their references).
 */
export const dcqlQuerySchema = dcqlQueryObjectSchema as unknown as z.ZodType<DcqlQuery>;

/** `credentials[0].claims[1].path` */
function formatIssuePath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else out += out === "" ? String(segment) : `.${String(segment)}`;
  }
  return out === "" ? "query" : out;
}

/** One line per problem, `credentials[0].meta.vct_values: is required ...`, joined with `; `. */
function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${formatIssuePath(issue.path)}: ${issue.message}`).join("; ");
}

/**
 * Validates a DCQL query (a JSON value, or its JSON text as it arrives in a `dcql_query` request parameter) and
 * returns it with defaults applied (`multiple: false`, `require_cryptographic_holder_binding: true`,
 * `required: true`). Throws BR_0083 whose detail names every problem with its location.
 */
export function parseDcqlQuery(input: unknown): DcqlQuery {
  let value = input;
  if (typeof input === "string") {
    try {
      value = JSON.parse(input);
    } catch {
      throw new CredkitError("BR_0083", "DCQL query is not valid JSON");
    }
  }
  const result = dcqlQueryObjectSchema.safeParse(value);
  if (!result.success) throw new CredkitError("BR_0083", `Invalid DCQL query: ${describeIssues(result.error)}`);
  return result.data as DcqlQuery;
}
