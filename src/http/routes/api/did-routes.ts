import {
  createDidInputSchema,
  listDidsInputSchema,
  updateDidInputSchema,
} from "../../../engines/management/did-service.js";
import { defineRoute } from "../api-route.js";

const tag = "did";

/** /api/did/v1 (deprecated upstream, still served) and the DID resolver (reference §3.3, §3.13) */
export const didRoutes = [
  defineRoute({
    method: "post",
    path: "/api/did/v1",
    permissions: ["DID_CREATE"],
    summary: "Create a DID (deprecated: create an identifier)",
    tag,
    body: createDidInputSchema,
    status: 201,
    handle: ({ kit, body, context }) => kit.dids.create(body, context),
  }),
  defineRoute({
    method: "get",
    path: "/api/did/v1",
    permissions: ["DID_LIST"],
    summary: "List DIDs",
    tag,
    query: listDidsInputSchema,
    status: 200,
    handle: ({ kit, query, context }) => kit.dids.list(query, context),
  }),
  defineRoute({
    method: "get",
    path: "/api/did/v1/{id}",
    permissions: ["DID_DETAIL"],
    summary: "DID detail",
    tag,
    status: 200,
    handle: ({ kit, params, context }) => kit.dids.get(params.id!, context),
  }),
  defineRoute({
    method: "patch",
    path: "/api/did/v1/{id}",
    permissions: ["DID_DEACTIVATE"],
    summary: "Deactivate a DID",
    tag,
    body: updateDidInputSchema,
    status: 204,
    handle: ({ kit, params, body, context }) => kit.dids.update(params.id!, body, context),
  }),
  defineRoute({
    method: "get",
    path: "/api/did-resolver/v1/{didValue}",
    permissions: ["DID_RESOLVE"],
    summary: "Resolve a DID to its DID document",
    tag,
    status: 200,
    handle: ({ kit, params }) => kit.dids.resolve(params.didValue!),
  }),
];
