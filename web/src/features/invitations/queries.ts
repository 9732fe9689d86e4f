import { queryOptions } from "@tanstack/react-query";
import { api, ok, type QueryOf } from "../../api/client";

/** The invitations screen's cache keys: `all` covers every page and filter of the list. */
export const invitationKeys = {
  all: ["invitations"] as const,
  list: (query: QueryOf<"/api/v1/invitations">) => ["invitations", query] as const,
};

export const invitationsQuery = (query: QueryOf<"/api/v1/invitations">) =>
  queryOptions({ queryKey: invitationKeys.list(query), queryFn: () => ok(api.GET("/api/v1/invitations", { params: { query } })) });
