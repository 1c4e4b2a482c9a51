import { z } from "zod";

// `app.auth` (reference §5, platform spec §5). Three modes; the earlier names INSECURE_NONE and STATIC and the earlier
// STS field `ttlJwks` are accepted and normalised, so the parsed value only ever carries the current names.

const seconds = z.number().int().nonnegative();

const httpUrl = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" });

const stsTokenValidationSchema = z
  .strictObject({
    aud: z.string().min(1),
    iss: z.string().min(1),
    jwksUri: httpUrl,
    /** Clock drift tolerated on exp/nbf/iat, in seconds. Mandatory (platform spec §5 rule 6, §8). */
    leeway: seconds,
    /** Seconds after which the JWKS is re-fetched in the background. */
    jwksRefreshAfter: seconds.optional(),
    /** Seconds after which a JWKS that could not be refreshed is no longer used. */
    jwksExpireAfter: seconds.default(3600),
    /** Earlier name of `jwksRefreshAfter`. */
    ttlJwks: seconds.optional(),
  })
  .superRefine((value, ctx) => {
    if (
      value.ttlJwks !== undefined &&
      value.jwksRefreshAfter !== undefined &&
      value.ttlJwks !== value.jwksRefreshAfter
    ) {
      ctx.addIssue({
        code: "custom",
        path: ["ttlJwks"],
        message: "conflicts with jwksRefreshAfter (ttlJwks is its earlier name)",
      });
    }
  })
  .transform(({ ttlJwks, jwksRefreshAfter, ...rest }) => ({
    ...rest,
    jwksRefreshAfter: jwksRefreshAfter ?? ttlJwks ?? 300,
  }))
  .superRefine((value, ctx) => {
    if (value.jwksExpireAfter < value.jwksRefreshAfter) {
      ctx.addIssue({ code: "custom", path: ["jwksExpireAfter"], message: "must not be less than jwksRefreshAfter" });
    }
  });

// Objects of the variants are not strict: switching `mode` through a later file or an environment variable leaves the
// earlier mode's fields behind in the merged input, and they must not turn into errors. They are dropped.
const noneAuthSchema = z.object({
  mode: z.literal(["UNSAFE_NONE", "INSECURE_NONE"]).transform(() => "UNSAFE_NONE" as const),
});

const staticAuthSchema = z.object({
  mode: z.literal(["UNSAFE_STATIC", "STATIC"]).transform(() => "UNSAFE_STATIC" as const),
  staticToken: z.string().min(1),
});

const stsAuthSchema = z.object({
  mode: z.literal("STS"),
  stsTokenValidation: stsTokenValidationSchema,
});

export const AUTH_MODES = ["UNSAFE_NONE", "UNSAFE_STATIC", "STS"] as const;
export type AuthMode = (typeof AUTH_MODES)[number];

export const authSchema = z
  .discriminatedUnion("mode", [noneAuthSchema, staticAuthSchema, stsAuthSchema], {
    error: (issue) =>
      issue.code === "invalid_union"
        ? "must be one of UNSAFE_NONE, UNSAFE_STATIC, STS (earlier names INSECURE_NONE and STATIC are accepted)"
        : undefined,
  })
  .prefault({ mode: "UNSAFE_NONE" });

/** Parsed `app.auth`. */
export type AuthConfig = z.output<typeof authSchema>;
export type StsTokenValidationConfig = Extract<AuthConfig, { mode: "STS" }>["stsTokenValidation"];
