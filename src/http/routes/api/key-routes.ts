import { generateCsrInputSchema } from "../../../engines/management/key-csr.js";
import { createKeyInputSchema, listKeysInputSchema } from "../../../engines/management/key-service.js";
import { defineRoute } from "../api-route.js";

const tag = "key";

/** /api/key/v1 (reference §3.2) */
export const keyRoutes = [
  defineRoute({
    method: "post",
    path: "/api/key/v1",
    permissions: ["KEY_CREATE"],
    summary: "Generate or import a key",
    tag,
    body: createKeyInputSchema,
    status: 201,
    handle: ({ kit, body, context }) => kit.keys.create(body, context),
  }),
  defineRoute({
    method: "get",
    path: "/api/key/v1",
    permissions: ["KEY_LIST"],
    summary: "List keys",
    tag,
    query: listKeysInputSchema,
    status: 200,
    handle: ({ kit, query, context }) => kit.keys.list(query, context),
  }),
  defineRoute({
    method: "get",
    path: "/api/key/v1/{id}",
    permissions: ["KEY_DETAIL"],
    summary: "Key detail",
    tag,
    status: 200,
    handle: ({ kit, params, context }) => kit.keys.get(params.id!, context),
  }),
  defineRoute({
    method: "post",
    path: "/api/key/v1/{id}/generate-csr",
    permissions: ["KEY_GENERATE_CSR"],
    summary: "Generate a PKCS#10 certificate signing request for the key",
    tag,
    body: generateCsrInputSchema,
    // One Core answers CreatedOrErrorResponse
    status: 201,
    handle: ({ kit, params, body, context }) => kit.keys.generateCsr(params.id!, body, context),
  }),
];
