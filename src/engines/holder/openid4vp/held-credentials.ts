import type { CredkitConfig } from "../../../config/schema.js";
import type { Credential } from "../../../domain/credential.js";
import type { CredentialSchema } from "../../../domain/credential-schema.js";
import { applyDisclosures, decodeDisclosure, splitSdJwt } from "../../../providers/format/sd-jwt-vc/index.js";
import { decodeCompactJws } from "../../../providers/jose/decode-compact-jws.js";
import type { EngineDeps } from "../../common/engine-deps.js";

/** Held credentials offered to a verifier: ACCEPTED ones, and REVOKED / SUSPENDED ones for failure hints. */
export const PRESENTABLE_STATES = ["ACCEPTED", "SUSPENDED", "REVOKED"] as const;

/** A held SD-JWT VC with every claim it can disclose, and why it cannot be presented (when it cannot). */
export interface HeldSdJwt {
  credential: Credential;
  schema: CredentialSchema;
  /** the issuer payload with all disclosures applied (vct, cnf, exp … included) */
  claims: Record<string, unknown>;
  invalidReason?: string;
}

/** Reads a held credential for presentation; undefined when it is not an SD-JWT VC this wallet can present. */
export function readHeldSdJwt(
  config: CredkitConfig,
  credential: Credential,
  schema: CredentialSchema,
  leeway: number,
  now: Date,
): HeldSdJwt | undefined {
  if (config.format[schema.format]?.type !== "SD_JWT_VC" || !credential.credentialBlob) return undefined;
  let claims: Record<string, unknown>;
  try {
    const parts = splitSdJwt(credential.credentialBlob);
    const { payload } = decodeCompactJws(parts.issuerJwt, "credential");
    claims = applyDisclosures(payload, parts.disclosures.map(decodeDisclosure)).claims;
  } catch {
    return undefined;
  }
  let invalidReason: string | undefined;
  if (credential.state !== "ACCEPTED") invalidReason = `the credential is ${credential.state}`;
  else if (typeof claims.exp === "number" && claims.exp + leeway < now.getTime() / 1000) {
    invalidReason = `the credential expired at ${new Date(claims.exp * 1000).toISOString()}`;
  }
  return { credential, schema, claims, ...(invalidReason !== undefined && { invalidReason }) };
}

/** The organisation's held SD-JWT VCs that could answer a request, newest first. */
export async function listHeldSdJwts(
  deps: Pick<EngineDeps, "storage" | "clock">,
  config: CredkitConfig,
  organisationId: string,
  leeway: number,
): Promise<HeldSdJwt[]> {
  const credentials = await deps.storage.credentials.findMany(
    {
      op: "and",
      conditions: [
        { op: "eq", column: "organisationId", value: organisationId },
        { op: "eq", column: "role", value: "HOLDER" },
        { op: "in", column: "state", values: [...PRESENTABLE_STATES] },
        { op: "isNull", column: "deletedAt" },
      ],
    },
    { orderBy: [{ column: "createdDate", direction: "DESC" }] },
  );
  const schemas = new Map<string, CredentialSchema | undefined>();
  const now = deps.clock.now();
  const held: HeldSdJwt[] = [];
  for (const credential of credentials) {
    if (!schemas.has(credential.credentialSchemaId)) {
      schemas.set(
        credential.credentialSchemaId,
        await deps.storage.credentialSchemas.get(credential.credentialSchemaId),
      );
    }
    const schema = schemas.get(credential.credentialSchemaId);
    const entry = schema ? readHeldSdJwt(config, credential, schema, leeway, now) : undefined;
    if (entry) held.push(entry);
  }
  return held;
}
