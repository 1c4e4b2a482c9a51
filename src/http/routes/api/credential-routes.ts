import {
  createCredentialInputSchema,
  listCredentialsInputSchema,
  suspendCredentialInputSchema,
} from "../../../engines/issuer/credential-service.js";
import { defineRoute } from "../api-route.js";

const tag = "credential";

/** /api/credential/v1 (reference §3.6) */
export const credentialRoutes = [
  defineRoute({
    method: "post",
    path: "/api/credential/v1",
    permissions: ["CREDENTIAL_ISSUE"],
    summary: "Create a credential to issue",
    tag,
    body: createCredentialInputSchema,
    status: 201,
    handle: ({ kit, body, context }) => kit.credentials.create(body, context),
  }),
  defineRoute({
    method: "get",
    path: "/api/credential/v1",
    permissions: ["CREDENTIAL_LIST"],
    summary: "List credentials",
    tag,
    query: listCredentialsInputSchema,
    status: 200,
    handle: ({ kit, query, context }) => kit.credentials.list(query, context),
  }),
  defineRoute({
    method: "get",
    path: "/api/credential/v1/{id}",
    permissions: ["CREDENTIAL_DETAIL"],
    summary: "Credential detail with claims",
    tag,
    status: 200,
    handle: ({ kit, params, context }) => kit.credentials.get(params.id!, context),
  }),
  defineRoute({
    method: "delete",
    path: "/api/credential/v1/{id}",
    permissions: ["CREDENTIAL_DELETE"],
    summary: "Delete a credential",
    tag,
    status: 204,
    handle: ({ kit, params, context }) => kit.credentials.delete(params.id!, context),
  }),
  defineRoute({
    method: "post",
    path: "/api/credential/v1/{id}/share",
    permissions: ["CREDENTIAL_SHARE"],
    summary: "Offer the credential over OpenID4VCI (credential offer URL)",
    tag,
    status: 201,
    handle: ({ kit, params, context }) => kit.credentials.share(params.id!, context),
  }),
  defineRoute({
    method: "post",
    path: "/api/credential/v1/{id}/revoke",
    permissions: ["CREDENTIAL_REVOKE"],
    summary: "Revoke an issued credential",
    tag,
    status: 204,
    handle: ({ kit, params, context }) => kit.credentials.revoke(params.id!, context),
  }),
  defineRoute({
    method: "post",
    path: "/api/credential/v1/{id}/suspend",
    permissions: ["CREDENTIAL_SUSPEND"],
    summary: "Suspend an issued credential",
    tag,
    body: suspendCredentialInputSchema,
    optionalBody: true,
    status: 204,
    handle: ({ kit, params, body, context }) => kit.credentials.suspend(params.id!, body ?? {}, context),
  }),
  defineRoute({
    method: "post",
    path: "/api/credential/v1/{id}/reactivate",
    permissions: ["CREDENTIAL_REACTIVATE"],
    summary: "Reactivate a suspended credential",
    tag,
    status: 204,
    handle: ({ kit, params, context }) => kit.credentials.reactivate(params.id!, context),
  }),
];
