import { z } from "zod";

// The generic provider entry of reference §7 (`Fields<T>`):
//   <INSTANCE_NAME>: {type, display, order?, priority?, enabled? (default true), params?: {public?, private?}}
// After parsing, `enabled` and both param maps are always present, so consumers never need `?.`.

const displaySchema = z.union([z.string().min(1), z.record(z.string().min(1), z.string())], {
  error: (issue) => (issue.input === undefined ? "required" : "must be a string or a map of language -> string"),
});

const paramMapSchema = z.record(z.string(), z.unknown());

const paramsSchema = z
  .strictObject({ public: paramMapSchema.optional(), private: paramMapSchema.optional() })
  .superRefine((params, ctx) => {
    if (!params.public || !params.private) return;
    const shared = Object.keys(params.private).filter((key) => Object.hasOwn(params.public!, key));
    if (shared.length > 0) {
      ctx.addIssue({
        code: "custom",
        path: ["private"],
        message: `key(s) ${shared.map((key) => `"${key}"`).join(", ")} also set in params.public; a parameter is either public or private`,
      });
    }
  })
  .optional()
  .transform((params) => ({ public: params?.public ?? {}, private: params?.private ?? {} }));

/** Builds the `type` enum of a block with a readable error. */
function typeSchema<const T extends readonly [string, ...string[]]>(block: string, types: T) {
  return z.enum(types, {
    error: (issue) =>
      issue.input === undefined
        ? "required"
        : `unknown ${block} type ${JSON.stringify(issue.input)}; allowed: ${types.join(", ")}`,
  });
}

const commonFields = {
  display: displaySchema,
  order: z.number().optional(),
  priority: z.number().optional(),
  enabled: z.boolean().default(true),
  params: paramsSchema,
};

/** Schema of one entry of a provider block keyed by instance name (`format`, `did`, `task` ...). */
export function providerEntrySchema<const T extends readonly [string, ...string[]]>(block: string, types: T) {
  return z.strictObject({ type: typeSchema(block, types), ...commonFields });
}

/** A provider block: instance name -> entry. */
export function providerBlockSchema<const T extends readonly [string, ...string[]]>(block: string, types: T) {
  return z.record(z.string().min(1), providerEntrySchema(block, types)).default(() => ({}));
}

/**
 * A block keyed by the type itself (`keyAlgorithm`, `identifier`): `type` may be omitted and must equal the key when
 * given; the parsed entry always carries it.
 */
export function typeKeyedBlockSchema<
  const T extends readonly [string, ...string[]],
  E extends z.ZodRawShape = Record<never, never>,
>(block: string, types: T, extraFields?: E) {
  const entry = z.strictObject({ type: typeSchema(block, types).optional(), ...commonFields, ...(extraFields as E) });
  return z
    .partialRecord(z.enum(types), entry, {
      error: (issue) =>
        (issue.code as string) === "unrecognized_keys"
          ? `not a ${block} type (allowed: ${types.join(", ")})`
          : undefined,
    })
    .superRefine((record, ctx) => {
      for (const [key, value] of Object.entries(record) as [string, { type?: string } | undefined][]) {
        if (value?.type !== undefined && value.type !== key) {
          ctx.addIssue({ code: "custom", path: [key, "type"], message: `must equal the key "${key}" (or be omitted)` });
        }
      }
    })
    .transform((record) => {
      const out: Record<string, z.output<typeof entry> & { type: T[number] }> = {};
      for (const [key, value] of Object.entries(record) as [T[number], z.output<typeof entry> | undefined][]) {
        if (value !== undefined) out[key] = Object.assign({ type: key }, value, { type: key });
      }
      return out;
    })
    .default(() => ({}));
}

const genericEntrySchema = z.strictObject({ type: z.string(), ...commonFields });

/** A parsed provider entry; `T` narrows `type` to one block's allowed values. */
export type ConfigEntry<T extends string = string> = Omit<z.output<typeof genericEntrySchema>, "type"> & { type: T };

/** What a configuration author writes for one entry. */
export type ConfigEntryInput<T extends string = string> = Omit<z.input<typeof genericEntrySchema>, "type"> & {
  type: T;
};

/** Public and private parameters merged into one object, as a provider receives them (they never share keys). */
export function mergeEntryParams(entry: Pick<ConfigEntry, "params">): Record<string, unknown> {
  return { ...entry.params.public, ...entry.params.private };
}
