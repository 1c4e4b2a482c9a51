import {
  createCredentialSchemaInputSchema,
  importCredentialSchemaInputSchema,
  listCredentialSchemasInputSchema,
} from "../../../engines/issuer/credential-schema-service.js";
import { defineRoute } from "../api-route.js";

const tag = "credential-schema";

/** /api/credential-schema/v1 (reference §3.4) */
export const credentialSchemaRoutes = [
  defineRoute({
    method: "post",
    path: "/api/credential-schema/v1",
    permissions: ["CREDENTIAL_SCHEMA_CREATE"],
    summary: "Create a credential schema",
    tag,
    body: createCredentialSchemaInputSchema,
    status: 201,
    handle: ({ kit, body, context }) => kit.credentialSchemas.create(body, context),
  }),
  defineRoute({
    method: "get",
    path: "/api/credential-schema/v1",
    permissions: ["CREDENTIAL_SCHEMA_LIST"],
    summary: "List credential schemas",
    tag,
    query: listCredentialSchemasInputSchema,
    status: 200,
    handle: ({ kit, query, context }) => kit.credentialSchemas.list(query, context),
  }),
  defineRoute({
    method: "post",
    path: "/api/credential-schema/v1/import",
    permissions: ["CREDENTIAL_SCHEMA_CREATE"],
    summary: "Import a shared credential schema",
    tag,
    body: importCredentialSchemaInputSchema,
    status: 201,
    handle: ({ kit, body, context }) => kit.credentialSchemas.import(body, context),
  }),
  defineRoute({
    method: "get",
    path: "/api/credential-schema/v1/{id}",
    permissions: ["CREDENTIAL_SCHEMA_DETAIL"],
    summary: "Credential schema detail",
    tag,
    status: 200,
    handle: ({ kit, params, context }) => kit.credentialSchemas.get(params.id!, context),
  }),
  defineRoute({
    method: "delete",
    path: "/api/credential-schema/v1/{id}",
    permissions: ["CREDENTIAL_SCHEMA_DELETE"],
    summary: "Delete a credential schema",
    tag,
    status: 204,
    handle: ({ kit, params, context }) => kit.credentialSchemas.delete(params.id!, context),
  }),
  defineRoute({
    method: "post",
    path: "/api/credential-schema/v1/{id}/share",
    permissions: ["CREDENTIAL_SCHEMA_SHARE"],
    summary: "Share a credential schema (URL of its public document)",
    tag,
    status: 201,
    handle: ({ kit, params, context }) => kit.credentialSchemas.share(params.id!, context),
  }),
];
