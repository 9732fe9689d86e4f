import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useI18n } from "../../i18n";
import { Field, FormError, formatDate, Loading } from "../../ui/ui";
import { myResponseQuery, saveSurveyResponseDraft, submitSurveyResponse, surveyKeys, surveyViewQuery } from "./queries";

type Answer = { questionId: string; optionIds?: string[]; etcText?: string | null; text?: string | null; scaleValue?: number | null };

/** Responding to a survey: answers kept as a draft until submitted; a submitted response is shown read-only unless resubmission is allowed. */
export default function SurveyTake({ contentId }: { contentId: string }) {
  const { t, lang } = useI18n();
  const qc = useQueryClient();
  const view = useQuery(surveyViewQuery(contentId));
  const mine = useQuery(myResponseQuery(contentId));
  const [answers, setAnswers] = useState<Record<string, Answer> | null>(null);
  useEffect(() => {
    if (mine.data && !answers) setAnswers(Object.fromEntries((mine.data.response?.answers ?? []).map((a) => [a.questionId, a])));
  }, [mine.data, answers]);
  const list = () => Object.values(answers ?? {});
  const done = (data: unknown) => qc.setQueryData(surveyKeys.mine(contentId), data);
  const draft = useMutation({
    mutationFn: () => saveSurveyResponseDraft({ params: { path: { contentId } }, body: { answers: list() } }),
    onSuccess: done,
  });
  const submit = useMutation({
    mutationFn: () => submitSurveyResponse({ params: { path: { contentId } }, body: { answers: list() } }),
    onSuccess: done,
  });
  if (!view.data || !mine.data || !answers) return <Loading />;
  const v = view.data;
  const response = mine.data.response;
  const locked = response?.status === "SUBMITTED" && !v.allowResubmit;
  const set = (questionId: string, patch: Partial<Answer>) =>
    setAnswers({ ...answers, [questionId]: { ...answers[questionId], questionId, ...patch } });
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        submit.mutate();
      }}
    >
      {response && (
        <p role="status" data-testid="survey-status">
          {response.status === "SUBMITTED"
            ? t("survey.submittedAt", { time: formatDate(response.submittedAt, lang) })
            : t("survey.draftAt", { time: formatDate(response.updatedAt, lang) })}
        </p>
      )}
      <fieldset disabled={locked} className="bare">
        {v.questions.map((q, i) => {
          const a = answers[q.id];
          return (
            <fieldset key={q.id} className="panel question">
              <legend>
                {i + 1}. {q.title} {q.isRequired && <span className="muted">({t("survey.required")})</span>}
              </legend>
              {q.type === "SINGLE_CHOICE" || q.type === "MULTIPLE_CHOICE"
                ? q.options.map((o) => (
                    <label key={o.id} className="check">
                      <input
                        type={q.type === "SINGLE_CHOICE" ? "radio" : "checkbox"}
                        name={`survey-${q.id}`}
                        checked={a?.optionIds?.includes(o.id) ?? false}
                        onChange={(e) => {
                          const prev = a?.optionIds ?? [];
                          set(q.id, {
                            optionIds:
                              q.type === "SINGLE_CHOICE" ? [o.id] : e.target.checked ? [...prev, o.id] : prev.filter((x) => x !== o.id),
                          });
                        }}
                      />
                      {o.label}
                    </label>
                  ))
                : null}
              {q.options.some((o) => o.isEtc && a?.optionIds?.includes(o.id)) && (
                <Field label={t("survey.etcText")} value={a?.etcText ?? ""} onChange={(e) => set(q.id, { etcText: e.target.value })} />
              )}
              {q.type === "SCALE" ? (
                <Field
                  label={t("survey.scale", { min: q.scaleMin ?? 1, max: q.scaleMax ?? 5 })}
                  type="number"
                  min={q.scaleMin ?? 1}
                  max={q.scaleMax ?? 5}
                  value={a?.scaleValue ?? ""}
                  onChange={(e) => set(q.id, { scaleValue: e.target.value ? Number(e.target.value) : null })}
                />
              ) : q.type === "SHORT_TEXT" || q.type === "LONG_TEXT" ? (
                <Field label={t("survey.yourAnswer")} value={a?.text ?? ""} onChange={(e) => set(q.id, { text: e.target.value })} />
              ) : null}
            </fieldset>
          );
        })}
      </fieldset>
      <FormError error={submit.error ?? draft.error} fields={[]} />
      {!locked && (
        <div className="inline">
          <button type="button" onClick={() => draft.mutate()}>
            {t("survey.saveDraft")}
          </button>
          <button type="submit" className="primary">
            {t("survey.submit")}
          </button>
        </div>
      )}
    </form>
  );
}
