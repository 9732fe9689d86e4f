import { queryOptions } from "@tanstack/react-query";
import { api, type Init, ok, type QueryOf } from "../../api/client";

/** The invitations screen's cache keys: `all` covers every page and filter of the list. */
export const invitationKeys = {
  all: ["invitations"] as const,
  list: (query: QueryOf<"/api/v1/invitations">) => ["invitations", query] as const,
};

export const invitationsQuery = (query: QueryOf<"/api/v1/invitations">) =>
  queryOptions({ queryKey: invitationKeys.list(query), queryFn: () => ok(api.GET("/api/v1/invitations", { params: { query } })) });

// The area's writes, one function per operation (named by its operationId).
export const bulkCancelInvitations = (init: Init<"/api/v1/invitations/bulk-cancel", "post">) =>
  ok(api.POST("/api/v1/invitations/bulk-cancel", init));
export const bulkResendInvitations = (init: Init<"/api/v1/invitations/bulk-resend", "post">) =>
  ok(api.POST("/api/v1/invitations/bulk-resend", init));
export const checkInvitationEmails = (init: Init<"/api/v1/invitations/check-emails", "post">) =>
  ok(api.POST("/api/v1/invitations/check-emails", init));
export const createInvitations = (init: Init<"/api/v1/invitations", "post">) => ok(api.POST("/api/v1/invitations", init));
export const resendInvitation = (init: Init<"/api/v1/invitations/{invitationId}/resend", "post">) =>
  ok(api.POST("/api/v1/invitations/{invitationId}/resend", init));
