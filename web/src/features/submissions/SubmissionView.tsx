import type { ReactNode } from "react";
import type { paths } from "../../api/schema";
import { useI18n } from "../../i18n";
import { formatDate } from "../../ui/ui";

type Raw =
  paths["/api/v1/assignments/{contentId}/submissions"]["get"]["responses"]["200"]["content"]["application/json"]["submissions"][number];

/** A submission as the client hands it over (its data type drops `gptCopyRatio`, a field typed only `null`). */
export type Submission = Omit<Raw, "similarity"> & { similarity: Omit<NonNullable<Raw["similarity"]>, "gptCopyRatio"> | null };

/** What the view reads: an assignment's submission, or a group assignment's (no rubric there). */
type Viewed = Pick<Submission, "submittedAt" | "isLate" | "status" | "body" | "attachments" | "score" | "feedback"> & {
  similarity: Pick<NonNullable<Submission["similarity"]>, "status" | "copyRatio"> | null;
  rubricEvaluation?: Submission["rubricEvaluation"];
};

/** One submission as both sides see it: when, late or not, status, text, files, similarity, grade and feedback. */
export function SubmissionView({ submission: s, children }: { submission: Viewed; children?: ReactNode }) {
  const { t, lang } = useI18n();
  return (
    <dl className="facts">
      <dt>{t("assignment.submittedAt")}</dt>
      <dd>
        {formatDate(s.submittedAt, lang)} {s.isLate && <span className="badge late">{t("assignment.late")}</span>}
      </dd>
      <dt>{t("assignment.status")}</dt>
      <dd data-testid="submission-status">{t(`assignment.statuses.${s.status}`)}</dd>
      {s.body && (
        <>
          <dt>{t("assignment.text")}</dt>
          <dd className="pre">{s.body}</dd>
        </>
      )}
      <dt>{t("assignment.files")}</dt>
      <dd>
        {s.attachments.length === 0
          ? "—"
          : s.attachments.map((a) => (
              <a key={a.fileId} href={a.downloadUrl} download={a.fileName}>
                {a.fileName}
              </a>
            ))}
      </dd>
      {s.similarity && (
        <>
          <dt>{t("assignment.similarity")}</dt>
          <dd>{s.similarity.copyRatio === null ? s.similarity.status : `${Math.round(s.similarity.copyRatio)}%`}</dd>
        </>
      )}
      {s.rubricEvaluation && (
        <>
          <dt>{t("assignment.rubric")}</dt>
          <dd>
            {s.rubricEvaluation.items.map((i) => i.points).join(" + ")} = {s.rubricEvaluation.total}
          </dd>
        </>
      )}
      <dt>{t("quiz.score")}</dt>
      <dd data-testid="submission-score">{s.score ?? "—"}</dd>
      {s.feedback && (
        <>
          <dt>{t("assignment.feedback")}</dt>
          <dd className="pre">{s.feedback}</dd>
        </>
      )}
      {children}
    </dl>
  );
}
