import { DcqlQuery } from "dcql";
import { describe, expect, it } from "vitest";
import { CredkitError, isCredkitError } from "../../../../src/errors/index.js";
import { parseDcqlQuery } from "../../../../src/providers/verification/dcql/index.js";
import { readFixture, SPEC_QUERY_FILES } from "./samples.js";

function parseError(input: unknown): CredkitError {
  try {
    parseDcqlQuery(input);
  } catch (error) {
    if (isCredkitError(error)) return error;
    throw error;
  }
  throw new Error("expected parseDcqlQuery to throw");
}

const sdJwt = (over: Record<string, unknown> = {}) => ({
  id: "pid",
  format: "dc+sd-jwt",
  meta: { vct_values: ["https://credentials.example.com/identity_credential"] },
  claims: [{ path: ["given_name"] }],
  ...over,
});

describe("parseDcqlQuery: the OpenID4VP 1.0 examples", () => {
  it.each(SPEC_QUERY_FILES)("%s parses, and the dcql package accepts it too", (file) => {
    const input = readFixture(file);
    const parsed = parseDcqlQuery(input);
    expect(parsed.credentials.length).toBeGreaterThan(0);
    const reference = DcqlQuery.parse(input as DcqlQuery.Input);
    expect(() => DcqlQuery.validate(reference)).not.toThrow();
    expect(parsed.credentials.map((c) => c.id)).toEqual(reference.credentials.map((c) => c.id));
  });

  it("applies the §6 defaults", () => {
    const parsed = parseDcqlQuery(readFixture("credentials_alternatives.json"));
    for (const credential of parsed.credentials) {
      expect(credential.multiple).toBe(false);
      expect(credential.require_cryptographic_holder_binding).toBe(true);
    }
    expect(parsed.credential_sets?.map((s) => s.required)).toEqual([true, false]);
  });

  it("keeps paths, values, claim_sets and meta as given", () => {
    const values = parseDcqlQuery(readFixture("value_matching_simple.json"));
    expect(values.credentials[0]?.claims?.[3]).toEqual({ path: ["postal_code"], values: ["90210", "90211"] });
    const sets = parseDcqlQuery(readFixture("claims_alternatives.json"));
    expect(sets.credentials[0]?.claim_sets).toEqual([
      ["a", "c", "d", "e"],
      ["a", "b", "e"],
    ]);
    const mdoc = parseDcqlQuery(readFixture("simple_mdoc.json"));
    expect(mdoc.credentials[0]?.meta).toEqual({ doctype_value: "org.iso.7367.1.mVRC" });
  });

  it("accepts the query as JSON text (a dcql_query request parameter)", () => {
    const text = JSON.stringify(readFixture("simple.json"));
    expect(parseDcqlQuery(text)).toEqual(parseDcqlQuery(readFixture("simple.json")));
  });

  it("ignores unknown properties (§6: implementations MUST ignore them) but keeps unknown meta members", () => {
    const parsed = parseDcqlQuery({
      credentials: [
        sdJwt({
          future: 1,
          meta: { vct_values: ["x"], extension: true },
          claims: [{ path: ["a"], extra: "y" }],
        }),
      ],
      credential_sets: [{ options: [["pid"]], purpose: "legacy" }],
      top_level_extension: {},
    });
    expect(parsed).toEqual({
      credentials: [
        {
          id: "pid",
          format: "dc+sd-jwt",
          multiple: false,
          require_cryptographic_holder_binding: true,
          meta: { vct_values: ["x"], extension: true },
          claims: [{ path: ["a"] }],
        },
      ],
      credential_sets: [{ options: [["pid"]], required: true }],
    });
  });

  it("accepts other formats with any meta object, and null / index path components", () => {
    const parsed = parseDcqlQuery({
      credentials: [
        {
          id: "x",
          format: "example_format",
          meta: {},
          claims: [{ path: ["degrees", null, "type"] }, { path: ["nationalities", 0] }],
        },
      ],
    });
    expect(parsed.credentials[0]?.claims?.map((c) => c.path)).toEqual([
      ["degrees", null, "type"],
      ["nationalities", 0],
    ]);
  });
});

describe("parseDcqlQuery: malformed queries are BR_0083", () => {
  const cases: [string, unknown, RegExp][] = [
    ["not an object", 42, /query: must be a JSON object/],
    ["invalid JSON text", "{credentials", /not valid JSON/],
    ["no credentials", {}, /credentials: must be an array/],
    ["empty credentials", { credentials: [] }, /credentials: must be a non-empty array/],
    [
      "duplicate credential query ids",
      { credentials: [sdJwt(), sdJwt()] },
      /credentials\[1\]\.id: duplicate credential query id 'pid'/,
    ],
    ["id with a dot", { credentials: [sdJwt({ id: "my.credential" })] }, /credentials\[0\]\.id: must be a non-empty/],
    ["empty id", { credentials: [sdJwt({ id: "" })] }, /credentials\[0\]\.id/],
    ["id with a space", { credentials: [sdJwt({ id: "a b" })] }, /credentials\[0\]\.id/],
    ["missing format", { credentials: [{ id: "a", meta: {} }] }, /credentials\[0\]\.format: must be a string/],
    [
      "missing meta",
      { credentials: [{ id: "a", format: "dc+sd-jwt" }] },
      /credentials\[0\]\.meta: is required and must be an object/,
    ],
    [
      "dc+sd-jwt without vct_values",
      { credentials: [sdJwt({ meta: {} })] },
      /credentials\[0\]\.meta\.vct_values: is required for dc\+sd-jwt/,
    ],
    ["dc+sd-jwt with empty vct_values", { credentials: [sdJwt({ meta: { vct_values: [] } })] }, /meta\.vct_values/],
    [
      "mso_mdoc without doctype_value",
      { credentials: [{ id: "m", format: "mso_mdoc", meta: {}, claims: [{ path: ["ns", "el"] }] }] },
      /credentials\[0\]\.meta\.doctype_value: is required for mso_mdoc/,
    ],
    [
      "mso_mdoc path of three components",
      {
        credentials: [
          { id: "m", format: "mso_mdoc", meta: { doctype_value: "d" }, claims: [{ path: ["a", "b", "c"] }] },
        ],
      },
      /credentials\[0\]\.claims\[0\]\.path: must be \[namespace, data element identifier\]/,
    ],
    [
      "mso_mdoc path with an index",
      { credentials: [{ id: "m", format: "mso_mdoc", meta: { doctype_value: "d" }, claims: [{ path: ["a", 0] }] }] },
      /claims\[0\]\.path/,
    ],
    [
      "jwt_vc_json without type_values",
      { credentials: [{ id: "w", format: "jwt_vc_json", meta: {} }] },
      /meta\.type_values: is required for jwt_vc_json/,
    ],
    ["empty claims", { credentials: [sdJwt({ claims: [] })] }, /credentials\[0\]\.claims: must be a non-empty array/],
    ["empty path", { credentials: [sdJwt({ claims: [{ path: [] }] })] }, /claims\[0\]\.path: must be a non-empty/],
    [
      "negative index",
      { credentials: [sdJwt({ claims: [{ path: ["a", -1] }] })] },
      /claims\[0\]\.path\[1\]: must be a string, a non-negative integer or null/,
    ],
    ["fractional index", { credentials: [sdJwt({ claims: [{ path: ["a", 1.5] }] })] }, /claims\[0\]\.path\[1\]/],
    ["boolean path component", { credentials: [sdJwt({ claims: [{ path: [true] }] })] }, /claims\[0\]\.path\[0\]/],
    ["empty values", { credentials: [sdJwt({ claims: [{ path: ["a"], values: [] }] })] }, /claims\[0\]\.values/],
    [
      "fractional value",
      { credentials: [sdJwt({ claims: [{ path: ["a"], values: [1.5] }] })] },
      /claims\[0\]\.values\[0\]: must be a string, an integer or a boolean/,
    ],
    ["null value", { credentials: [sdJwt({ claims: [{ path: ["a"], values: [null] }] })] }, /values\[0\]/],
    [
      "duplicate claim ids",
      {
        credentials: [
          sdJwt({
            claims: [
              { id: "a", path: ["x"] },
              { id: "a", path: ["y"] },
            ],
          }),
        ],
      },
      /claims\[1\]\.id: duplicate claim id 'a'/,
    ],
    [
      "claim_sets referencing an unknown claim id",
      { credentials: [sdJwt({ claims: [{ id: "a", path: ["x"] }], claim_sets: [["a", "b"]] })] },
      /claim_sets\[0\]\[1\]: references unknown claim id 'b'/,
    ],
    [
      "claim_sets with a claim lacking an id",
      { credentials: [sdJwt({ claims: [{ id: "a", path: ["x"] }, { path: ["y"] }], claim_sets: [["a"]] })] },
      /claims\[1\]\.id: is required when claim_sets is present/,
    ],
    [
      "claim_sets without claims",
      { credentials: [sdJwt({ claims: undefined, claim_sets: [["a"]] })] },
      /claim_sets: must not be present when claims is absent/,
    ],
    ["empty claim_sets", { credentials: [sdJwt({ claim_sets: [] })] }, /claim_sets: must be a non-empty array/],
    [
      "empty claim set",
      { credentials: [sdJwt({ claims: [{ id: "a", path: ["x"] }], claim_sets: [[]] })] },
      /claim_sets\[0\]: must be a non-empty array/,
    ],
    [
      "credential_sets referencing an unknown credential query",
      { credentials: [sdJwt()], credential_sets: [{ options: [["pid"], ["nope"]] }] },
      /credential_sets\[0\]\.options\[1\]\[0\]: references unknown credential query id 'nope'/,
    ],
    ["empty credential_sets", { credentials: [sdJwt()], credential_sets: [] }, /credential_sets: must be a non-empty/],
    [
      "empty options",
      { credentials: [sdJwt()], credential_sets: [{ options: [] }] },
      /credential_sets\[0\]\.options: must be a non-empty/,
    ],
    [
      "empty option",
      { credentials: [sdJwt()], credential_sets: [{ options: [[]] }] },
      /credential_sets\[0\]\.options\[0\]: must be a non-empty/,
    ],
    [
      "required not a boolean",
      { credentials: [sdJwt()], credential_sets: [{ options: [["pid"]], required: "no" }] },
      /credential_sets\[0\]\.required: must be a boolean/,
    ],
    ["multiple not a boolean", { credentials: [sdJwt({ multiple: "yes" })] }, /credentials\[0\]\.multiple/],
    [
      "require_cryptographic_holder_binding not a boolean",
      { credentials: [sdJwt({ require_cryptographic_holder_binding: 1 })] },
      /require_cryptographic_holder_binding: must be a boolean/,
    ],
    [
      "trusted_authorities with empty values",
      { credentials: [sdJwt({ trusted_authorities: [{ type: "aki", values: [] }] })] },
      /trusted_authorities\[0\]\.values: must be a non-empty/,
    ],
  ];

  it.each(cases)("%s", (_name, input, detail) => {
    const error = parseError(input);
    expect(error.code).toBe("BR_0083");
    expect(error.message).toBe("Invalid DCQL query or presentation definition");
    expect(error.detail).toMatch(detail);
  });

  it("names every problem at once", () => {
    const error = parseError({
      credentials: [sdJwt({ id: "bad id" }), { id: "m", format: "mso_mdoc", meta: {} }],
    });
    expect(error.detail).toMatch(/credentials\[0\]\.id: .*; credentials\[1\]\.meta\.doctype_value/);
  });

  it("the dcql package also rejects the structural and cross-reference errors", () => {
    const rejectedByBoth: unknown[] = [
      { credentials: [] },
      { credentials: [sdJwt(), sdJwt()] },
      { credentials: [sdJwt({ id: "my.credential" })] },
      { credentials: [sdJwt({ claims: [{ path: ["a", -1] }] })] },
      { credentials: [sdJwt({ claims: [{ id: "a", path: ["x"] }], claim_sets: [["a", "b"]] })] },
      { credentials: [sdJwt()], credential_sets: [{ options: [["nope"]] }] },
    ];
    for (const input of rejectedByBoth) {
      expect(() => parseDcqlQuery(input)).toThrow(CredkitError);
      expect(() => DcqlQuery.validate(DcqlQuery.parse(input as DcqlQuery.Input))).toThrow();
    }
  });
});
