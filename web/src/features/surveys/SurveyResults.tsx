import { useQuery } from "@tanstack/react-query";
import { api, ok } from "../../api/client";
import { useI18n } from "../../i18n";
import { Loading } from "../../shell/ui";
import { BarChart } from "../quizzes/BarChart";

/** Survey results for its managers: response counts, per-option ratios and scale averages as charts. */
export default function SurveyResults({ contentId }: { contentId: string }) {
  const { t } = useI18n();
  const stats = useQuery({
    queryKey: ["survey-stats", contentId],
    queryFn: () => ok(api.GET("/api/v1/surveys/{contentId}/statistics", { params: { path: { contentId } } })),
  });
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
        <dd>{Math.round(s.submitRate * 10) / 10}%</dd>
      </dl>
      {s.questions.map((q, i) =>
        q.options.length > 0 ? (
          <BarChart
            key={q.questionId}
            caption={`${i + 1}. ${q.title}`}
            unit="%"
            max={100}
            bars={q.options.map((o) => ({ label: o.label, value: Math.round(o.ratio * 10) / 10 }))}
          />
        ) : q.scale ? (
          <BarChart
            key={q.questionId}
            caption={`${i + 1}. ${q.title} · ${t("survey.average", { n: q.scale.average === null ? "—" : Math.round(q.scale.average * 100) / 100 })}`}
            max={Math.max(1, ...q.scale.distribution.map((d) => d.count))}
            bars={q.scale.distribution.map((d) => ({ label: String(d.value), value: d.count }))}
          />
        ) : (
          <p key={q.questionId}>
            <strong>
              {i + 1}. {q.title}
            </strong>{" "}
            · {t("survey.answered", { n: q.answeredCount })}
          </p>
        ),
      )}
    </div>
  );
}
