import { queryOptions } from "@tanstack/react-query";
import { api, ok } from "../../api/client";

export type Item = { id: string; title: string; type: "QUIZ" | "ASSIGNMENT" | "GROUP_ASSIGNMENT"; spaceId: string; spaceName: string };
// The space list is read in pages of 100 until every space of mine is named; this bounds it.
const MAX_SPACE_PAGES = 10;

/** The to-do's cache keys. */
export const todoKeys = {
  all: ["todo"] as const,
  due: (contentId: string) => ["todo-due", contentId] as const,
};

/** My open items (the to-do screen's list, every request described on TodoPage). */
export const todoQuery = () =>
  queryOptions({
    queryKey: todoKeys.all,
    queryFn: async (): Promise<Item[]> => {
      const nodes = await ok(api.GET("/api/v1/library/nodes"));
      const folderOf = new Map<string, string>();
      for (const n of nodes.nodes) if (n.spaceId && n.contentCount > 0 && !folderOf.has(n.spaceId)) folderOf.set(n.spaceId, n.id);
      const names = new Map<string, string>();
      let cursor: string | undefined;
      for (let i = 0; i < MAX_SPACE_PAGES && folderOf.size > 0; i++) {
        const spaces = await ok(api.GET("/api/v1/spaces", { params: { query: { isActive: "true", limit: 100, cursor } } }));
        for (const s of spaces.spaces) if (folderOf.has(s.id)) names.set(s.id, s.name);
        cursor = spaces.nextCursor ?? undefined;
        if (!cursor || names.size === folderOf.size) break;
      }
      const perSpace = await Promise.all(
        [...names].map(async ([spaceId, spaceName]) => {
          const first = await ok(api.GET("/api/v1/library/contents", { params: { query: { nodeId: folderOf.get(spaceId), limit: 1 } } }));
          if (first.contents[0]?.canManage) return [];
          const mine = await ok(api.GET("/api/v1/spaces/{spaceId}/my-grades", { params: { path: { spaceId } } }));
          return mine.columns.flatMap((c, i) =>
            // manual columns are the teacher's marks, nothing to hand in
            c.contentId !== null && c.type !== "MANUAL" && mine.row.cells[i]?.status === "NOT_SUBMITTED"
              ? [{ id: c.contentId, title: c.title, type: c.type, spaceId, spaceName }]
              : [],
          );
        }),
      );
      return perSpace.flat();
    },
  });

/** One item's due date. A group assignment's config (its dueAt) is for its managers only: the row shows no date. */
export const dueDateQuery = (item: Item) =>
  queryOptions({
    queryKey: todoKeys.due(item.id),
    queryFn: async () => {
      const path = { params: { path: { contentId: item.id } } };
      if (item.type === "QUIZ") return (await ok(api.GET("/api/v1/quizzes/{contentId}/participant-view", path))).closesAt;
      if (item.type === "ASSIGNMENT") return (await ok(api.GET("/api/v1/assignments/{contentId}/config", path))).dueAt;
      return null;
    },
  });
