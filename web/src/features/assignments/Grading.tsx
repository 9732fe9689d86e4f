import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api, ok } from "../../api/client";
import { useI18n } from "../../i18n";
import { fromLocalInput } from "../../shell/datetime";
import { useSearch } from "../../shell/router";
import { Field, FormError, fieldError, formatDate, Loading } from "../../shell/ui";
import { useAssignmentConfig, useRubric } from "./queries";
import { type Submission, SubmissionView } from "./SubmissionView";

/** Every latest submission, and one opened (?sub=) with its history, rubric scoring, feedback, grade and return. */
export function Grading({ contentId }: { contentId: string }) {
  const { t, lang } = useI18n();
  const { get, set } = useSearch();
  const list = useQuery({
    queryKey: ["submissions", contentId],
    queryFn: () =>
      ok(api.GET("/api/v1/assignments/{contentId}/submissions", { params: { path: { contentId }, query: { pageSize: 100 } } })),
  });
  if (!list.data) return <Loading />;
  const open = list.data.submissions.find((s) => s.id === get("sub"));
  return (
    <div className="split">
      <div>
        <p>{t("assignment.pending", { n: list.data.pendingCount, total: list.data.total })}</p>
        <table>
          <thead>
            <tr>
              <th>{t("members.name")}</th>
              <th>{t("assignment.submittedAt")}</th>
              <th>{t("assignment.status")}</th>
              <th>{t("quiz.score")}</th>
            </tr>
          </thead>
          <tbody>
            {list.data.submissions.map((s) => (
              <tr key={s.id}>
                <td>
                  <button type="button" className="link" onClick={() => set({ sub: s.id })}>
                    {s.displayName ?? "—"}
                  </button>
                </td>
                <td>
                  {formatDate(s.submittedAt, lang)} {s.isLate && <span className="badge late">{t("assignment.late")}</span>}
                </td>
                <td>{t(`assignment.statuses.${s.status}`)}</td>
                <td>{s.score ?? "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {list.data.submissions.length === 0 && <p>{t("common.empty")}</p>}
      </div>
      {open && <GradePanel key={`${open.id}-${open.status}`} contentId={contentId} submission={open} />}
    </div>
  );
}

function GradePanel({ contentId, submission }: { contentId: string; submission: Submission }) {
  const { t, lang } = useI18n();
  const qc = useQueryClient();
  const rubric = useRubric(contentId);
  const config = useAssignmentConfig(contentId);
  const history = useQuery({
    queryKey: ["submitter-history", contentId, submission.profileId],
    queryFn: () =>
      ok(
        api.GET("/api/v1/assignments/{contentId}/submitters/{profileId}/history", {
          params: { path: { contentId, profileId: submission.profileId } },
        }),
      ),
  });
  const [points, setPoints] = useState<Record<string, string>>(() =>
    Object.fromEntries((submission.rubricEvaluation?.items ?? []).map((i) => [i.criterionId, String(i.points)])),
  );
  const [score, setScore] = useState(submission.score === null || submission.rubricEvaluation ? "" : String(submission.score));
  const [feedback, setFeedback] = useState(submission.feedback ?? "");
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: ["submissions", contentId] });
    void qc.invalidateQueries({ queryKey: ["submitter-history", contentId, submission.profileId] });
  };
  const criteria = rubric.data?.criteria ?? [];
  const grade = useMutation({
    mutationFn: () => {
      const items = criteria
        .filter((c) => points[c.id] !== undefined && points[c.id] !== "")
        .map((c) => ({ criterionId: c.id, points: Number(points[c.id]) }));
      return ok(
        api.PUT("/api/v1/assignments/{contentId}/submissions/{submissionId}/grade", {
          params: { path: { contentId, submissionId: submission.id } },
          body: { score: score === "" ? null : Number(score), feedback: feedback || null, ...(items.length ? { rubric: items } : {}) },
        }),
      );
    },
    onSuccess: refresh,
  });
  const giveBack = useMutation({
    mutationFn: () =>
      ok(
        api.POST("/api/v1/assignments/{contentId}/submissions/{submissionId}/return", {
          params: { path: { contentId, submissionId: submission.id } },
        }),
      ),
    onSuccess: refresh,
  });
  const total = criteria.reduce((sum, c) => sum + (Number(points[c.id]) || 0), 0);
  return (
    <section className="panel" aria-labelledby="grade-title">
      <h2 id="grade-title">{submission.displayName ?? "—"}</h2>
      <SubmissionView submission={submission} />
      {history.data && history.data.history.length > 1 && (
        <details>
          <summary>{t("assignment.history", { n: history.data.history.length })}</summary>
          <ul className="list">
            {history.data.history.map((h) => (
              <li key={h.id}>
                {t("assignment.revision", { n: h.revision })} · {formatDate(h.submittedAt, lang)} · {t(`assignment.statuses.${h.status}`)} ·{" "}
                {h.score ?? "—"}
              </li>
            ))}
          </ul>
        </details>
      )}
      <Extension contentId={contentId} profileId={submission.profileId} />
      <form
        onSubmit={(e) => {
          e.preventDefault();
          grade.mutate();
        }}
      >
        {criteria.length > 0 && (
          <fieldset>
            <legend>{t("assignment.rubric")}</legend>
            {criteria.map((c, i) => (
              <Field
                key={c.id}
                label={`${c.name} (0–${c.maxPoints})`}
                type="number"
                min={0}
                max={c.maxPoints}
                step="any"
                value={points[c.id] ?? ""}
                onChange={(e) => setPoints({ ...points, [c.id]: e.target.value })}
                error={fieldError(grade.error, `rubric[${i}]`, t)}
              />
            ))}
            <p>{t("assignment.rubricTotal", { n: total, max: rubric.data?.totalMaxPoints ?? 0 })}</p>
          </fieldset>
        )}
        <Field
          label={t("assignment.scoreOverride", { max: config.data?.maxScore ?? "—" })}
          type="number"
          min={0}
          step="any"
          value={score}
          onChange={(e) => setScore(e.target.value)}
          error={fieldError(grade.error, "score", t)}
        />
        <div className="field">
          <label htmlFor="grade-feedback">{t("assignment.feedback")}</label>
          <textarea id="grade-feedback" rows={3} value={feedback} onChange={(e) => setFeedback(e.target.value)} />
        </div>
        <FormError error={grade.error ?? giveBack.error} fields={["score", "rubric"]} />
        {grade.isSuccess && <p role="status">{t("common.saved")}</p>}
        <div className="inline">
          <button type="submit" className="primary">
            {t("assignment.saveGrade")}
          </button>
          <button type="button" disabled={submission.status !== "GRADED"} onClick={() => giveBack.mutate()}>
            {t("assignment.return")}
          </button>
        </div>
      </form>
    </section>
  );
}

/** A later deadline for this one student (setSubmissionExtension). */
function Extension({ contentId, profileId }: { contentId: string; profileId: string }) {
  const { t } = useI18n();
  const [dueAt, setDueAt] = useState("");
  const extend = useMutation({
    mutationFn: () =>
      ok(
        api.PUT("/api/v1/assignments/{contentId}/extensions/{profileId}", {
          params: { path: { contentId, profileId } },
          body: { dueAt: fromLocalInput(dueAt) },
        }),
      ),
  });
  return (
    <form
      className="inline"
      onSubmit={(e) => {
        e.preventDefault();
        extend.mutate();
      }}
    >
      <Field
        label={t("assignment.extension")}
        type="datetime-local"
        value={dueAt}
        onChange={(e) => setDueAt(e.target.value)}
        error={fieldError(extend.error, "dueAt", t)}
      />
      <button type="submit">{t("assignment.extend")}</button>
      <FormError error={extend.error} fields={["dueAt"]} />
      {extend.isSuccess && <span role="status">{t("common.saved")}</span>}
    </form>
  );
}
