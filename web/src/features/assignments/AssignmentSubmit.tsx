import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useI18n } from "../../i18n";
import { formatDate, Loading } from "../../ui/ui";
import { SubmissionView } from "../submissions/SubmissionView";
import { SubmitForm } from "../submissions/SubmitForm";
import { assignmentKeys, mySubmissionQuery, submitAssignment, useAssignmentConfig } from "./queries";

/** A learner's assignment: its rules, my latest submission with its grade, and the form to (re)submit text and files. */
export default function AssignmentSubmit({ contentId }: { contentId: string }) {
  const { t, lang } = useI18n();
  const qc = useQueryClient();
  const config = useAssignmentConfig(contentId);
  const mine = useQuery(mySubmissionQuery(contentId));
  if (!config.data || !mine.data) return <Loading />;
  const c = config.data;
  const latest = mine.data.latest;
  const canSubmit = !latest || (c.allowResubmit && latest.status !== "GRADED");
  return (
    <div className="stack">
      <dl className="facts">
        <dt>{t("assignment.dueAt")}</dt>
        <dd>{formatDate(c.dueAt, lang)}</dd>
        <dt>{t("assignment.maxScore")}</dt>
        <dd>{c.maxScore ?? "—"}</dd>
      </dl>
      {latest && (
        <section className="panel">
          <h2>{t("assignment.mine")}</h2>
          <SubmissionView submission={latest} />
        </section>
      )}
      {canSubmit && (
        <SubmitForm
          again={!!latest}
          send={(body, fileIds) => submitAssignment({ params: { path: { contentId } }, body: { body, fileIds } })}
          onDone={() => void qc.invalidateQueries({ queryKey: assignmentKeys.mine(contentId) })}
        />
      )}
    </div>
  );
}
