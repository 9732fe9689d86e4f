import { useQueries, useQuery } from "@tanstack/react-query";
import { useI18n } from "../../i18n";
import { Link } from "../../ui/Link";
import { Loading } from "../../ui/ui";
import { gradebookQuery } from "../gradebook/queries";
import { mySpacesQuery, spacePath } from "../spaces/queries";

/**
 * A teacher's home: the active classes they teach (listSpaces myRole=ADMIN) and, in each, the work
 * waiting to be graded (the gradebook's SUBMITTED cells, per content) with a link to it.
 */
export default function MyClassesPage() {
  const { t } = useI18n();
  const classes = useQuery(mySpacesQuery("ADMIN"));
  const list = classes.data?.spaces ?? [];
  const books = useQueries({ queries: list.map((s) => gradebookQuery(s.id, false)) });
  return (
    <section>
      <h1>{t("classes.title")}</h1>
      {!classes.data ? (
        <Loading />
      ) : list.length === 0 ? (
        <p>{t("classes.none")}</p>
      ) : (
        <ul className="cards">
          {list.map((s, i) => {
            const book = books[i]?.data;
            const waiting = book?.columns
              .map((c, k) => ({ c, n: book.rows.filter((r) => r.cells[k]?.status === "SUBMITTED").length }))
              .filter((x) => x.n > 0 && x.c.contentId);
            return (
              <li key={s.id}>
                <Link to={spacePath(s.id)}>{s.name}</Link>
                <small className="muted">
                  {s.semester && `${s.semester} · `}
                  {t("classes.students", { count: s.participantCount })}
                </small>
                {!book ? (
                  <small aria-busy="true">{t("common.loading")}</small>
                ) : waiting && waiting.length > 0 ? (
                  <ul className="list" aria-label={t("classes.toGradeIn", { name: s.name })}>
                    {waiting.map(({ c, n }) => (
                      <li key={c.contentId}>
                        <Link to={`${spacePath(s.id, c.contentId ?? "")}&tab=${c.type === "QUIZ" ? "results" : "grading"}`}>{c.title}</Link>{" "}
                        <span className="badge late">{t("classes.toGrade", { count: n })}</span>
                      </li>
                    ))}
                  </ul>
                ) : (
                  <small>{t("classes.allGraded")}</small>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
