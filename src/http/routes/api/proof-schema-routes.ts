import {
  createProofSchemaInputSchema,
  importProofSchemaInputSchema,
  listProofSchemasInputSchema,
} from "../../../engines/verifier/proof-schema-service.js";
import { defineRoute } from "../api-route.js";

const tag = "proof-schema";

/** /api/proof-schema/v1 (reference §3.5) */
export const proofSchemaRoutes = [
  defineRoute({
    method: "post",
    path: "/api/proof-schema/v1",
    permissions: ["PROOF_SCHEMA_CREATE"],
    summary: "Create a proof schema",
    tag,
    body: createProofSchemaInputSchema,
    status: 201,
    handle: ({ kit, body, context }) => kit.proofSchemas.create(body, context),
  }),
  defineRoute({
    method: "get",
    path: "/api/proof-schema/v1",
    permissions: ["PROOF_SCHEMA_LIST"],
    summary: "List proof schemas",
    tag,
    query: listProofSchemasInputSchema,
    status: 200,
    handle: ({ kit, query, context }) => kit.proofSchemas.list(query, context),
  }),
  defineRoute({
    method: "post",
    path: "/api/proof-schema/v1/import",
    permissions: ["PROOF_SCHEMA_CREATE"],
    summary: "Import a shared proof schema",
    tag,
    body: importProofSchemaInputSchema,
    status: 201,
    handle: ({ kit, body, context }) => kit.proofSchemas.import(body, context),
  }),
  defineRoute({
    method: "get",
    path: "/api/proof-schema/v1/{id}",
    permissions: ["PROOF_SCHEMA_DETAIL"],
    summary: "Proof schema detail",
    tag,
    status: 200,
    handle: ({ kit, params, context }) => kit.proofSchemas.get(params.id!, context),
  }),
  defineRoute({
    method: "delete",
    path: "/api/proof-schema/v1/{id}",
    permissions: ["PROOF_SCHEMA_DELETE"],
    summary: "Delete a proof schema",
    tag,
    status: 204,
    handle: ({ kit, params, context }) => kit.proofSchemas.delete(params.id!, context),
  }),
  defineRoute({
    method: "post",
    path: "/api/proof-schema/v1/{id}/share",
    permissions: ["PROOF_SCHEMA_SHARE"],
    summary: "Share a proof schema",
    tag,
    status: 201,
    handle: ({ kit, params, context }) => kit.proofSchemas.share(params.id!, context),
  }),
];
