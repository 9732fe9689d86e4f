import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import type { paths } from "../../api/schema";
import { useI18n } from "../../i18n";
import { FormError, formatDate, Loading } from "../../ui/ui";
import { myAttemptsQuery, quizKeys, quizViewQuery, saveQuizAnswers, startQuizAttempt, submitQuizAttempt } from "./queries";

type View = paths["/api/v1/quizzes/{contentId}/participant-view"]["get"]["responses"]["200"]["content"]["application/json"];
type Attempt = NonNullable<View["attempt"]>;
type Answer = { questionId: string; selectedOptionIds: string[]; textAnswer: string | null };

/** Taking a quiz: start, answer (saved as you go, so a reload resumes), submit before the time runs out; then my results. */
export default function QuizTake({ contentId }: { contentId: string }) {
  const { t, lang } = useI18n();
  const qc = useQueryClient();
  const view = useQuery(quizViewQuery(contentId));
  const mine = useQuery(myAttemptsQuery(contentId));
  const start = useMutation({
    mutationFn: () => startQuizAttempt({ params: { path: { contentId } } }),
    onSuccess: (data) => qc.setQueryData(quizKeys.view(contentId), data),
  });
  if (!view.data || !mine.data) return <Loading />;
  const v = view.data;
  const now = Date.now();
  const notYet = v.opensAt !== null && Date.parse(v.opensAt) > now;
  const closed = v.closesAt !== null && Date.parse(v.closesAt) <= now;
  const used = v.maxAttempts !== null && v.attemptsUsed >= v.maxAttempts;
  if (v.attempt)
    return (
      <AttemptForm
        contentId={contentId}
        attempt={v.attempt}
        onDone={() => {
          void qc.invalidateQueries({ queryKey: quizKeys.view(contentId) });
          void qc.invalidateQueries({ queryKey: quizKeys.mine(contentId) });
        }}
      />
    );
  return (
    <div>
      <dl className="facts">
        <dt>{t("quiz.questions")}</dt>
        <dd>{t("quiz.questionsOf", { n: v.questionCount, points: v.totalPoints })}</dd>
        <dt>{t("quiz.timeLimit")}</dt>
        <dd>{v.timeLimitMin === null ? t("quiz.noLimit") : t("quiz.minutes", { n: v.timeLimitMin })}</dd>
        <dt>{t("quiz.window")}</dt>
        <dd>
          {formatDate(v.opensAt, lang)} – {formatDate(v.closesAt, lang)}
        </dd>
        <dt>{t("quiz.attemptsUsed")}</dt>
        <dd>
          {v.attemptsUsed}
          {v.maxAttempts !== null && ` / ${v.maxAttempts}`}
        </dd>
      </dl>
      {notYet ? (
        <p>{t("quiz.notOpen")}</p>
      ) : closed ? (
        <p>{t("quiz.closed")}</p>
      ) : used ? null : (
        <button type="button" className="primary" onClick={() => start.mutate()} disabled={start.isPending}>
          {v.attemptsUsed > 0 ? t("quiz.startAgain") : t("quiz.start")}
        </button>
      )}
      <FormError error={start.error} fields={[]} />
      {mine.data.attempts.some((a) => a.submittedAt) && (
        <section>
          <h2>{t("quiz.myResults")}</h2>
          {mine.data.finalScore !== null && (
            <p data-testid="quiz-final-score">{t("quiz.finalScore", { score: mine.data.finalScore, total: v.totalPoints })}</p>
          )}
          <ul className="list">
            {mine.data.attempts
              .filter((a) => a.submittedAt)
              .map((a) => (
                <li key={a.attemptId}>
                  {formatDate(a.submittedAt, lang)} · {t("quiz.score")} {a.score ?? "—"}
                  {a.hasPendingManual && ` · ${t("quiz.waitingForTeacher")}`}
                  {a.answers?.map((ans) =>
                    ans.feedback ? (
                      <p key={ans.questionId} className="muted">
                        {t("quiz.feedback")}: {ans.feedback.text}
                      </p>
                    ) : null,
                  )}
                </li>
              ))}
          </ul>
        </section>
      )}
    </div>
  );
}

function AttemptForm({ contentId, attempt, onDone }: { contentId: string; attempt: Attempt; onDone: () => void }) {
  const { t } = useI18n();
  const [answers, setAnswers] = useState<Record<string, Answer>>(() =>
    Object.fromEntries(
      attempt.answers.map((a) => [
        a.questionId,
        { questionId: a.questionId, selectedOptionIds: a.selectedOptionIds, textAnswer: a.textAnswer },
      ]),
    ),
  );
  const attemptId = attempt.attemptId;
  const save = useMutation({
    mutationFn: (list: Answer[]) =>
      saveQuizAnswers({
        params: { path: { contentId, attemptId } },
        body: { answers: list },
      }),
  });
  const submit = useMutation({
    mutationFn: (list: Answer[]) =>
      submitQuizAttempt({
        params: { path: { contentId, attemptId } },
        body: { answers: list },
      }),
    onSuccess: onDone,
  });
  // Answers are saved shortly after the last change, so a reload or a lost tab resumes where it was.
  const timer = useRef(0);
  const change = (questionId: string, patch: Partial<Answer>) => {
    const next = { ...answers, [questionId]: { questionId, selectedOptionIds: [], textAnswer: null, ...answers[questionId], ...patch } };
    setAnswers(next);
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => save.mutate(Object.values(next)), 500);
  };
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const left = useCountdown(attempt.expiresAt);
  const submitted = useRef(false);
  const finish = () => {
    if (submitted.current) return;
    submitted.current = true;
    window.clearTimeout(timer.current);
    submit.mutate(Object.values(answers));
  };
  useEffect(() => {
    if (left !== null && left <= 0) finish();
  });
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        finish();
      }}
    >
      <p className="sticky" role="timer" aria-live="off">
        {left === null
          ? t("quiz.noLimit")
          : t("quiz.timeLeft", { time: `${Math.floor(Math.max(0, left) / 60)}:${String(Math.max(0, left) % 60).padStart(2, "0")}` })}
        <span role="status">
          {save.isPending
            ? ` · ${t("quiz.saving")}`
            : save.isSuccess
              ? ` · ${t("quiz.savedAt", { time: new Date(save.data.savedAt).toLocaleTimeString() })}`
              : ""}
        </span>
      </p>
      {attempt.questions.map((q, i) => {
        const a = answers[q.id];
        return (
          <fieldset key={q.id} className="panel question">
            <legend>
              {i + 1}. {q.body} <span className="muted">({t("quiz.pointsMax", { n: q.point })})</span>
            </legend>
            {q.type === "SINGLE" || q.type === "MULTIPLE" ? (
              q.options.map((o) => (
                <label key={o.id} className="check">
                  <input
                    type={q.type === "SINGLE" ? "radio" : "checkbox"}
                    name={`answer-${q.id}`}
                    checked={a?.selectedOptionIds.includes(o.id) ?? false}
                    onChange={(e) => {
                      const prev = a?.selectedOptionIds ?? [];
                      const selected = q.type === "SINGLE" ? [o.id] : e.target.checked ? [...prev, o.id] : prev.filter((x) => x !== o.id);
                      change(q.id, { selectedOptionIds: selected });
                    }}
                  />
                  {o.body}
                </label>
              ))
            ) : (
              <div className="field">
                <label htmlFor={`answer-${q.id}`}>{t("quiz.yourAnswer")}</label>
                {q.type === "ESSAY" ? (
                  <textarea
                    id={`answer-${q.id}`}
                    rows={5}
                    value={a?.textAnswer ?? ""}
                    onChange={(e) => change(q.id, { textAnswer: e.target.value })}
                  />
                ) : (
                  <input id={`answer-${q.id}`} value={a?.textAnswer ?? ""} onChange={(e) => change(q.id, { textAnswer: e.target.value })} />
                )}
              </div>
            )}
          </fieldset>
        );
      })}
      <FormError error={submit.error ?? save.error} fields={[]} />
      <button type="submit" className="primary" disabled={submit.isPending}>
        {t("quiz.submit")}
      </button>
    </form>
  );
}

/** Seconds until `expiresAt`, ticking every second (null without a time limit). */
function useCountdown(expiresAt: string | null) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!expiresAt) return;
    const id = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(id);
  }, [expiresAt]);
  return expiresAt ? Math.round((Date.parse(expiresAt) - now) / 1000) : null;
}
