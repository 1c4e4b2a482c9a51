import { defineRoute } from "../api-route.js";

const tag = "proof-request";

/** Presentation definitions of proof requests the wallet received (reference §3.7, holder side). */
export const holderProofRoutes = [
  defineRoute({
    method: "get",
    path: "/api/proof-request/v1/{id}/presentation-definition",
    permissions: ["PROOF_DETAIL"],
    summary: "Presentation definition (Presentation Exchange); OpenID4VP 1.0 requests use v2",
    tag,
    status: 200,
    handle: ({ kit, params, context }) => kit.holder.getPresentationDefinitionV1(params.id!, context),
  }),
  defineRoute({
    method: "get",
    path: "/api/proof-request/v2/{id}/presentation-definition",
    permissions: ["PROOF_DETAIL"],
    summary: "Presentation definition (DCQL): applicable credentials per credential query",
    tag,
    status: 200,
    handle: ({ kit, params, context }) => kit.holder.getPresentationDefinition(params.id!, context),
  }),
];
