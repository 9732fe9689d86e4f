import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useI18n } from "../../i18n";
import { fromLocalInput } from "../../ui/datetime";
import { useSearch } from "../../ui/router";
import { ConfirmButton, Field, FormError, fieldError, Loading } from "../../ui/ui";
import { GradeForm, SubmissionTable } from "../submissions/GradingParts";
import { RevisionHistory } from "../submissions/RevisionHistory";
import { type Submission, SubmissionView } from "../submissions/SubmissionView";
import {
  assignmentKeys,
  gradeSubmission,
  returnAllSubmissions,
  returnSubmission,
  setSubmissionExtension,
  submissionsQuery,
  submitterHistoryQuery,
  useAssignmentConfig,
  useRubric,
} from "./queries";

/** Every latest submission, and one opened (?sub=) with its history, rubric scoring, feedback, grade and return. */
export function Grading({ contentId }: { contentId: string }) {
  const { t } = useI18n();
  const { get, set } = useSearch();
  const list = useQuery(submissionsQuery(contentId));
  if (!list.data) return <Loading />;
  const open = list.data.submissions.find((s) => s.id === get("sub"));
  return (
    <div className="split">
      <div>
        <p>{t("assignment.pending", { n: list.data.pendingCount, total: list.data.total })}</p>
        <ReturnAll contentId={contentId} graded={list.data.submissions.filter((s) => s.status === "GRADED").length} />
        <SubmissionTable
          nameHeader={t("members.name")}
          rows={list.data.submissions.map((s) => ({ ...s, name: s.displayName ?? "—" }))}
          onOpen={(id) => set({ sub: id })}
        />
      </div>
      {open && <GradePanel key={`${open.id}-${open.status}`} contentId={contentId} submission={open} />}
    </div>
  );
}

/** Returns every graded, not yet returned submission at once (returnAllSubmissions), after asking. */
function ReturnAll({ contentId, graded }: { contentId: string; graded: number }) {
  const { t } = useI18n();
  const qc = useQueryClient();
  const returnAll = useMutation({
    mutationFn: () => returnAllSubmissions({ params: { path: { contentId } } }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: assignmentKeys.submissions(contentId) }),
  });
  return (
    <div className="inline">
      <ConfirmButton
        question={t("assignment.returnAllConfirm", { count: graded })}
        disabled={graded === 0 || returnAll.isPending}
        onConfirm={() => returnAll.mutate()}
      >
        {t("assignment.returnAll", { count: graded })}
      </ConfirmButton>
      {returnAll.data && <span role="status">{t("assignment.returnedN", { count: returnAll.data.returned })}</span>}
      <FormError error={returnAll.error} fields={[]} />
    </div>
  );
}

function GradePanel({ contentId, submission }: { contentId: string; submission: Submission }) {
  const { t } = useI18n();
  const qc = useQueryClient();
  const rubric = useRubric(contentId);
  const config = useAssignmentConfig(contentId);
  const history = useQuery(submitterHistoryQuery(contentId, submission.profileId));
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: assignmentKeys.submissions(contentId) });
    void qc.invalidateQueries({ queryKey: assignmentKeys.history(contentId, submission.profileId) });
  };
  const path = { contentId, submissionId: submission.id };
  return (
    <section className="panel" aria-labelledby="grade-title">
      <h2 id="grade-title">{submission.displayName ?? "—"}</h2>
      <SubmissionView submission={submission} />
      <RevisionHistory history={history.data?.history ?? []} />
      <Extension contentId={contentId} profileId={submission.profileId} />
      {rubric.data && (
        <GradeForm
          status={submission.status}
          score={submission.score}
          feedback={submission.feedback}
          maxScore={config.data?.maxScore ?? null}
          criteria={rubric.data.criteria}
          rubricMax={rubric.data.totalMaxPoints}
          given={submission.rubricEvaluation?.items}
          grade={(body) => gradeSubmission({ params: { path }, body })}
          giveBack={() => returnSubmission({ params: { path } })}
          onDone={refresh}
          returnLabel={t("assignment.return")}
        />
      )}
    </section>
  );
}

/** A later deadline for this one student (setSubmissionExtension). */
function Extension({ contentId, profileId }: { contentId: string; profileId: string }) {
  const { t } = useI18n();
  const [dueAt, setDueAt] = useState("");
  const extend = useMutation({
    mutationFn: () =>
      setSubmissionExtension({
        params: { path: { contentId, profileId } },
        body: { dueAt: fromLocalInput(dueAt) },
      }),
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
