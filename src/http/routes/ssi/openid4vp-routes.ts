import type { Hono } from "hono";
import type { Credkit } from "../../../credkit.js";
import { OAuthError } from "../../../engines/issuer/openid4vci/oauth-error.js";
import { jsonResponse } from "../../errors/to-error-response.js";
import { handleProtocol, readBoundedText } from "./ssi-handler.js";

const FINAL = "/ssi/openid4vp/final-1.0";

/** OpenID4VP 1.0 verifier endpoints (reference §4.2, final-1.0 row) and shared proof schemas. */
export function mountOpenid4vpRoutes(app: Hono, kit: Credkit): void {
  app.get(`${FINAL}/:proofId/client-request`, (c) =>
    handleProtocol(c, async () => {
      const jwt = await kit.openid4vp.requestObject(c.req.param("proofId"));
      return new Response(jwt, {
        headers: {
          "Content-Type": "application/oauth-authz-req+jwt",
          "Cache-Control": "no-store",
          "X-Content-Type-Options": "nosniff",
        },
      });
    }),
  );

  app.post(`${FINAL}/response`, (c) =>
    handleProtocol(c, async () => {
      const type = (c.req.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
      if (type !== "application/x-www-form-urlencoded")
        throw new OAuthError("invalid_request", "responses are application/x-www-form-urlencoded");
      // the size limit applies before anything is parsed (app.maxOid4vpResponseBodyBytes)
      const form = new URLSearchParams(await readBoundedText(c, kit.config.app.maxOid4vpResponseBodyBytes));
      return jsonResponse(await kit.openid4vp.response(form));
    }),
  );

  app.get("/ssi/proof-schema/v1/:id", (c) =>
    handleProtocol(c, async () => jsonResponse(await kit.proofSchemas.sharedDocument(c.req.param("id")))),
  );
}
