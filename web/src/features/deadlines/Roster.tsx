import { useState } from "react";
import { useI18n } from "../../i18n";
import { formatDate, Loading } from "../../ui/ui";
import { useAssignmentConfig } from "../assignments/queries";
import { useGradebook } from "../gradebook/queries";
import { ExtensionDialog, OverrideDialog } from "./DeadlineDialogs";
import { useQuizAttempts, useQuizConfig, useQuizOverrides, useSubmissions } from "./queries";

type Student = { profileId: string; displayName: string; userId: string | null };
type Line = Student & { state: "submitted" | "missing" | "waiting"; own: string | null };

/**
 * "Due dates and extensions": the space's whole roster for one assignment or quiz, who handed in
 * and who is missing, and for anyone on it an extension (assignment) or an exception (quiz), given,
 * changed or removed here (docs/rules/console.md#roster).
 */
export function Roster({ spaceId, contentId, kind }: { spaceId: string; contentId: string; kind: "ASSIGNMENT" | "QUIZ" }) {
  const { t } = useI18n();
  // The gradebook's rows are the space's participants, with their profile ids.
  const book = useGradebook(spaceId, false);
  if (!book.data) return <Loading />;
  return (
    <div>
      <p className="muted">{t(kind === "ASSIGNMENT" ? "roster.helpAssignment" : "roster.helpQuiz")}</p>
      {kind === "ASSIGNMENT" ? (
        <AssignmentRoster students={book.data.rows} contentId={contentId} />
      ) : (
        <QuizRoster students={book.data.rows} contentId={contentId} />
      )}
    </div>
  );
}

function AssignmentRoster({ students, contentId }: { students: Student[]; contentId: string }) {
  const { t, lang } = useI18n();
  const list = useSubmissions(contentId);
  const config = useAssignmentConfig(contentId);
  const [open, setOpen] = useState<Line | null>(null);
  if (!list.data || !config.data) return <Loading />;
  const due = config.data.dueAt;
  const lines: Line[] = students.map((s) => {
    const own = list.data.extensions.find((e) => e.profileId === s.profileId)?.dueAt ?? null;
    const handedIn = list.data.submissions.some((x) => x.profileId === s.profileId);
    const deadline = own ?? due;
    const state = handedIn ? "submitted" : deadline && new Date(deadline) < new Date() ? "missing" : "waiting";
    return { ...s, state, own };
  });
  return (
    <>
      <p>{t("roster.classDue", { due: formatDate(due, lang) })}</p>
      <Counts lines={lines} />
      <RosterTable
        lines={lines}
        ownHeader={t("roster.extension")}
        ownText={(l) => (l.own ? formatDate(l.own, lang) : "—")}
        actionLabel={(l) => t(l.own ? "roster.changeExtensionFor" : "roster.giveExtensionFor", { name: l.displayName })}
        actionText={(l) => t(l.own ? "roster.changeExtension" : "roster.giveExtension")}
        onOpen={setOpen}
      />
      {open && <ExtensionDialog contentId={contentId} student={open} own={open.own} onClose={() => setOpen(null)} />}
    </>
  );
}

function QuizRoster({ students, contentId }: { students: Student[]; contentId: string }) {
  const { t, lang } = useI18n();
  const attempts = useQuizAttempts(contentId);
  const config = useQuizConfig(contentId);
  const overrides = useQuizOverrides(contentId);
  const [open, setOpen] = useState<Line | null>(null);
  if (!attempts.data || !config.data || !overrides.data) return <Loading />;
  const c = config.data;
  const byProfile = new Map(overrides.data.overrides.map((o) => [o.profileId, o]));
  const summary = (profileId: string) => {
    const o = byProfile.get(profileId);
    if (!o) return null;
    return [
      o.opensAt && t("roster.opens", { at: formatDate(o.opensAt, lang) }),
      o.closesAt && t("roster.closes", { at: formatDate(o.closesAt, lang) }),
      o.timeLimitMinutes !== null && t("roster.minutes", { n: o.timeLimitMinutes }),
      o.maxAttempts !== null && t("roster.attempts", { n: o.maxAttempts }),
    ]
      .filter(Boolean)
      .join(" · ");
  };
  const lines: Line[] = students.map((s) => {
    const handedIn = attempts.data.attempts.some((a) => a.profileId === s.profileId && a.submittedAt && !a.voidedAt);
    const closes = byProfile.get(s.profileId)?.closesAt ?? c.closesAt;
    const state = handedIn ? "submitted" : closes && new Date(closes) < new Date() ? "missing" : "waiting";
    return { ...s, state, own: summary(s.profileId) };
  });
  const current = open ? (byProfile.get(open.profileId) ?? null) : null;
  return (
    <>
      <p>
        {t("roster.quizWindow", {
          opens: formatDate(c.opensAt, lang),
          closes: formatDate(c.closesAt, lang),
          limit: c.timeLimitMin ?? "—",
          attempts: c.maxAttempts ?? "—",
        })}
      </p>
      <Counts lines={lines} />
      <RosterTable
        lines={lines}
        ownHeader={t("roster.exception")}
        ownText={(l) => l.own || "—"}
        actionLabel={(l) => t(l.own ? "roster.changeExceptionFor" : "roster.giveExceptionFor", { name: l.displayName })}
        actionText={(l) => t(l.own ? "roster.changeException" : "roster.giveException")}
        onOpen={setOpen}
      />
      {open && <OverrideDialog contentId={contentId} student={open} current={current} onClose={() => setOpen(null)} />}
    </>
  );
}

function Counts({ lines }: { lines: Line[] }) {
  const { t } = useI18n();
  const n = (state: Line["state"]) => lines.filter((l) => l.state === state).length;
  return <p role="status">{t("roster.counts", { submitted: n("submitted"), missing: n("missing"), waiting: n("waiting") })}</p>;
}

function RosterTable(props: {
  lines: Line[];
  ownHeader: string;
  ownText: (l: Line) => string;
  actionLabel: (l: Line) => string;
  actionText: (l: Line) => string;
  onOpen: (l: Line) => void;
}) {
  const { t } = useI18n();
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scroll box must take focus so a keyboard can scroll it (axe scrollable-region-focusable)
    <section className="scroll" tabIndex={0} aria-label={t("roster.title")}>
      <table>
        <thead>
          <tr>
            <th>{t("members.name")}</th>
            <th>{t("members.userId")}</th>
            <th>{t("roster.state")}</th>
            <th>{props.ownHeader}</th>
            <th>{t("common.actions")}</th>
          </tr>
        </thead>
        <tbody>
          {props.lines.map((l) => (
            <tr key={l.profileId}>
              <th scope="row">{l.displayName}</th>
              <td>{l.userId ?? "—"}</td>
              <td>
                <span className={l.state === "missing" ? "badge late" : "badge"}>{t(`roster.states.${l.state}`)}</span>
              </td>
              <td>{props.ownText(l)}</td>
              <td>
                <button type="button" className="small" aria-label={props.actionLabel(l)} onClick={() => props.onOpen(l)}>
                  {props.actionText(l)}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
