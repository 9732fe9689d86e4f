import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { api, ok } from "../../api/client";
import type { paths } from "../../api/schema";
import { useI18n } from "../../i18n";
import { fromLocalInput, toLocalInput } from "../../shell/datetime";
import { Field, FormError, fieldError, Loading } from "../../shell/ui";

type Body = paths["/api/v1/quizzes/{contentId}/config"]["put"]["requestBody"]["content"]["application/json"];
type Question = Body["questions"][number];
type QType = NonNullable<Question["type"]>;
const TYPES: QType[] = ["SINGLE", "MULTIPLE", "SHORT_ANSWER", "ESSAY"];

const blank = (type: QType): Question => ({
  type,
  body: "",
  point: 5,
  ...(type === "SINGLE" || type === "MULTIPLE" ? { options: [{ body: "", isCorrect: true }, { body: "" }] } : {}),
  ...(type === "SHORT_ANSWER" ? { answerCandidates: [{ text: "" }] } : {}),
});

/** The quiz's questions of every type, its time limit and its window (open, close, close now). */
export function QuizEditor({ contentId }: { contentId: string }) {
  const { t } = useI18n();
  const qc = useQueryClient();
  const config = useQuery({
    queryKey: ["quiz-config", contentId],
    queryFn: () => ok(api.GET("/api/v1/quizzes/{contentId}/config", { params: { path: { contentId } } })),
  });
  const [draft, setDraft] = useState<Body | null>(null);
  useEffect(() => {
    if (config.data && !draft) {
      const c = config.data;
      setDraft({
        timeLimitMin: c.timeLimitMin,
        maxAttempts: c.maxAttempts,
        opensAt: c.opensAt,
        closesAt: c.closesAt,
        questions: c.questions.map((q) => ({
          id: q.id,
          type: q.type,
          body: q.body,
          point: q.point,
          ...(q.type === "SINGLE" || q.type === "MULTIPLE"
            ? { options: q.options.map((o) => ({ id: o.id, body: o.body, isCorrect: o.isCorrect })) }
            : {}),
          ...(q.type === "SHORT_ANSWER" ? { answerCandidates: q.answerCandidates } : {}),
        })),
      });
    }
  }, [config.data, draft]);
  const save = useMutation({
    mutationFn: (body: Body) => ok(api.PUT("/api/v1/quizzes/{contentId}/config", { params: { path: { contentId } }, body })),
    onSuccess: (data) => {
      qc.setQueryData(["quiz-config", contentId], data);
      setDraft(null);
    },
  });
  const [newType, setNewType] = useState<QType>("SINGLE");
  if (!draft) return <Loading />;
  const setQ = (i: number, patch: Partial<Question>) =>
    setDraft({ ...draft, questions: draft.questions.map((q, j) => (j === i ? { ...q, ...patch } : q)) });
  const err = (f: string) => fieldError(save.error, f, t);
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate(draft);
      }}
    >
      <div className="inline">
        <Field
          label={t("quiz.timeLimit")}
          type="number"
          min={1}
          value={draft.timeLimitMin ?? ""}
          onChange={(e) => setDraft({ ...draft, timeLimitMin: e.target.value ? Number(e.target.value) : null })}
          error={err("timeLimitMin")}
        />
        <Field
          label={t("quiz.opensAt")}
          type="datetime-local"
          value={toLocalInput(draft.opensAt)}
          onChange={(e) => setDraft({ ...draft, opensAt: fromLocalInput(e.target.value) })}
          error={err("opensAt")}
        />
        <Field
          label={t("quiz.closesAt")}
          type="datetime-local"
          value={toLocalInput(draft.closesAt)}
          onChange={(e) => setDraft({ ...draft, closesAt: fromLocalInput(e.target.value) })}
          error={err("closesAt")}
        />
        <button type="button" onClick={() => save.mutate({ ...draft, closesAt: new Date().toISOString() })}>
          {t("quiz.closeNow")}
        </button>
      </div>
      {draft.questions.map((q, i) => (
        <fieldset key={q.id ?? `new-${i}`} className="panel question">
          <legend>
            {t("quiz.questionN", { n: i + 1 })} · {t(`quiz.types.${q.type}`)}
          </legend>
          <div className="field">
            <label htmlFor={`q-${i}-body`}>{t("quiz.questionBody")}</label>
            <textarea
              id={`q-${i}-body`}
              rows={2}
              value={q.body ?? ""}
              onChange={(e) => setQ(i, { body: e.target.value })}
              aria-invalid={err(`questions[${i}].body`) ? true : undefined}
            />
          </div>
          <Field
            label={t("quiz.points")}
            type="number"
            min={0}
            value={q.point ?? 0}
            onChange={(e) => setQ(i, { point: Number(e.target.value) })}
            error={err(`questions[${i}].point`)}
          />
          {q.options?.map((o, k) => (
            <div className="inline" key={o.id ?? `o-${k}`}>
              <Field
                label={t("quiz.optionN", { n: k + 1 })}
                value={o.body}
                onChange={(e) => setQ(i, { options: q.options?.map((x, m) => (m === k ? { ...x, body: e.target.value } : x)) })}
                error={err(`questions[${i}].options[${k}]`)}
              />
              <label className="check">
                <input
                  type={q.type === "SINGLE" ? "radio" : "checkbox"}
                  name={`q-${i}-correct`}
                  checked={!!o.isCorrect}
                  onChange={(e) =>
                    setQ(i, {
                      options: q.options?.map((x, m) =>
                        m === k ? { ...x, isCorrect: e.target.checked } : q.type === "SINGLE" ? { ...x, isCorrect: false } : x,
                      ),
                    })
                  }
                />
                {t("quiz.correct")}
              </label>
            </div>
          ))}
          {q.options && (
            <button type="button" className="small" onClick={() => setQ(i, { options: [...(q.options ?? []), { body: "" }] })}>
              {t("quiz.addOption")}
            </button>
          )}
          {q.answerCandidates?.map((a, k) => (
            <Field
              // biome-ignore lint/suspicious/noArrayIndexKey: answer candidates have no id; the list only grows at its end
              key={`a-${k}`}
              label={t("quiz.answerN", { n: k + 1 })}
              value={a.text}
              onChange={(e) =>
                setQ(i, { answerCandidates: q.answerCandidates?.map((x, m) => (m === k ? { ...x, text: e.target.value } : x)) })
              }
              error={err(`questions[${i}].answerCandidates[${k}]`)}
            />
          ))}
          {q.type === "ESSAY" && <p className="muted">{t("quiz.essayHint")}</p>}
          <button
            type="button"
            className="small danger"
            onClick={() => setDraft({ ...draft, questions: draft.questions.filter((_, j) => j !== i) })}
          >
            {t("quiz.removeQuestion")}
          </button>
        </fieldset>
      ))}
      <div className="inline">
        <div className="field">
          <label htmlFor="new-q-type">{t("quiz.questionType")}</label>
          <select id="new-q-type" value={newType} onChange={(e) => setNewType(e.target.value as QType)}>
            {TYPES.map((x) => (
              <option key={x} value={x}>
                {t(`quiz.types.${x}`)}
              </option>
            ))}
          </select>
        </div>
        <button type="button" onClick={() => setDraft({ ...draft, questions: [...draft.questions, blank(newType)] })}>
          {t("quiz.addQuestion")}
        </button>
      </div>
      <FormError error={save.error} fields={["questions", "timeLimitMin", "opensAt", "closesAt"]} />
      {save.isSuccess && <p role="status">{t("common.saved")}</p>}
      <button type="submit" className="primary" disabled={save.isPending}>
        {t("quiz.save")}
      </button>
    </form>
  );
}
