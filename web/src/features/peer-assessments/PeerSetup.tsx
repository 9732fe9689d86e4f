import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { paths } from "../../api/schema";
import { useI18n } from "../../i18n";
import { Field, FormError, fieldError, Loading, Select } from "../../ui/ui";
import { GroupSetPicker } from "../group-work/GroupSetPicker";
import { peerConfigQuery, peerKeys, setPeerAssessmentConfig } from "./queries";

type Body = paths["/api/v1/peer-assessments/{contentId}/config"]["put"]["requestBody"]["content"]["application/json"];
type SubmitType = NonNullable<Body["submitType"]>;

/** The group set, who assesses whom (members of one group, or group against group), and the criteria scored 0–5. */
export function PeerSetup({ contentId, spaceId }: { contentId: string; spaceId: string }) {
  const { t } = useI18n();
  const qc = useQueryClient();
  const config = useQuery(peerConfigQuery(contentId));
  const [draft, setDraft] = useState<Body | null>(null);
  useEffect(() => {
    if (config.data && !draft) {
      const { snapshot: c, questions } = config.data;
      setDraft({
        spaceGroupSetId: c.spaceGroupSetId,
        allowDescriptiveAssessment: c.allowDescriptiveAssessment,
        allowSelfAssessment: c.allowSelfAssessment,
        submitType: c.submitType,
        questions: questions.length
          ? questions.map((q) => ({ id: q.id, assessmentCriteria: q.assessmentCriteria, criteriaSubText: q.criteriaSubText }))
          : [{ assessmentCriteria: "", criteriaSubText: null }],
      });
    }
  }, [config.data, draft]);
  const save = useMutation({
    mutationFn: (body: Body) => setPeerAssessmentConfig({ params: { path: { contentId } }, body }),
    onSuccess: (data) => {
      qc.setQueryData(peerKeys.config(contentId), data);
      void qc.invalidateQueries({ queryKey: peerKeys.results(contentId) });
    },
  });
  if (!draft || !config.data) return <Loading />;
  const err = (f: string) => fieldError(save.error, f, t);
  const c = save.data ?? config.data;
  return (
    <form
      className="stack"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate(draft);
      }}
    >
      <GroupSetPicker
        spaceId={spaceId}
        value={draft.spaceGroupSetId ?? null}
        onChange={(id) => setDraft({ ...draft, spaceGroupSetId: id })}
      />
      {!c.isLinkValid && c.linkInvalidReason && <p className="muted">{t(`groupWork.link.${c.linkInvalidReason}`)}</p>}
      {c.hasSubmitters && <p className="muted">{t("peer.hasSubmitters", { n: c.submitCount })}</p>}
      <div className="inline">
        <Select
          label={t("peer.submitType")}
          value={draft.submitType ?? "GROUP_MEMBER"}
          onChange={(v) => setDraft({ ...draft, submitType: v as SubmitType })}
          options={(["GROUP_MEMBER", "INTER_GROUP"] as const).map((x) => ({ value: x, label: t(`peer.submitTypes.${x}`) }))}
        />
        <label className="check">
          <input
            type="checkbox"
            checked={!!draft.allowSelfAssessment}
            onChange={(e) => setDraft({ ...draft, allowSelfAssessment: e.target.checked })}
          />
          {t("peer.allowSelf")}
        </label>
        <label className="check">
          <input
            type="checkbox"
            checked={!!draft.allowDescriptiveAssessment}
            onChange={(e) => setDraft({ ...draft, allowDescriptiveAssessment: e.target.checked })}
          />
          {t("peer.allowComments")}
        </label>
      </div>
      <fieldset className="panel">
        <legend>{t("peer.criteria")}</legend>
        {draft.questions.map((q, i) => (
          <div className="inline" key={q.id ?? `new-${i}`}>
            <Field
              label={t("peer.criterionN", { n: i + 1 })}
              value={q.assessmentCriteria ?? ""}
              onChange={(e) =>
                setDraft({
                  ...draft,
                  questions: draft.questions.map((x, j) => (j === i ? { ...x, assessmentCriteria: e.target.value } : x)),
                })
              }
              error={err(`questions[${i}].assessmentCriteria`)}
            />
            <Field
              label={t("peer.criterionHintN", { n: i + 1 })}
              value={q.criteriaSubText ?? ""}
              onChange={(e) =>
                setDraft({
                  ...draft,
                  questions: draft.questions.map((x, j) => (j === i ? { ...x, criteriaSubText: e.target.value || null } : x)),
                })
              }
            />
            <button
              type="button"
              className="small danger"
              aria-label={t("peer.removeCriterionN", { n: i + 1 })}
              disabled={draft.questions.length === 1}
              onClick={() => setDraft({ ...draft, questions: draft.questions.filter((_, j) => j !== i) })}
            >
              {t("common.remove")}
            </button>
          </div>
        ))}
        <button
          type="button"
          onClick={() => setDraft({ ...draft, questions: [...draft.questions, { assessmentCriteria: "", criteriaSubText: null }] })}
        >
          {t("peer.addCriterion")}
        </button>
        <p className="muted">{t("peer.scale")}</p>
      </fieldset>
      <FormError error={save.error} fields={["questions", "spaceGroupSetId"]} />
      {save.isSuccess && <p role="status">{t("common.saved")}</p>}
      <button type="submit" className="primary" disabled={save.isPending}>
        {t("peer.save")}
      </button>
    </form>
  );
}
