import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { api, ok } from "../../api/client";
import { useI18n } from "../../i18n";
import { Link } from "../../ui/Link";
import { formatDate, Loading, Pager } from "../../ui/ui";
import { spacePath } from "../spaces/queries";

type Item = { id: string; title: string; type: "QUIZ" | "ASSIGNMENT" | "GROUP_ASSIGNMENT"; spaceId: string; spaceName: string };
const PAGE = 10;
// The space list is read in pages of 100 until every space of mine is named; this bounds it.
const MAX_SPACE_PAGES = 10;

/**
 * To-do: the quizzes and (group) assignments I have not handed in, in my active spaces, by space.
 * A bounded number of requests: my spaces' names (listSpaces pages), my folders (listNodes, which
 * shows only the spaces I am enrolled in), then per space one listContents of one item (whether I
 * manage it: a space I teach has no to-do) and one getMyGrades (each gradable content with my
 * status); only the due dates of the page shown are asked per item, as no list returns them.
 */
export default function TodoPage() {
  const { t } = useI18n();
  const [page, setPage] = useState(1);
  const items = useQuery({
    queryKey: ["todo"],
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
  const total = items.data?.length ?? 0;
  const shown = items.data?.slice((page - 1) * PAGE, page * PAGE) ?? [];
  return (
    <section>
      <h1>{t("todo.title")}</h1>
      {!items.data ? (
        <Loading />
      ) : total === 0 ? (
        <p>{t("todo.empty")}</p>
      ) : (
        <>
          <table>
            <thead>
              <tr>
                <th>{t("todo.what")}</th>
                <th>{t("todo.space")}</th>
                <th>{t("todo.due")}</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((i) => (
                <Row key={i.id} item={i} />
              ))}
            </tbody>
          </table>
          {total > PAGE && <Pager page={page} totalPages={Math.ceil(total / PAGE)} onPage={setPage} />}
        </>
      )}
    </section>
  );
}

/** One open item; its due date is read for the rows shown only. */
function Row({ item }: { item: Item }) {
  const { t, lang } = useI18n();
  const path = { params: { path: { contentId: item.id } } };
  // A group assignment's config (its dueAt) is for its managers only: the row shows no date.
  const due = useQuery({
    queryKey: ["todo-due", item.id],
    queryFn: async () => {
      if (item.type === "QUIZ") return (await ok(api.GET("/api/v1/quizzes/{contentId}/participant-view", path))).closesAt;
      if (item.type === "ASSIGNMENT") return (await ok(api.GET("/api/v1/assignments/{contentId}/config", path))).dueAt;
      return null;
    },
  });
  return (
    <tr>
      <td>
        <span className="badge">{t(`library.types.${item.type}`)}</span> <Link to={spacePath(item.spaceId, item.id)}>{item.title}</Link>
      </td>
      <td>{item.spaceName}</td>
      <td>{due.data === undefined ? "…" : formatDate(due.data, lang)}</td>
    </tr>
  );
}
