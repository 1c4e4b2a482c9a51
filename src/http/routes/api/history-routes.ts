import { createHistoryInputSchema, listHistoryInputSchema } from "../../../engines/history/history-service.js";
import { defineRoute } from "../api-route.js";

const tag = "history";

/** /api/history/v1 (reference §3.9, spec §6.4.2) */
export const historyRoutes = [
  defineRoute({
    method: "get",
    path: "/api/history/v1",
    permissions: ["HISTORY_LIST", "SYSTEM_HISTORY_LIST"],
    summary: "List history events",
    tag,
    query: listHistoryInputSchema,
    status: 200,
    handle: ({ kit, query, context }) => kit.history.list(query, context),
  }),
  defineRoute({
    method: "get",
    path: "/api/history/v1/{id}",
    permissions: ["HISTORY_DETAIL", "SYSTEM_HISTORY_DETAIL"],
    summary: "History event detail",
    tag,
    status: 200,
    handle: ({ kit, params, context }) => kit.history.get(params.id!, context),
  }),
  defineRoute({
    method: "post",
    path: "/api/history/v1",
    permissions: ["HISTORY_CREATE"],
    summary: "Push a history event from another service",
    tag,
    body: createHistoryInputSchema,
    status: 201,
    enabled: (config) => config.app.enableHistoryCreateEndpoint,
    handle: ({ kit, body, context }) => kit.history.create(body, context),
  }),
];
