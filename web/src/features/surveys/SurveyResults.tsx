import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useI18n } from "../../i18n";
import { DataTable } from "../../ui/DataTable";
import { formatDate, Loading, Select } from "../../ui/ui";
import { BarChart } from "../charts/BarChart";
import { respondentsQuery, surveyStatsQuery, textAnswersQuery } from "./queries";

const round = (n: number, places = 1) => Math.round(n * 10 ** places) / 10 ** places;

/** Survey results for its managers: response counts, per-option ratios and scale averages as charts, text answers, respondents. */
export function SurveyResults({ contentId, spaceId }: { contentId: string; spaceId: string }) {
  const { t } = useI18n();
  const stats = useQuery(surveyStatsQuery(contentId));
  if (!stats.data) return <Loading />;
  const s = stats.data;
  return (
    <div>
      <dl className="facts" data-testid="survey-summary">
        <dt>{t("survey.submitted")}</dt>
        <dd>{s.submittedCount}</dd>
        <dt>{t("survey.drafts")}</dt>
        <dd>{s.draftCount}</dd>
        <dt>{t("survey.notSubmitted")}</dt>
        <dd>{s.notSubmittedCount}</dd>
        <dt>{t("survey.submitRate")}</dt>
        <dd>{round(s.submitRate)}%</dd>
      </dl>
      {s.questions.map((q, i) =>
        q.options.length > 0 ? (
          <BarChart
            key={q.questionId}
            caption={`${i + 1}. ${q.title}`}
            unit="%"
            max={100}
            bars={q.options.map((o) => ({ label: o.label, value: round(o.ratio) }))}
          />
        ) : q.scale ? (
          <BarChart
            key={q.questionId}
            caption={`${i + 1}. ${q.title} · ${t("survey.average", { n: q.scale.average === null ? "—" : round(q.scale.average, 2) })}`}
            max={Math.max(1, ...q.scale.distribution.map((d) => d.count))}
            bars={q.scale.distribution.map((d) => ({ label: String(d.value), value: d.count }))}
          />
        ) : (
          <TextAnswers
            key={q.questionId}
            contentId={contentId}
            questionId={q.questionId}
            title={`${i + 1}. ${q.title}`}
            count={q.answeredCount}
          />
        ),
      )}
      <Respondents contentId={contentId} spaceId={spaceId} anonymous={s.isAnonymous} />
    </div>
  );
}

/** One text question's answers, newest first, a page at a time (listSurveyTextAnswers). */
function TextAnswers({ contentId, questionId, title, count }: { contentId: string; questionId: string; title: string; count: number }) {
  const { t, lang } = useI18n();
  const [open, setOpen] = useState(false);
  const answers = useInfiniteQuery({ ...textAnswersQuery(contentId, questionId), enabled: open });
  return (
    <section className="panel">
      <h3>{title}</h3>
      <details onToggle={(e) => setOpen(e.currentTarget.open)}>
        <summary>{t("survey.answered", { n: count })}</summary>
        {open && !answers.data ? (
          <Loading />
        ) : (
          <ul className="list" data-testid="survey-text-answers">
            {answers.data?.pages
              .flatMap((p) => p.answers)
              .map((a, k) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: answers have no id; pages only grow at the end
                <li key={k}>
                  <span className="pre">{a.text}</span>{" "}
                  <span className="muted">
                    — {a.respondentName ?? t("survey.anonymousRespondent")}, {formatDate(a.submittedAt, lang)}
                  </span>
                </li>
              ))}
          </ul>
        )}
        {answers.hasNextPage && (
          <button type="button" className="small" onClick={() => void answers.fetchNextPage()}>
            {t("survey.more")}
          </button>
        )}
      </details>
    </section>
  );
}

type Status = "ALL" | "SUBMITTED" | "NOT_SUBMITTED";

/** Who has responded among the space's participants (listSurveyRespondents); an anonymous survey still shows who. */
function Respondents({ contentId, spaceId, anonymous }: { contentId: string; spaceId: string; anonymous: boolean }) {
  const { t, lang } = useI18n();
  const [status, setStatus] = useState<Status>("ALL");
  const list = useInfiniteQuery(respondentsQuery(contentId, spaceId, status));
  return (
    <section>
      <h2>{t("survey.respondents")}</h2>
      {anonymous && <p className="muted">{t("survey.anonymousNote")}</p>}
      <Select
        label={t("survey.respondentFilter")}
        value={status}
        onChange={(v) => setStatus(v as Status)}
        options={(["ALL", "SUBMITTED", "NOT_SUBMITTED"] as const).map((x) => ({ value: x, label: t(`survey.respondentStatus.${x}`) }))}
      />
      {!list.data ? (
        <Loading />
      ) : (
        <DataTable
          label={t("survey.respondents")}
          testId="survey-respondents"
          empty={null}
          rows={list.data.pages.flatMap((p) => p.respondents)}
          rowKey={(r) => r.profileId}
          columns={[
            { key: "name", header: t("members.name"), cell: (r) => r.displayName },
            {
              key: "submitted",
              header: t("survey.responded"),
              cell: (r) => (r.submitted ? formatDate(r.submittedAt, lang) : t("survey.notSubmitted")),
            },
          ]}
        />
      )}
      {list.hasNextPage && (
        <button type="button" className="small" onClick={() => void list.fetchNextPage()}>
          {t("survey.more")}
        </button>
      )}
    </section>
  );
}
