import { useI18n } from "../../i18n";
import { formatDate, Loading } from "../../ui/ui";
import { useMyStudents, useStudentOverview } from "./queries";

/** "My children": a guardian's card per student with what is due, what is missing, returned grades per class and recent notices. */
export default function ChildrenPage() {
  const { t } = useI18n();
  const students = useMyStudents();
  return (
    <section>
      <h1>{t("guardians.myChildren")}</h1>
      <p className="muted">{t("guardians.readOnly")}</p>
      {!students.data ? (
        <Loading />
      ) : students.data.length === 0 ? (
        <p>{t("guardians.noChildren")}</p>
      ) : (
        <div className="children">
          {students.data.map((s) => (
            <ChildCard key={s.id} id={s.id} name={s.displayName} />
          ))}
        </div>
      )}
    </section>
  );
}

type Overview = NonNullable<ReturnType<typeof useStudentOverview>["data"]>;

function ChildCard({ id, name }: { id: string; name: string }) {
  const { t, lang } = useI18n();
  const overview = useStudentOverview(id);
  const o = overview.data;
  const headingId = `child-${id}`;
  return (
    <article className="panel stack child" aria-labelledby={headingId}>
      <h2 id={headingId}>{name}</h2>
      {!o ? (
        <Loading />
      ) : (
        <>
          <Notices notices={o.recentNotices} spaces={o.spaces} />
          {o.spaces.length === 0 && <p>{t("guardians.noClasses")}</p>}
          {o.spaces.map((s) => (
            <section key={s.spaceId} className="stack" aria-labelledby={`${headingId}-${s.spaceId}`}>
              <h3 id={`${headingId}-${s.spaceId}`}>{s.name}</h3>
              <h4>{t("guardians.dueSoon")}</h4>
              {s.dueSoon.length === 0 ? (
                <p className="muted">{t("guardians.nothingDue")}</p>
              ) : (
                <ul className="list">
                  {s.dueSoon.map((d) => (
                    <li key={d.contentId}>
                      <span className="badge">{t(`library.types.${d.type}`)}</span> {d.title} ·{" "}
                      {t("guardians.dueAt", { at: formatDate(d.dueAt, lang) })} ·{" "}
                      {d.submitted ? t("guardians.submitted") : <strong>{t("guardians.notSubmitted")}</strong>}
                    </li>
                  ))}
                </ul>
              )}
              <h4>{t("guardians.missing")}</h4>
              {s.missing.length === 0 ? (
                <p className="muted">{t("guardians.nothingMissing")}</p>
              ) : (
                <ul className="list">
                  {s.missing.map((m) => (
                    <li key={m.contentId}>
                      <span className="badge late">{t("guardians.missingBadge")}</span>{" "}
                      <span className="badge">{t(`library.types.${m.type}`)}</span> {m.title} ·{" "}
                      {t("guardians.wasDue", { at: formatDate(m.dueAt, lang) })}
                    </li>
                  ))}
                </ul>
              )}
              <Grades grades={s.grades} />
            </section>
          ))}
        </>
      )}
    </article>
  );
}

/** Recent notices of the child's classes, emergencies first (the server's order). */
function Notices({ notices, spaces }: { notices: Overview["recentNotices"]; spaces: Overview["spaces"] }) {
  const { t, lang } = useI18n();
  const spaceName = (id: string) => spaces.find((s) => s.spaceId === id)?.name ?? "";
  return (
    <section className="stack">
      <h3>{t("guardians.notices")}</h3>
      {notices.length === 0 ? (
        <p className="muted">{t("guardians.noNotices")}</p>
      ) : (
        <ul className="list">
          {notices.map((n) => (
            <li key={n.postId} className={n.isEmergency ? "emergency" : undefined}>
              {n.isEmergency && <span className="badge late">{t("posts.emergencyBadge")}</span>} {n.title}{" "}
              <small className="muted">
                {spaceName(n.spaceId)} · {formatDate(n.publishAt, lang)}
              </small>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Returned grades and released results only (what the student's own getMyGrades shows as a score). */
function Grades({ grades }: { grades: Overview["spaces"][number]["grades"] }) {
  const { t } = useI18n();
  const scored = grades.columns.flatMap((c, i) => {
    const cell = grades.row.cells[i];
    return cell && cell.score !== null
      ? [{ key: c.contentId ?? c.columnId ?? String(i), title: c.title, score: cell.score, max: c.maxScore }]
      : [];
  });
  return (
    <>
      <h4>{t("guardians.grades")}</h4>
      {scored.length === 0 ? (
        <p className="muted">{t("guardians.noGrades")}</p>
      ) : (
        <ul className="list">
          {scored.map((g) => (
            <li key={g.key}>
              {g.title}: <strong>{g.score}</strong>
              {g.max !== null && ` / ${g.max}`}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
