import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { paths } from "../../api/schema";
import { useI18n } from "../../i18n";
import { FormError, fieldError, formatDate, Loading } from "../../ui/ui";
import { myTargetsQuery, peerKeys, submitPeerAssessment } from "./queries";

type Mine = paths["/api/v1/peer-assessments/{contentId}/my-targets"]["get"]["responses"]["200"]["content"]["application/json"];
const SCORES = [0, 1, 2, 3, 4, 5];

/** A student's peer assessment: each assigned target (a classmate or another group) scored on every criterion. */
export default function PeerTake({ contentId }: { contentId: string }) {
  const { t } = useI18n();
  const mine = useQuery(myTargetsQuery(contentId));
  if (!mine.data) return <Loading />;
  const m = mine.data;
  const done = m.targets.filter((x) => x.submittedAt).length;
  return (
    <div className="stack">
      <p data-testid="peer-my-progress">{t("peer.myProgress", { n: done, total: m.targets.length })}</p>
      {m.targets.length === 0 && <p>{t("peer.noTargets")}</p>}
      {m.targets.map((x) => (
        <TargetForm key={x.targetId} contentId={contentId} mine={m} target={x} />
      ))}
    </div>
  );
}

function TargetForm({ contentId, mine, target }: { contentId: string; mine: Mine; target: Mine["targets"][number] }) {
  const { t, lang } = useI18n();
  const qc = useQueryClient();
  const [scores, setScores] = useState<Record<string, number>>({});
  const [comments, setComments] = useState<Record<string, string>>({});
  const send = useMutation({
    mutationFn: () =>
      submitPeerAssessment({
        params: { path: { contentId, targetId: target.targetId } },
        body: {
          answers: mine.questions.map((q) => ({ questionId: q.id, score: scores[q.id] ?? -1, comment: comments[q.id] || null })),
        },
      }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: peerKeys.mine(contentId) }),
  });
  const title = mine.submitType === "INTER_GROUP" ? target.groupName : target.targetName;
  const complete = mine.questions.every((q) => scores[q.id] !== undefined);
  return (
    <form
      className="panel"
      aria-label={title}
      onSubmit={(e) => {
        e.preventDefault();
        send.mutate();
      }}
    >
      <h2>
        {title} {mine.submitType === "GROUP_MEMBER" && <span className="muted">{target.groupName}</span>}
      </h2>
      {target.submittedAt && (
        <p role="status" data-testid="peer-target-status">
          {t("peer.assessedAt", { time: formatDate(target.submittedAt, lang) })}
        </p>
      )}
      {mine.questions.map((q, i) => (
        <fieldset key={q.id} className="question">
          <legend>
            {i + 1}. {q.assessmentCriteria}
          </legend>
          {q.criteriaSubText && <p className="muted">{q.criteriaSubText}</p>}
          <div className="inline" role="radiogroup" aria-label={t("peer.scoreFor", { criterion: q.assessmentCriteria })}>
            {SCORES.map((n) => (
              <label key={n} className="check">
                <input
                  type="radio"
                  name={`peer-${target.targetId}-${q.id}`}
                  checked={scores[q.id] === n}
                  onChange={() => setScores({ ...scores, [q.id]: n })}
                />
                {n}
              </label>
            ))}
          </div>
          {fieldError(send.error, `answers[${i}]`, t) && <small className="error">{t("errors.fieldInvalid")}</small>}
          {mine.allowDescriptiveAssessment && (
            <div className="field">
              <label htmlFor={`peer-${target.targetId}-${q.id}-c`}>{t("peer.comment")}</label>
              <textarea
                id={`peer-${target.targetId}-${q.id}-c`}
                rows={2}
                value={comments[q.id] ?? ""}
                onChange={(e) => setComments({ ...comments, [q.id]: e.target.value })}
              />
            </div>
          )}
        </fieldset>
      ))}
      <FormError error={send.error} fields={["answers"]} />
      <button type="submit" className="primary" disabled={!complete || send.isPending}>
        {target.submittedAt ? t("peer.resubmit") : t("peer.submit")}
      </button>
    </form>
  );
}
