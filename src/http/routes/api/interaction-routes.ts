import {
  acceptIssuanceInputSchema,
  checkRevocationInputSchema,
  handleInvitationInputSchema,
  rejectIssuanceInputSchema,
} from "../../../engines/holder/holder-inputs.js";
import { defineRoute } from "../api-route.js";

const tag = "interaction";

/** Wallet endpoints: /api/interaction/v1 (reference §3.8) and the holder's revocation check (reference §3.6). */
export const interactionRoutes = [
  defineRoute({
    method: "post",
    path: "/api/interaction/v1/handle-invitation",
    permissions: ["INTERACTION_ISSUANCE", "INTERACTION_PROOF"],
    summary: "Handle an invitation (OpenID4VCI credential offer)",
    tag,
    body: handleInvitationInputSchema,
    status: 201,
    handle: ({ kit, body, context }) => kit.holder.handleInvitation(body, context),
  }),
  defineRoute({
    method: "post",
    path: "/api/interaction/v1/issuance-accept",
    permissions: ["INTERACTION_ISSUANCE"],
    summary: "Accept an offered credential: obtain, verify and store it",
    tag,
    body: acceptIssuanceInputSchema,
    status: 200,
    handle: ({ kit, body, context }) => kit.holder.acceptIssuance(body, context),
  }),
  defineRoute({
    method: "post",
    path: "/api/interaction/v1/issuance-reject",
    permissions: ["INTERACTION_ISSUANCE"],
    summary: "Reject an offered (or just accepted) credential",
    tag,
    body: rejectIssuanceInputSchema,
    status: 204,
    handle: ({ kit, body, context }) => kit.holder.rejectIssuance(body, context),
  }),
  defineRoute({
    method: "post",
    path: "/api/credential/v1/revocation-check",
    permissions: ["CREDENTIAL_EDIT"],
    summary: "Check the revocation status of held credentials",
    tag: "credential",
    body: checkRevocationInputSchema,
    status: 200,
    handle: ({ kit, body, context }) => kit.holder.checkRevocation(body, context),
  }),
];
