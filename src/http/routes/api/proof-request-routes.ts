import {
  createProofRequestInputSchema,
  listProofRequestsInputSchema,
  shareProofRequestInputSchema,
} from "../../../engines/verifier/proof-request-service.js";
import { defineRoute } from "../api-route.js";

const tag = "proof-request";

/** /api/proof-request/v1 (reference §3.7), verifier side */
export const proofRequestRoutes = [
  defineRoute({
    method: "post",
    path: "/api/proof-request/v1",
    permissions: ["PROOF_ISSUE"],
    summary: "Create a proof request",
    tag,
    body: createProofRequestInputSchema,
    status: 201,
    handle: ({ kit, body, context }) => kit.proofRequests.create(body, context),
  }),
  defineRoute({
    method: "get",
    path: "/api/proof-request/v1",
    permissions: ["PROOF_LIST"],
    summary: "List proof requests",
    tag,
    query: listProofRequestsInputSchema,
    status: 200,
    handle: ({ kit, query, context }) => kit.proofRequests.list(query, context),
  }),
  defineRoute({
    method: "get",
    path: "/api/proof-request/v1/{id}",
    permissions: ["PROOF_DETAIL"],
    summary: "Proof request detail with received claims",
    tag,
    status: 200,
    handle: ({ kit, params, context }) => kit.proofRequests.get(params.id!, context),
  }),
  defineRoute({
    method: "get",
    path: "/api/proof-request/v1/{id}/trust-detail",
    permissions: ["PROOF_DETAIL"],
    summary: "Trust information of the verifier a wallet received with the request ({} when none)",
    tag,
    status: 200,
    handle: ({ kit, params, context }) => kit.proofRequests.trustDetail(params.id!, context),
  }),
  defineRoute({
    method: "post",
    path: "/api/proof-request/v1/{id}/share",
    permissions: ["PROOF_SHARE"],
    summary: "Share a proof request (openid4vp:// URL)",
    tag,
    body: shareProofRequestInputSchema,
    optionalBody: true,
    status: 201,
    handle: ({ kit, params, body, context }) => kit.proofRequests.share(params.id!, body ?? {}, context),
  }),
  defineRoute({
    method: "delete",
    path: "/api/proof-request/v1/{id}",
    permissions: ["PROOF_DELETE"],
    summary: "Delete (or retract) a proof request",
    tag,
    status: 204,
    handle: ({ kit, params, context }) => kit.proofRequests.delete(params.id!, context),
  }),
  defineRoute({
    method: "delete",
    path: "/api/proof-request/v1/{id}/claims",
    permissions: ["PROOF_CLAIMS_DELETE"],
    summary: "Remove the received claims of a proof",
    tag,
    status: 204,
    handle: ({ kit, params, context }) => kit.proofRequests.deleteClaims(params.id!, context),
  }),
];
