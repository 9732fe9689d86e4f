import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, ok } from "../../api/client";
import type { paths } from "../../api/schema";

export type Book = paths["/api/v1/spaces/{spaceId}/gradebook"]["get"]["responses"]["200"]["content"]["application/json"];
export type Column = Book["columns"][number];
export type Row = Book["rows"][number];
export type ColumnBody = { title: string; maxScore: number; weight: number };

/** The gradebook's cache keys: `space` covers a space's book with and without the members who left. */
export const gradebookKeys = {
  space: (spaceId: string) => ["gradebook", spaceId] as const,
  book: (spaceId: string, inactive: boolean) => ["gradebook", spaceId, inactive] as const,
  mine: (spaceId: string) => ["my-grades", spaceId] as const,
};

/** The space gradebook (getSpaceGradebook), with the members who left when `inactive`. */
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

/** The same book as CSV (getSpaceGradebook with Accept: text/csv), for a download. */
export async function gradebookCsv(spaceId: string, inactive: boolean): Promise<Blob> {
  const { data, response } = await api.GET("/api/v1/spaces/{spaceId}/gradebook", {
    params: { path: { spaceId }, query: { includeInactive: inactive ? "true" : undefined } },
    headers: { accept: "text/csv" },
    parseAs: "blob",
  });
  if (!response.ok || !data) throw new Error(`gradebook csv ${response.status}`);
  return data;
}

export const useGradebook = (spaceId: string, inactive: boolean) => useQuery(gradebookQuery(spaceId, inactive));

/** My row of the space's gradebook (getMyGrades). */
export const myGradesQuery = (spaceId: string) =>
  queryOptions({
    queryKey: gradebookKeys.mine(spaceId),
    queryFn: () => ok(api.GET("/api/v1/spaces/{spaceId}/my-grades", { params: { path: { spaceId } } })),
  });

/** The gradebook's writes: manual columns, their scores and every column's weight; each refetches the book (totals change). */
export function useGradebookWrites(spaceId: string) {
  const qc = useQueryClient();
  const onSuccess = () => void qc.invalidateQueries({ queryKey: gradebookKeys.space(spaceId) });
  const path = (columnId: string) => ({ path: { spaceId, columnId } });
  return {
    create: useMutation({
      mutationFn: (body: ColumnBody) => ok(api.POST("/api/v1/spaces/{spaceId}/grade-columns", { params: { path: { spaceId } }, body })),
      onSuccess,
    }),
    update: useMutation({
      mutationFn: ({ columnId, body }: { columnId: string; body: ColumnBody }) =>
        ok(api.PATCH("/api/v1/spaces/{spaceId}/grade-columns/{columnId}", { params: path(columnId), body })),
      onSuccess,
    }),
    remove: useMutation({
      mutationFn: (columnId: string) => ok(api.DELETE("/api/v1/spaces/{spaceId}/grade-columns/{columnId}", { params: path(columnId) })),
      onSuccess,
    }),
    score: useMutation({
      mutationFn: ({ columnId, profileId, score }: { columnId: string; profileId: string; score: number | null }) =>
        ok(
          api.PUT("/api/v1/spaces/{spaceId}/grade-columns/{columnId}/scores", {
            params: path(columnId),
            body: { scores: [{ profileId, score }] },
          }),
        ),
      onSuccess,
    }),
    weights: useMutation({
      mutationFn: (weights: { contentId?: string; columnId?: string; weight: number }[]) =>
        ok(api.PUT("/api/v1/spaces/{spaceId}/gradebook/weights", { params: { path: { spaceId } }, body: { weights } })),
      onSuccess,
    }),
  };
}

/** A column's id, whichever kind it is. */
export const columnKey = (c: { contentId: string | null; columnId?: string }) => c.columnId ?? c.contentId ?? "";
