import type { Hono } from "hono";
import type { Credkit } from "../../../credkit.js";
import { OAuthError } from "../../../engines/issuer/openid4vci/oauth-error.js";
import { emptyResponse, jsonResponse } from "../../errors/to-error-response.js";
import { bearerOf, handleProtocol, readBoundedText, readJsonRequest } from "./ssi-handler.js";

const FINAL = "/ssi/openid4vci/final-1.0";

/**
 * OpenID4VCI 1.0 issuer endpoints (reference §4.1, final-1.0 column; OpenID4VCI 1.0 §4-§12) plus the SD-JWT VC issuer
 * metadata (spec §4.3) and type metadata. Public: security is the protocol's (pre-authorized code, access token, proofs).
 */
export function mountOpenid4vciRoutes(app: Hono, kit: Credkit): void {
  const issuer = kit.openid4vci;

  app.get(`${FINAL}/:schemaId/offer/:credentialId`, (c) =>
    handleProtocol(c, async () =>
      jsonResponse(await issuer.offer(c.req.param("schemaId"), c.req.param("credentialId"))),
    ),
  );

  // issuer metadata: RFC 8615 insertion (§12.2.2) and the appended legacy form
  const issuerMetadata = (c: import("hono").Context) =>
    handleProtocol(c, async () =>
      jsonResponse(await issuer.issuerMetadata(c.req.param("protocolId")!, c.req.param("schemaId")!)),
    );
  app.get(`/.well-known/openid-credential-issuer${FINAL}/:protocolId/:schemaId`, issuerMetadata);
  app.get(`${FINAL}/:protocolId/:schemaId/.well-known/openid-credential-issuer`, issuerMetadata);

  const asMetadata = (c: import("hono").Context) =>
    handleProtocol(c, async () =>
      jsonResponse(await issuer.authorizationServerMetadata(c.req.param("protocolId")!, c.req.param("schemaId")!)),
    );
  app.get(`/.well-known/oauth-authorization-server${FINAL}/:protocolId/:schemaId`, asMetadata);
  app.get(`${FINAL}/:protocolId/:schemaId/.well-known/oauth-authorization-server`, asMetadata);

  app.post(`${FINAL}/:schemaId/token`, (c) =>
    handleProtocol(c, async () => {
      const type = (c.req.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
      if (type !== "application/x-www-form-urlencoded") {
        throw new OAuthError("invalid_request", "token requests are application/x-www-form-urlencoded");
      }
      const form = new URLSearchParams(await readBoundedText(c));
      return jsonResponse(await issuer.token(c.req.param("schemaId"), form));
    }),
  );

  app.post(`${FINAL}/:protocolId/nonce`, (c) =>
    handleProtocol(c, async () => jsonResponse(await issuer.nonce(c.req.param("protocolId")))),
  );

  app.post(`${FINAL}/:schemaId/credential`, (c) =>
    handleProtocol(c, async () => {
      const token = bearerOf(c);
      if (!token) throw new OAuthError("invalid_token", "Bearer access token required", 401);
      return jsonResponse(await issuer.credential(c.req.param("schemaId"), token, await readJsonRequest(c)));
    }),
  );

  app.post(`${FINAL}/:schemaId/notification`, (c) =>
    handleProtocol(c, async () => {
      const token = bearerOf(c);
      if (!token) throw new OAuthError("invalid_token", "Bearer access token required", 401);
      await issuer.notification(c.req.param("schemaId"), token, await readJsonRequest(c));
      return emptyResponse(204);
    }),
  );

  app.get("/.well-known/jwt-vc-issuer/ssi/openid4vci/:protocolId/:identifierId/:schemaId", (c) =>
    handleProtocol(c, async () =>
      jsonResponse(
        await issuer.jwtVcIssuerMetadata(
          c.req.param("protocolId"),
          c.req.param("identifierId"),
          c.req.param("schemaId"),
        ),
      ),
    ),
  );

  app.get("/ssi/vct/v1/:organisationId/:vctType", (c) =>
    handleProtocol(c, async () =>
      jsonResponse(await issuer.vctMetadata(c.req.param("organisationId"), c.req.param("vctType"))),
    ),
  );

  app.get("/ssi/schema/v1/:id", (c) =>
    handleProtocol(c, async () => jsonResponse(await kit.credentialSchemas.sharedDocument(c.req.param("id")))),
  );

  app.get("/ssi/revocation/v1/list/:id", (c) =>
    handleProtocol(c, async () => {
      const token = await kit.statusLists.token(c.req.param("id"));
      return new Response(token, {
        headers: {
          "Content-Type": "application/statuslist+jwt",
          "Cache-Control": "no-store",
          "X-Content-Type-Options": "nosniff",
        },
      });
    }),
  );
}
