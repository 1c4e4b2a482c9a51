import { defineRoute } from "../api-route.js";

const tag = "certificate";

/** /api/certificate/v1 (reference §3.3): certificates of CERTIFICATE and CA identifiers */
export const certificateRoutes = [
  defineRoute({
    method: "get",
    path: "/api/certificate/v1/{id}",
    permissions: ["IDENTIFIER_DETAIL"],
    summary: "Certificate detail (chain, state, x509Attributes)",
    tag,
    status: 200,
    handle: ({ kit, params, context }) => kit.certificates.get(params.id!, context),
  }),
];
