import { readBuildInfo } from "../../build-info.js";
import { defineRoute } from "../api-route.js";

/** GET /api/config/v1 and /api/build-info/v1 (reference §3.13) */
export const systemInfoRoutes = [
  defineRoute({
    method: "get",
    path: "/api/config/v1",
    permissions: [],
    summary: "Public configuration with provider capabilities",
    tag: "config",
    status: 200,
    handle: async ({ kit }) => kit.publicConfig(),
  }),
  defineRoute({
    method: "get",
    path: "/api/build-info/v1",
    permissions: [],
    summary: "Build information",
    tag: "system",
    status: 200,
    enabled: (config) => config.app.enableServerInfo,
    handle: async () => readBuildInfo(),
  }),
];
