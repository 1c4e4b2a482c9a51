import type { Hono } from "hono";
import type { Credkit } from "../../../credkit.js";
import { isCredkitError } from "../../../errors/credkit-error.js";
import { emptyResponse, jsonResponse } from "../../errors/to-error-response.js";

/** GET /ssi/did-web/v1/{id}/did.json: the DID documents of did:web DIDs hosted here (reference §4.3). */
export function mountDidWebRoutes(app: Hono, kit: Credkit): void {
  app.get("/ssi/did-web/v1/:id/did.json", async (c) => {
    try {
      const document = await kit.dids.webDocument(c.req.param("id"));
      return jsonResponse(document, 200, { "Content-Type": "application/did+json" });
    } catch (error) {
      if (isCredkitError(error) && error.status === 404) return emptyResponse(404);
      throw error;
    }
  });
}
