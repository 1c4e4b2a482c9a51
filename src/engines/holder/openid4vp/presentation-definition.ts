import type { Identifier } from "../../../domain/identifier.js";
import type { DcqlQuery } from "../../../providers/verification/dcql/index.js";
import type { ClaimDto } from "../../issuer/credential-claims.js";
import { type CredentialDetailDto, toCredentialDetail } from "../../issuer/credential-dto.js";
import type { ClaimSchemaDto, CredentialSchemaListItemDto } from "../../issuer/credential-schema-dto.js";
import { toCredentialSchemaListItem } from "../../issuer/credential-schema-dto.js";
import {
  type ConcretePath,
  concretePaths,
  credentialSetsOf,
  type FailureReason,
  type HeldCredential,
  isPathPrefix,
  type QueryOutcome,
} from "./wallet-dcql.js";

/** A claim of an applicable credential, marked with what the request does with it (reference §3.7, v2). */
export interface PresentationDefinitionClaimDto {
  path: string;
  schema: ClaimSchemaDto;
  value: string | number | boolean | PresentationDefinitionClaimDto[];
  /** the request asks for it optionally: the user may add it with `userSelections` */
  userSelection: boolean;
  /** always presented when this credential is chosen */
  required: boolean;
}

export type PresentationDefinitionCredentialDto = Omit<CredentialDetailDto, "claims"> & {
  claims: PresentationDefinitionClaimDto[];
};

export type PresentationDefinitionCredentialQueryDto = {
  multiple: boolean;
  /** why the verifier asks, from the trusted registration certificate concerning this query (its intended use) */
  purpose?: string;
} & (
  | { applicableCredentials: PresentationDefinitionCredentialDto[] }
  | { failureHint: { reason: FailureReason; credentialSchema?: CredentialSchemaListItemDto } }
);

/** GET /api/proof-request/v2/{id}/presentation-definition (reference §3.7, DCQL style). */
export interface PresentationDefinitionV2Dto {
  credentialQueries: Record<string, PresentationDefinitionCredentialQueryDto>;
  credentialSets: { required: boolean; options: string[][] }[];
}

/** Claim DTO path (`address/street`, `nationalities/0`) as path segments. */
function segmentsOf(path: string): string[] {
  return path.split("/");
}

/**
 * Marks every claim: `required` when it is (inside, or on the way to) a claim presented in every case, `userSelection`
 * when it is (inside, or on the way to) an optional requested claim and not required. Claims the request does not
 * ask for carry both false and are never presented.
 */
export function markClaims(
  claims: readonly ClaimDto[],
  required: readonly ConcretePath[],
  optional: readonly ConcretePath[],
): PresentationDefinitionClaimDto[] {
  const touches = (paths: readonly ConcretePath[], segments: string[]) =>
    paths.some((path) => isPathPrefix(path, segments) || isPathPrefix(segments, path));
  return claims.map((claim) => {
    const segments = segmentsOf(claim.path);
    const isRequired = touches(required, segments);
    const marked: PresentationDefinitionClaimDto = {
      path: claim.path,
      schema: claim.schema,
      value: Array.isArray(claim.value) ? markClaims(claim.value, required, optional) : claim.value,
      userSelection: !isRequired && touches(optional, segments),
      required: isRequired,
    };
    return marked;
  });
}

export interface CredentialView {
  claims: ClaimDto[];
  holder?: Identifier;
}

/**
 * Builds the v2 presentation definition from the answered DCQL query; `purposes` (by credential query id) come from
 * the trust information the request carried.
 */
export function toPresentationDefinitionV2(
  query: DcqlQuery,
  outcomes: readonly QueryOutcome[],
  view: (held: HeldCredential) => CredentialView,
  purposes: ReadonlyMap<string, string> = new Map(),
): PresentationDefinitionV2Dto {
  const credentialQueries: Record<string, PresentationDefinitionCredentialQueryDto> = {};
  for (const outcome of outcomes) {
    const multiple = outcome.query.multiple === true;
    const purpose = purposes.get(outcome.query.id);
    if (outcome.failure !== undefined) {
      credentialQueries[outcome.query.id] = {
        multiple,
        ...(purpose !== undefined && { purpose }),
        failureHint: {
          reason: outcome.failure.reason,
          ...(outcome.failure.schema !== undefined && {
            credentialSchema: toCredentialSchemaListItem(outcome.failure.schema),
          }),
        },
      };
      continue;
    }
    credentialQueries[outcome.query.id] = {
      multiple,
      ...(purpose !== undefined && { purpose }),
      applicableCredentials: outcome.applicable.map(({ held, selection }) => {
        const document = held.candidate.claims;
        const required = selection.required.flatMap((claim) => concretePaths(document, claim));
        const optional = selection.optional.flatMap((claim) => concretePaths(document, claim));
        const { claims, holder } = view(held);
        const detail = toCredentialDetail(
          held.credential,
          { schema: held.schema, ...(holder !== undefined && { holder }) },
          [],
        );
        return { ...detail, claims: markClaims(claims, required, optional) };
      }),
    };
  }
  return { credentialQueries, credentialSets: credentialSetsOf(query) };
}
