import {
  createOrganisationInputSchema,
  listOrganisationsInputSchema,
  updateOrganisationInputSchema,
} from "../../../engines/management/organisation-service.js";
import { defineRoute } from "../api-route.js";

const tag = "organisation";
const createPlain = createOrganisationInputSchema.omit({ slug: true });
const updatePlain = updateOrganisationInputSchema.omit({ slug: true });

/** /api/organisation/v1 and the STS variants with `slug` (reference §3.1, spec §4.2) */
export const organisationRoutes = [
  defineRoute({
    method: "post",
    path: "/api/organisation/v1",
    permissions: ["STS_ORGANISATION_CREATE"],
    summary: "Create an organisation",
    tag,
    body: createPlain,
    status: 201,
    handle: ({ kit, body, context }) => kit.organisations.create(body, context),
  }),
  defineRoute({
    method: "get",
    path: "/api/organisation/v1",
    permissions: ["STS_ORGANISATION_LIST"],
    summary: "List organisations",
    tag,
    query: listOrganisationsInputSchema,
    status: 200,
    handle: ({ kit, query, context }) => kit.organisations.list(query, context),
  }),
  defineRoute({
    method: "get",
    path: "/api/organisation/v1/{id}",
    permissions: ["STS_ORGANISATION_DETAIL"],
    summary: "Organisation detail",
    tag,
    status: 200,
    handle: ({ kit, params, context }) => kit.organisations.get(params.id!, context),
  }),
  defineRoute({
    method: "patch",
    path: "/api/organisation/v1/{id}",
    permissions: ["STS_ORGANISATION_EDIT"],
    summary: "Update (or create) an organisation",
    tag,
    body: updatePlain,
    status: 204,
    handle: ({ kit, params, body, context }) => kit.organisations.update(params.id!, body, context),
  }),
  defineRoute({
    method: "post",
    path: "/api/sts/organisation/v1",
    permissions: ["STS_ORGANISATION_CREATE"],
    summary: "Create an organisation with a slug",
    tag,
    body: createOrganisationInputSchema,
    status: 201,
    handle: ({ kit, body, context }) => kit.organisations.create(body, context),
  }),
  defineRoute({
    method: "get",
    path: "/api/sts/organisation/v1",
    permissions: ["STS_ORGANISATION_LIST"],
    summary: "List organisations",
    tag,
    query: listOrganisationsInputSchema,
    status: 200,
    handle: ({ kit, query, context }) => kit.organisations.list(query, context),
  }),
  defineRoute({
    method: "get",
    path: "/api/sts/organisation/v1/{id}",
    permissions: ["STS_ORGANISATION_DETAIL"],
    summary: "Organisation detail",
    tag,
    status: 200,
    handle: ({ kit, params, context }) => kit.organisations.get(params.id!, context),
  }),
  defineRoute({
    method: "patch",
    path: "/api/sts/organisation/v1/{id}",
    permissions: ["STS_ORGANISATION_EDIT"],
    summary: "Update an organisation (slug, name, deactivation)",
    tag,
    body: updateOrganisationInputSchema,
    status: 204,
    handle: ({ kit, params, body, context }) => kit.organisations.update(params.id!, body, context),
  }),
];
