import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useI18n } from "../../i18n";
import { useSearch } from "../../ui/router";
import { Field, FormError, fieldError, formatDate, Loading } from "../../ui/ui";
import { BarChart } from "../charts/BarChart";
import { quizAttemptQuery, quizAttemptsQuery, quizKeys, quizStatsQuery, scoreQuizAnswer, voidQuizAttempt } from "./queries";

// correctRate is already a percentage (answers with isCorrect ÷ answeredCount × 100).
const pct = (rate: number) => Math.round(rate * 10) / 10;

/** Quiz statistics as charts, every attempt, and one attempt opened for scoring ESSAY answers by hand. */
export function QuizResults({ contentId }: { contentId: string }) {
  const { t, lang } = useI18n();
  const { get, set } = useSearch();
  const stats = useQuery(quizStatsQuery(contentId));
  const attempts = useQuery(quizAttemptsQuery(contentId));
  const open = get("attempt");
  if (!stats.data || !attempts.data) return <Loading />;
  const s = stats.data;
  const scores = attempts.data.attempts.filter((a) => a.submittedAt && !a.voidedAt && a.score !== null).map((a) => a.score as number);
  const buckets = new Map<number, number>();
  for (const v of scores) buckets.set(v, (buckets.get(v) ?? 0) + 1);
  return (
    <div>
      <dl className="facts" data-testid="quiz-summary">
        <dt>{t("quiz.submitted")}</dt>
        <dd>{s.submittedCount}</dd>
        <dt>{t("quiz.notSubmitted")}</dt>
        <dd>{s.notSubmittedCount}</dd>
        <dt>{t("quiz.pendingManual")}</dt>
        <dd>{s.pendingManualCount}</dd>
        <dt>{t("quiz.average")}</dt>
        <dd>{s.averageScore === null ? "—" : Math.round(s.averageScore * 10) / 10}</dd>
      </dl>
      <BarChart
        caption={t("quiz.correctRateChart")}
        unit="%"
        max={100}
        bars={s.questions.map((q, i) => ({ label: `${i + 1}. ${q.body}`, value: pct(q.correctRate) }))}
      />
      <BarChart
        caption={t("quiz.distributionChart")}
        max={Math.max(1, ...buckets.values())}
        bars={[...buckets.entries()].sort((a, b) => a[0] - b[0]).map(([score, n]) => ({ label: t("quiz.scoreN", { n: score }), value: n }))}
      />
      <h2>{t("quiz.attempts")}</h2>
      <table>
        <thead>
          <tr>
            <th>{t("members.name")}</th>
            <th>{t("quiz.submittedAt")}</th>
            <th>{t("quiz.score")}</th>
            <th>{t("quiz.state")}</th>
            <th>{t("quiz.anotherAttempt")}</th>
          </tr>
        </thead>
        <tbody>
          {attempts.data.attempts.map((a) => (
            <tr key={a.attemptId} aria-selected={a.attemptId === open ? true : undefined}>
              <td>
                <button type="button" className="link" onClick={() => set({ attempt: a.attemptId })}>
                  {a.displayName ?? "—"}
                </button>
              </td>
              <td>{formatDate(a.submittedAt, lang)}</td>
              <td>{a.score ?? "—"}</td>
              <td>
                {a.voidedAt
                  ? t("quiz.voided")
                  : !a.submittedAt
                    ? t("quiz.inProgress")
                    : a.hasPendingManual
                      ? t("quiz.needsScoring")
                      : t("quiz.scored")}
              </td>
              <td>
                {a.submittedAt && !a.voidedAt && <VoidAttempt contentId={contentId} attemptId={a.attemptId} name={a.displayName ?? "—"} />}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {open && <AttemptScoring key={open} contentId={contentId} attemptId={open} />}
    </div>
  );
}

/** Another attempt for this one student: the attempt is voided, stays listed, and no longer counts (voidQuizAttempt). */
function VoidAttempt({ contentId, attemptId, name }: { contentId: string; attemptId: string; name: string }) {
  const { t } = useI18n();
  const qc = useQueryClient();
  const cancel = useMutation({
    mutationFn: () => voidQuizAttempt({ params: { path: { contentId, attemptId } } }),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: quizKeys.attempts(contentId) });
      void qc.invalidateQueries({ queryKey: quizKeys.stats(contentId) });
    },
  });
  return (
    <>
      <button
        type="button"
        className="small"
        aria-label={t("quiz.allowAnotherFor", { name })}
        disabled={cancel.isPending}
        onClick={() => {
          if (window.confirm(t("quiz.allowAnotherConfirm", { name }))) cancel.mutate();
        }}
      >
        {t("quiz.allowAnother")}
      </button>
      <FormError error={cancel.error} fields={[]} />
    </>
  );
}

function AttemptScoring({ contentId, attemptId }: { contentId: string; attemptId: string }) {
  const { t } = useI18n();
  const attempt = useQuery(quizAttemptQuery(contentId, attemptId));
  if (!attempt.data) return <Loading />;
  const a = attempt.data;
  return (
    <section className="panel" aria-labelledby="attempt-title">
      <h2 id="attempt-title">
        {t("quiz.attemptOf", { name: a.displayName ?? "—" })} · {t("quiz.score")} {a.score ?? "—"}
      </h2>
      {a.answers.map((ans, i) => (
        <div key={ans.answerId} className="answer">
          <h3>
            {i + 1}. {ans.questionBody}{" "}
            <span className="muted">({t("quiz.pointsOf", { n: ans.pointsAwarded ?? "—", max: ans.point })})</span>
          </h3>
          {ans.textAnswer !== null && <p className="pre">{ans.textAnswer || "—"}</p>}
          {ans.type !== "ESSAY" && ans.isCorrect !== null && <p>{ans.isCorrect ? t("quiz.right") : t("quiz.wrong")}</p>}
          {ans.isManualScoring && <ScoreAnswer contentId={contentId} attemptId={attemptId} answer={ans} />}
        </div>
      ))}
    </section>
  );
}

function ScoreAnswer({
  contentId,
  attemptId,
  answer,
}: {
  contentId: string;
  attemptId: string;
  answer: { answerId: string; point: number; pointsAwarded: number | null; feedback: { text: string } | null };
}) {
  const { t } = useI18n();
  const qc = useQueryClient();
  const [points, setPoints] = useState(answer.pointsAwarded === null ? "" : String(answer.pointsAwarded));
  const [feedback, setFeedback] = useState(answer.feedback?.text ?? "");
  const score = useMutation({
    mutationFn: () =>
      scoreQuizAnswer({
        params: { path: { contentId, attemptId, answerId: answer.answerId } },
        body: { pointsAwarded: Number(points), feedback: feedback || null },
      }),
    onSuccess: (data) => {
      qc.setQueryData(quizKeys.attempt(attemptId), data);
      void qc.invalidateQueries({ queryKey: quizKeys.attempts(contentId) });
      void qc.invalidateQueries({ queryKey: quizKeys.stats(contentId) });
    },
  });
  return (
    <form
      className="inline"
      onSubmit={(e) => {
        e.preventDefault();
        score.mutate();
      }}
    >
      <Field
        label={t("quiz.awardPoints", { max: answer.point })}
        type="number"
        min={0}
        max={answer.point}
        step="any"
        required
        value={points}
        onChange={(e) => setPoints(e.target.value)}
        error={fieldError(score.error, "pointsAwarded", t)}
      />
      <Field label={t("quiz.feedback")} value={feedback} onChange={(e) => setFeedback(e.target.value)} />
      <button type="submit" className="primary">
        {t("quiz.saveScore")}
      </button>
      <FormError error={score.error} fields={["pointsAwarded"]} />
      {score.isSuccess && <span role="status">{t("common.saved")}</span>}
    </form>
  );
}
