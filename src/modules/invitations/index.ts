import { Elysia } from "elysia";
import { authPlugin } from "../../platform/auth/context";
import { rateLimitPlugin } from "../../platform/http/rate-limit";
import { route } from "../../platform/http/route";
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
  return new Elysia({ name: "module.invitations" })
    .use(authPlugin(rt))
    .use(rateLimitPlugin(rt))
    .post(
      "/invitations",
      async ({ actor, body, set }) => {
        set.status = 201;
        return createInvitations(rt, actor, body);
      },
      {
        ...route("createInvitations", "invitations", "permission:member:invite"),
        body: CreateInvitationsBody,
        response: { 201: CreateInvitationsResult },
      },
    )
    .get("/invitations", ({ actor, query }) => listInvitations(actor.db, query), {
      ...route("listInvitations", "invitations", "permission:member:invite"),
      query: ListInvitationsQuery,
      response: { 200: InvitationPage },
    })
    .post("/invitations/check-emails", ({ actor, body }) => checkInvitationEmails(actor.db, body), {
      ...route("checkInvitationEmails", "invitations", "permission:member:invite"),
      body: CheckEmailsBody,
      response: { 200: CheckEmailsResult },
    })
    .post("/invitations/bulk-resend", ({ actor, body }) => bulkResendInvitations(rt, actor, body), {
      ...route("bulkResendInvitations", "invitations", "permission:member:invite"),
      body: BulkIdsBody,
      response: { 200: BulkResult },
    })
    .post("/invitations/bulk-cancel", ({ actor, body }) => bulkCancelInvitations(actor.db, body), {
      ...route("bulkCancelInvitations", "invitations", "permission:member:invite"),
      body: BulkIdsBody,
      response: { 200: BulkResult },
    })
    .post("/invitations/:invitationId/resend", ({ actor, params }) => resendInvitation(rt, actor, params.invitationId), {
      ...route("resendInvitation", "invitations", "permission:member:invite"),
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
        ...route("acceptInvitation", "invitations", "public"),
        ipRateLimit: "auth",
        params: TokenParams,
        body: AcceptInvitationBody,
        response: { 201: AcceptInvitationResult },
      },
    );
}
