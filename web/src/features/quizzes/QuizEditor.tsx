import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { paths } from "../../api/schema";
import { useI18n } from "../../i18n";
import { Field, FormError, fieldError, Loading } from "../../ui/ui";
import { OptionsEditor, QuestionsEditor } from "../question-sets/QuestionsEditor";
import { WindowFields } from "../question-sets/WindowFields";
import { quizConfigQuery, quizKeys, setQuizConfig } from "./queries";

type Body = paths["/api/v1/quizzes/{contentId}/config"]["put"]["requestBody"]["content"]["application/json"];
type Question = Body["questions"][number];
type QType = NonNullable<Question["type"]>;
type Option = NonNullable<Question["options"]>[number];
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
  const config = useQuery(quizConfigQuery(contentId));
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
    mutationFn: (body: Body) => setQuizConfig({ params: { path: { contentId } }, body }),
    onSuccess: (data) => {
      qc.setQueryData(quizKeys.config(contentId), data);
      setDraft(null);
    },
  });
  if (!draft) return <Loading />;
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
          label={t("quiz.maxAttempts")}
          type="number"
          min={1}
          value={draft.maxAttempts ?? ""}
          onChange={(e) => setDraft({ ...draft, maxAttempts: e.target.value ? Number(e.target.value) : null })}
          error={err("maxAttempts")}
          hint={t("quiz.maxAttemptsHint")}
        />
        <WindowFields
          value={draft}
          onChange={(patch) => setDraft({ ...draft, ...patch })}
          onCloseNow={() => save.mutate({ ...draft, closesAt: new Date().toISOString() })}
          error={err}
        />
      </div>
      <QuestionsEditor
        questions={draft.questions}
        onChange={(questions) => setDraft({ ...draft, questions })}
        types={TYPES}
        typeOf={(q) => q.type ?? "SINGLE"}
        typeLabel={(x) => t(`quiz.types.${x}`)}
        blank={blank}
        keyOf={(q, i) => q.id ?? `new-${i}`}
        text={{ get: (q) => q.body ?? "", set: (q, body) => ({ ...q, body }), field: "body" }}
        error={err}
      >
        {(q, i, update) => (
          <>
            <Field
              label={t("quiz.points")}
              type="number"
              min={0}
              value={q.point ?? 0}
              onChange={(e) => update({ ...q, point: Number(e.target.value) })}
              error={err(`questions[${i}].point`)}
            />
            {q.options && (
              <OptionsEditor<Option>
                options={q.options}
                onChange={(options) => update({ ...q, options })}
                blank={() => ({ body: "" })}
                keyOf={(o, k) => o.id ?? `o-${k}`}
                text={{ get: (o) => o.body, set: (o, body) => ({ ...o, body }) }}
                field={`questions[${i}].options`}
                error={err}
                extra={(o, k) => (
                  <label className="check">
                    <input
                      type={q.type === "SINGLE" ? "radio" : "checkbox"}
                      name={`q-${i}-correct`}
                      checked={!!o.isCorrect}
                      onChange={(e) =>
                        update({
                          ...q,
                          options: q.options?.map((x, m) =>
                            m === k ? { ...x, isCorrect: e.target.checked } : q.type === "SINGLE" ? { ...x, isCorrect: false } : x,
                          ),
                        })
                      }
                    />
                    {t("quiz.correct")}
                  </label>
                )}
              />
            )}
            {q.answerCandidates?.map((a, k) => (
              <Field
                // biome-ignore lint/suspicious/noArrayIndexKey: answer candidates have no id; the list only grows at its end
                key={`a-${k}`}
                label={t("quiz.answerN", { n: k + 1 })}
                value={a.text}
                onChange={(e) =>
                  update({ ...q, answerCandidates: q.answerCandidates?.map((x, m) => (m === k ? { ...x, text: e.target.value } : x)) })
                }
                error={err(`questions[${i}].answerCandidates[${k}]`)}
              />
            ))}
            {q.type === "ESSAY" && <p className="muted">{t("quiz.essayHint")}</p>}
          </>
        )}
      </QuestionsEditor>
      <FormError error={save.error} fields={["questions", "timeLimitMin", "maxAttempts", "opensAt", "closesAt"]} />
      {save.isSuccess && <p role="status">{t("common.saved")}</p>}
      <button type="submit" className="primary" disabled={save.isPending}>
        {t("quiz.save")}
      </button>
    </form>
  );
}
