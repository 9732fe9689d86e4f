import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useI18n } from "../../i18n";
import { DataTable } from "../../ui/DataTable";
import { Link } from "../../ui/Link";
import { formatDate, Loading, Pager } from "../../ui/ui";
import { spacePath } from "../spaces/queries";
import { dueDateQuery, type Item, todoQuery } from "./queries";

const PAGE = 10;

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
  const items = useQuery(todoQuery());
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
          <DataTable
            label={t("todo.title")}
            rows={shown}
            rowKey={(i) => i.id}
            columns={[
              {
                key: "what",
                header: t("todo.what"),
                cell: (i) => (
                  <>
                    <span className="badge">{t(`library.types.${i.type}`)}</span> <Link to={spacePath(i.spaceId, i.id)}>{i.title}</Link>
                  </>
                ),
              },
              { key: "space", header: t("todo.space"), cell: (i) => i.spaceName },
              { key: "due", header: t("todo.due"), cell: (i) => <DueDate item={i} /> },
            ]}
          />
          {total > PAGE && <Pager page={page} totalPages={Math.ceil(total / PAGE)} onPage={setPage} />}
        </>
      )}
    </section>
  );
}

/** One open item's due date, read for the rows shown only. */
function DueDate({ item }: { item: Item }) {
  const { lang } = useI18n();
  const due = useQuery(dueDateQuery(item));
  return due.data === undefined ? "…" : formatDate(due.data, lang);
}
