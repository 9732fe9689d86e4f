import { queryOptions } from "@tanstack/react-query";
import { api, ok } from "../../api/client";
import type { paths } from "../../api/schema";

export type Book = paths["/api/v1/spaces/{spaceId}/gradebook"]["get"]["responses"]["200"]["content"]["application/json"];

/** The gradebook's cache keys: `all` covers every space's book (a grade written anywhere refreshes it). */
export const gradebookKeys = {
  all: ["gradebook"] as const,
  space: (spaceId: string) => ["gradebook", spaceId] as const,
  book: (spaceId: string, inactive: boolean) => ["gradebook", spaceId, inactive] as const,
  mine: (spaceId: string) => ["my-grades", spaceId] as const,
};

export const gradebookQuery = (spaceId: string, inactive: boolean) =>
  queryOptions({
    queryKey: gradebookKeys.book(spaceId, inactive),
    // The operation also answers text/csv; the JSON shape is the one asked for here.
    queryFn: () =>
      ok(
        api.GET("/api/v1/spaces/{spaceId}/gradebook", {
          params: { path: { spaceId }, query: { includeInactive: inactive ? ("true" as const) : undefined } },
        }),
      ) as Promise<Book>,
  });

export const myGradesQuery = (spaceId: string) =>
  queryOptions({
    queryKey: gradebookKeys.mine(spaceId),
    queryFn: () => ok(api.GET("/api/v1/spaces/{spaceId}/my-grades", { params: { path: { spaceId } } })),
  });
