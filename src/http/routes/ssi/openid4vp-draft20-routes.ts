import type { Hono } from "hono";
import type { Credkit } from "../../../credkit.js";
import { OAuthError } from "../../../engines/issuer/openid4vci/oauth-error.js";
import { DRAFT20_PATH } from "../../../engines/verifier/openid4vp-draft20/draft20-verifier.js";
import { jsonResponse } from "../../errors/to-error-response.js";
import { handleProtocol, readBoundedText } from "./ssi-handler.js";

/** OpenID4VP draft 20 verifier endpoints (reference §4.2, draft-20 row). */
export function mountOpenid4vpDraft20Routes(app: Hono, kit: Credkit): void {
  const verifier = () => kit.openid4vpDraft20;

  app.get(`${DRAFT20_PATH}/:proofId/client-request`, (c) =>
    handleProtocol(c, async () => {
      const jwt = await verifier().requestObject(c.req.param("proofId"));
      return new Response(jwt, {
        headers: {
          "Content-Type": "application/oauth-authz-req+jwt",
          "Cache-Control": "no-store",
          "X-Content-Type-Options": "nosniff",
        },
      });
    }),
  );

  app.get(`${DRAFT20_PATH}/:proofId/client-metadata`, (c) =>
    handleProtocol(c, async () => jsonResponse(await verifier().clientMetadata(c.req.param("proofId")))),
  );

  app.get(`${DRAFT20_PATH}/:proofId/presentation-definition`, (c) =>
    handleProtocol(c, async () => jsonResponse(await verifier().presentationDefinition(c.req.param("proofId")))),
  );

  app.post(`${DRAFT20_PATH}/response`, (c) =>
    handleProtocol(c, async () => {
      const type = (c.req.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
      if (type !== "application/x-www-form-urlencoded")
        throw new OAuthError("invalid_request", "responses are application/x-www-form-urlencoded");
      const form = new URLSearchParams(await readBoundedText(c, kit.config.app.maxOid4vpResponseBodyBytes));
      return jsonResponse(await verifier().response(form));
    }),
  );
}
