import {
  createIdentifierInputSchema,
  listIdentifiersInputSchema,
} from "../../../engines/management/identifier-service.js";
import { defineRoute } from "../api-route.js";

const tag = "identifier";

/** /api/identifier/v1 (reference §3.3) */
export const identifierRoutes = [
  defineRoute({
    method: "post",
    path: "/api/identifier/v1",
    permissions: ["IDENTIFIER_CREATE"],
    summary: "Create an identifier (DID or key)",
    tag,
    body: createIdentifierInputSchema,
    status: 201,
    handle: ({ kit, body, context }) => kit.identifiers.create(body, context),
  }),
  defineRoute({
    method: "get",
    path: "/api/identifier/v1",
    permissions: ["IDENTIFIER_LIST"],
    summary: "List identifiers",
    tag,
    query: listIdentifiersInputSchema,
    status: 200,
    handle: ({ kit, query, context }) => kit.identifiers.list(query, context),
  }),
  defineRoute({
    method: "get",
    path: "/api/identifier/v1/{id}",
    permissions: ["IDENTIFIER_DETAIL"],
    summary: "Identifier detail",
    tag,
    status: 200,
    handle: ({ kit, params, context }) => kit.identifiers.get(params.id!, context),
  }),
  defineRoute({
    method: "delete",
    path: "/api/identifier/v1/{id}",
    permissions: ["IDENTIFIER_DELETE"],
    summary: "Delete an identifier",
    tag,
    status: 204,
    handle: ({ kit, params, context }) => kit.identifiers.delete(params.id!, context),
  }),
];
