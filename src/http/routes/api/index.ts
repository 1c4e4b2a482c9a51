import type { ApiRoute } from "../api-route.js";
import { certificateRoutes } from "./certificate-routes.js";
import { credentialRoutes } from "./credential-routes.js";
import { credentialSchemaRoutes } from "./credential-schema-routes.js";
import { didRoutes } from "./did-routes.js";
import { historyRoutes } from "./history-routes.js";
import { holderProofRoutes } from "./holder-proof-routes.js";
import { identifierRoutes } from "./identifier-routes.js";
import { interactionRoutes } from "./interaction-routes.js";
import { keyRoutes } from "./key-routes.js";
import { organisationRoutes } from "./organisation-routes.js";
import { proofRequestRoutes } from "./proof-request-routes.js";
import { proofSchemaRoutes } from "./proof-schema-routes.js";
import { systemInfoRoutes } from "./system-info-routes.js";
import { taskRoutes } from "./task-routes.js";

/** Every management route; the app mounts these and the OpenAPI document describes them. */
export const API_ROUTES: readonly ApiRoute[] = [
  ...organisationRoutes,
  ...keyRoutes,
  ...didRoutes,
  ...identifierRoutes,
  ...certificateRoutes,
  ...historyRoutes,
  ...credentialSchemaRoutes,
  ...interactionRoutes,
  ...credentialRoutes,
  ...proofSchemaRoutes,
  ...proofRequestRoutes,
  ...holderProofRoutes,
  ...systemInfoRoutes,
  ...taskRoutes,
];
