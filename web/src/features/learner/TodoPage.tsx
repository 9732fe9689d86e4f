import { useQuery } from "@tanstack/react-query";
import { api, ok } from "../../api/client";
import { useI18n } from "../../i18n";
import { Link } from "../../shell/Link";
import { formatDate, Loading } from "../../shell/ui";
import { spacePath } from "../spaces/queries";

type Item = { id: string; title: string; type: "QUIZ" | "ASSIGNMENT"; spaceId: string; spaceName: string };

/**
 * To-do: the quizzes and assignments in my active spaces' folders that I have not finished, soonest first
 * once each item's state is known. (The API has no to-do operation, so each item asks for its own state.)
 */
export default function TodoPage() {
  const { t } = useI18n();
  const items = useQuery({
    queryKey: ["todo"],
    queryFn: async (): Promise<Item[]> => {
      const [spaces, nodes] = await Promise.all([
        ok(api.GET("/api/v1/spaces", { params: { query: { isActive: "true" } } })),
        ok(api.GET("/api/v1/library/nodes")),
      ]);
      const names = new Map(spaces.spaces.map((s) => [s.id, s.name]));
      const folders = nodes.nodes.filter((n) => n.spaceId && names.has(n.spaceId) && n.contentCount > 0);
      const lists = await Promise.all(folders.map((f) => ok(api.GET("/api/v1/library/contents", { params: { query: { nodeId: f.id } } }))));
      return lists.flatMap((l, i) =>
        l.contents
          .filter((c) => !c.canManage && (c.type === "QUIZ" || c.type === "ASSIGNMENT"))
          .map((c) => ({
            id: c.id,
            title: c.title,
            type: c.type as Item["type"],
            spaceId: folders[i]?.spaceId as string,
            spaceName: names.get(folders[i]?.spaceId as string) ?? "",
          })),
      );
    },
  });
  return (
    <section>
      <h1>{t("todo.title")}</h1>
      {!items.data ? (
        <Loading />
      ) : items.data.length === 0 ? (
        <p>{t("todo.empty")}</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th>{t("todo.what")}</th>
              <th>{t("todo.space")}</th>
              <th>{t("todo.due")}</th>
              <th>{t("todo.state")}</th>
            </tr>
          </thead>
          <tbody>
            {items.data.map((i) => (i.type === "QUIZ" ? <QuizRow key={i.id} item={i} /> : <AssignmentRow key={i.id} item={i} />))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function Row({ item, due, state }: { item: Item; due: string | null; state: string }) {
  const { t, lang } = useI18n();
  const href = spacePath(item.spaceId, item.id);
  return (
    <tr>
      <td>
        <span className="badge">{t(`library.types.${item.type}`)}</span> <Link to={href}>{item.title}</Link>
      </td>
      <td>{item.spaceName}</td>
      <td>{formatDate(due, lang)}</td>
      <td>{state}</td>
    </tr>
  );
}

function QuizRow({ item }: { item: Item }) {
  const { t } = useI18n();
  const view = useQuery({
    queryKey: ["quiz-view", item.id],
    queryFn: () => ok(api.GET("/api/v1/quizzes/{contentId}/participant-view", { params: { path: { contentId: item.id } } })),
  });
  if (!view.data) return null;
  const v = view.data;
  const state = v.attempt ? t("todo.inProgress") : v.attemptsUsed > 0 ? t("todo.done") : t("todo.open");
  return <Row item={item} due={v.closesAt} state={state} />;
}

function AssignmentRow({ item }: { item: Item }) {
  const { t } = useI18n();
  const cfg = useQuery({
    queryKey: ["assignment-config", item.id],
    queryFn: () => ok(api.GET("/api/v1/assignments/{contentId}/config", { params: { path: { contentId: item.id } } })),
  });
  const mine = useQuery({
    queryKey: ["my-submission", item.id],
    queryFn: () => ok(api.GET("/api/v1/assignments/{contentId}/my-submission", { params: { path: { contentId: item.id } } })),
  });
  if (!cfg.data || !mine.data) return null;
  const s = mine.data.latest;
  return <Row item={item} due={cfg.data.dueAt} state={s ? t(`assignment.statuses.${s.status}`) : t("todo.open")} />;
}
