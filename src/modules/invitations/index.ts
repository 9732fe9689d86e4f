import { authPlugin } from "../../platform/auth/context";
import { rateLimitPlugin } from "../../platform/http/rate-limit";
import { apiModule, route } from "../../platform/http/route";
import type { Runtime } from "../../platform/runtime";
import { acceptInvitation } from "./accept";
import {
  AcceptInvitationBody,
  AcceptInvitationResult,
  BulkIdsBody,
  BulkResult,
  CheckEmailsBody,
  CheckEmailsResult,
  CreateInvitationsBody,
  CreateInvitationsResult,
  Invitation,
  InvitationPage,
  InvitationParams,
  ListInvitationsQuery,
  TokenParams,
} from "./model";
import {
  bulkCancelInvitations,
  bulkResendInvitations,
  checkInvitationEmails,
  createInvitations,
  listInvitations,
  resendInvitation,
} from "./service";

export function invitationsModule(rt: Runtime) {
  return apiModule("module.invitations")
    .use(authPlugin(rt))
    .use(rateLimitPlugin(rt))
    .post(
      "/invitations",
      async ({ actor, body, set }) => {
        set.status = 201;
        return createInvitations(rt, actor, body);
      },
      {
        ...route("createInvitations", "invitations", "permission:member:invite", {
          summary: "Invite people by e-mail",
          description:
            "Sends an invitation (valid 7 days) to each of up to 500 e-mails with the given role (default `member`). E-mails that are already members or already invited are reported in `failed` (`member`, `invited`). Answers 201 even when every e-mail failed.",
          errors: [
            "400 `VALIDATION_FAILED` when `roleKey` names no role",
            "403 `FORBIDDEN` when a role other than `member` is given without `member:manage-role`, or the role holds a permission the caller does not",
          ],
        }),
        body: CreateInvitationsBody,
        response: { 201: CreateInvitationsResult },
      },
    )
    .get("/invitations", ({ actor, query }) => listInvitations(actor.db, query), {
      ...route("listInvitations", "invitations", "permission:member:invite", {
        summary: "List invitations",
        description: "A page of invitations, filtered by `status` and `search` (e-mail), sorted by `sortBy` (`email`, `createdAt`).",
        errors: ["400 `UNKNOWN_SORT_FIELD` for a `sortBy` other than `email` and `createdAt`"],
      }),
      query: ListInvitationsQuery,
      response: { 200: InvitationPage },
    })
    .post("/invitations/check-emails", ({ actor, body }) => checkInvitationEmails(actor.db, body), {
      ...route("checkInvitationEmails", "invitations", "permission:member:invite", {
        summary: "Check e-mails before inviting",
        description: "For each e-mail: `enable` (can be invited), `member` (already a member) or `invited` (a pending invitation exists).",
      }),
      body: CheckEmailsBody,
      response: { 200: CheckEmailsResult },
    })
    .post("/invitations/bulk-resend", ({ actor, body }) => bulkResendInvitations(rt, actor, body), {
      ...route("bulkResendInvitations", "invitations", "permission:member:invite", {
        summary: "Resend invitations",
        description:
          "Resends up to 500 pending invitations (new `sentAt` and `expiresAt`). Ids that cannot be resent are in `failed`: `cooldown` (within 60 s of the last send), `not-found`, `not-pending`.",
      }),
      body: BulkIdsBody,
      response: { 200: BulkResult },
    })
    .post("/invitations/bulk-cancel", ({ actor, body }) => bulkCancelInvitations(actor.db, body), {
      ...route("bulkCancelInvitations", "invitations", "permission:member:invite", {
        summary: "Cancel invitations",
        description: "Cancels up to 500 pending invitations. Ids that cannot be cancelled are in `failed`: `not-found`, `not-pending`.",
      }),
      body: BulkIdsBody,
      response: { 200: BulkResult },
    })
    .post("/invitations/:invitationId/resend", ({ actor, params }) => resendInvitation(rt, actor, params.invitationId), {
      ...route("resendInvitation", "invitations", "permission:member:invite", {
        summary: "Resend an invitation",
        description: "Resends one pending invitation with new `sentAt` and `expiresAt`.",
        errors: [
          "404 `NOT_FOUND` for an unknown invitation",
          "409 `INVALID_STATE` when it is not pending",
          "429 `RESEND_TOO_SOON` within 60 s of the last send (with `Retry-After`)",
        ],
      }),
      params: InvitationParams,
      response: { 200: Invitation },
    })
    .post(
      "/public/invitations/:token/accept",
      async ({ params, body, set }) => {
        set.status = 201;
        return acceptInvitation(rt, params.token, body);
      },
      {
        ...route("acceptInvitation", "invitations", "public", {
          summary: "Accept an invitation",
          description:
            "Creates the member with the invited e-mail and role from the token of the invitation link; does not sign in. `identifier` is what to sign in with (the `userId` if given, else the e-mail).",
          errors: [
            "404 `NOT_FOUND` for an unknown token",
            "409 `INVALID_STATE` when the invitation was accepted, cancelled or has expired",
            "409 `ALREADY_EXISTS` when the `userId` is taken",
            "429 `RATE_LIMITED` when this address sent too many public sign-in requests this minute (with `Retry-After`)",
          ],
        }),
        ipRateLimit: "auth",
        params: TokenParams,
        body: AcceptInvitationBody,
        response: { 201: AcceptInvitationResult },
      },
    );
}
