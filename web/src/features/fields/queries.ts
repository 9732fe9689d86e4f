import { queryOptions } from "@tanstack/react-query";
import { api, type Init, ok } from "../../api/client";
import type { Kind } from "./draft";

/** The custom fields' cache keys (the members screen reads the member fields and their display through these too). */
export const fieldKeys = {
  list: (kind: Kind) => [`${kind}-fields`] as const,
  display: ["member-field-display"] as const,
};

/** Every field of a kind, for the field editor. */
export const fieldsQuery = (kind: Kind) =>
  queryOptions({
    queryKey: fieldKeys.list(kind),
    queryFn: () => (kind === "member" ? ok(api.GET("/api/v1/member-fields")) : ok(api.GET("/api/v1/space-fields"))),
  });

export const memberFieldsQuery = () =>
  queryOptions({ queryKey: fieldKeys.list("member"), queryFn: () => ok(api.GET("/api/v1/member-fields")) });

/** Which member columns and fields the members list shows, in which order (setMemberFieldDisplay). */
export const memberFieldDisplayQuery = () =>
  queryOptions({ queryKey: fieldKeys.display, queryFn: () => ok(api.GET("/api/v1/member-fields/display")) });

// The area's writes, one function per operation (named by its operationId).
export const setMemberFieldDisplay = (init: Init<"/api/v1/member-fields/display", "put">) =>
  ok(api.PUT("/api/v1/member-fields/display", init));
