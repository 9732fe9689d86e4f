import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { paths } from "../../api/schema";
import { useI18n } from "../../i18n";
import { Field, FormError, fieldError, Loading } from "../../ui/ui";
import { OptionsEditor, QuestionsEditor } from "../question-sets/QuestionsEditor";
import { WindowFields } from "../question-sets/WindowFields";
import { checkSurveyConfigChange, setSurveyConfig, surveyConfigQuery, surveyKeys } from "./queries";

type Body = paths["/api/v1/surveys/{contentId}/config"]["put"]["requestBody"]["content"]["application/json"];
type Config = paths["/api/v1/surveys/{contentId}/config"]["get"]["responses"]["200"]["content"]["application/json"];
type Question = Body["questions"][number];
type QType = NonNullable<Question["type"]>;
type Option = NonNullable<Question["options"]>[number];
const TYPES: QType[] = ["SINGLE_CHOICE", "MULTIPLE_CHOICE", "SHORT_TEXT", "LONG_TEXT", "SCALE"];
const CHOICE = (type: QType | undefined) => type === "SINGLE_CHOICE" || type === "MULTIPLE_CHOICE";

const blank = (type: QType): Question => ({
  type,
  title: "",
  isRequired: false,
  ...(CHOICE(type) ? { options: [{ label: "" }, { label: "" }] } : {}),
  ...(type === "SCALE" ? { scaleMin: 1, scaleMax: 5, scaleMinLabel: null, scaleMaxLabel: null } : {}),
});

/** The config as a request body: questions and options keep their ids, so saving unchanged ones keeps their answers. */
const toBody = (c: Config): Body => ({
  description: c.description,
  isAnonymous: c.isAnonymous,
  allowResubmit: c.allowResubmit,
  opensAt: c.opensAt,
  closesAt: c.closesAt,
  questions: c.questions.map((q) => ({
    id: q.id,
    type: q.type,
    title: q.title,
    description: q.description,
    isRequired: q.isRequired,
    ...(CHOICE(q.type) ? { options: q.options.map((o) => ({ id: o.id, label: o.label, isEtc: o.isEtc })) } : {}),
    ...(q.type === "SCALE"
      ? { scaleMin: q.scaleMin, scaleMax: q.scaleMax, scaleMinLabel: q.scaleMinLabel, scaleMaxLabel: q.scaleMaxLabel }
      : {}),
  })),
});

/** The survey's questions of every type, anonymity, resubmission and window; a change that would delete responses asks first. */
export function SurveyEditor({ contentId }: { contentId: string }) {
  const { t } = useI18n();
  const qc = useQueryClient();
  const config = useQuery(surveyConfigQuery(contentId));
  const [draft, setDraft] = useState<Body | null>(null);
  useEffect(() => {
    if (config.data && !draft) setDraft(toBody(config.data));
  }, [config.data, draft]);
  const save = useMutation({
    mutationFn: (body: Body) => setSurveyConfig({ params: { path: { contentId } }, body }),
    onSuccess: (data) => {
      qc.setQueryData(surveyKeys.config(contentId), data);
      void qc.invalidateQueries({ queryKey: surveyKeys.stats(contentId) });
      setDraft(toBody(data));
      check.reset();
    },
  });
  // Responses exist and the change invalidates them: the server says which, the teacher decides.
  const check = useMutation({
    mutationFn: (body: Body) => checkSurveyConfigChange({ params: { path: { contentId } }, body }),
    onSuccess: (result, body) => {
      if (!result.needReset) save.mutate(body);
    },
  });
  if (!draft) return <Loading />;
  const err = (f: string) => fieldError(save.error ?? check.error, f, t);
  const edit = (next: Body) => {
    setDraft(next);
    check.reset();
  };
  const warn = check.data?.needReset ? check.data : null;
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        check.mutate(draft);
      }}
    >
      <div className="field">
        <label htmlFor="survey-description">{t("survey.description")}</label>
        <textarea
          id="survey-description"
          rows={2}
          value={draft.description ?? ""}
          onChange={(e) => edit({ ...draft, description: e.target.value })}
        />
      </div>
      <div className="inline">
        <label className="check">
          <input type="checkbox" checked={!!draft.isAnonymous} onChange={(e) => edit({ ...draft, isAnonymous: e.target.checked })} />
          {t("survey.anonymous")}
        </label>
        <label className="check">
          <input type="checkbox" checked={!!draft.allowResubmit} onChange={(e) => edit({ ...draft, allowResubmit: e.target.checked })} />
          {t("survey.allowResubmit")}
        </label>
        <WindowFields
          value={draft}
          onChange={(patch) => edit({ ...draft, ...patch })}
          onCloseNow={() => save.mutate({ ...draft, closesAt: new Date().toISOString() })}
          error={err}
        />
      </div>
      <QuestionsEditor
        questions={draft.questions}
        onChange={(questions) => edit({ ...draft, questions })}
        types={TYPES}
        typeOf={(q) => q.type ?? "SHORT_TEXT"}
        typeLabel={(x) => t(`survey.types.${x}`)}
        blank={blank}
        keyOf={(q, i) => q.id ?? `new-${i}`}
        text={{ get: (q) => q.title ?? "", set: (q, title) => ({ ...q, title }), field: "title" }}
        error={err}
      >
        {(q, i, update) => (
          <>
            <label className="check">
              <input type="checkbox" checked={!!q.isRequired} onChange={(e) => update({ ...q, isRequired: e.target.checked })} />
              {t("survey.requiredAnswer")}
            </label>
            {q.options && (
              <OptionsEditor<Option>
                options={q.options}
                onChange={(options) => update({ ...q, options })}
                blank={() => ({ label: "" })}
                keyOf={(o, k) => o.id ?? `o-${k}`}
                text={{ get: (o) => o.label, set: (o, label) => ({ ...o, label }) }}
                field={`questions[${i}].options`}
                error={err}
                extra={(o, k) => (
                  <label className="check">
                    <input
                      type="checkbox"
                      checked={!!o.isEtc}
                      onChange={(e) =>
                        update({ ...q, options: q.options?.map((x, m) => (m === k ? { ...x, isEtc: e.target.checked } : x)) })
                      }
                    />
                    {t("survey.etc")}
                  </label>
                )}
              />
            )}
            {q.type === "SCALE" && (
              <div className="inline">
                <Field
                  label={t("survey.scaleMin")}
                  type="number"
                  min={0}
                  max={1}
                  value={q.scaleMin ?? 1}
                  onChange={(e) => update({ ...q, scaleMin: Number(e.target.value) })}
                  error={err(`questions[${i}].scaleMin`)}
                />
                <Field
                  label={t("survey.scaleMax")}
                  type="number"
                  min={2}
                  max={10}
                  value={q.scaleMax ?? 5}
                  onChange={(e) => update({ ...q, scaleMax: Number(e.target.value) })}
                  error={err(`questions[${i}].scaleMax`)}
                />
                <Field
                  label={t("survey.scaleMinLabel")}
                  value={q.scaleMinLabel ?? ""}
                  onChange={(e) => update({ ...q, scaleMinLabel: e.target.value || null })}
                />
                <Field
                  label={t("survey.scaleMaxLabel")}
                  value={q.scaleMaxLabel ?? ""}
                  onChange={(e) => update({ ...q, scaleMaxLabel: e.target.value || null })}
                />
              </div>
            )}
          </>
        )}
      </QuestionsEditor>
      <FormError error={save.error ?? check.error} fields={["questions", "opensAt", "closesAt"]} />
      {warn && (
        <div role="alert" className="panel">
          <p>{t("survey.resetWarning", { n: warn.submitCount })}</p>
          <ul>
            {warn.reasons.map((r) => (
              <li key={r}>{t(`survey.reasons.${r}`)}</li>
            ))}
          </ul>
          <button type="button" className="danger" onClick={() => save.mutate({ ...draft, resetResponses: true })}>
            {t("survey.saveAndReset")}
          </button>
        </div>
      )}
      {save.isSuccess && <p role="status">{t("common.saved")}</p>}
      <button type="submit" className="primary" disabled={save.isPending || check.isPending}>
        {t("survey.save")}
      </button>
    </form>
  );
}
