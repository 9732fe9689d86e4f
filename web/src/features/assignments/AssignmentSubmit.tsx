import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api, ok } from "../../api/client";
import { useI18n } from "../../i18n";
import { FormError, fieldError, formatDate, Loading } from "../../shell/ui";
import { uploadFile } from "../files/upload";
import { useAssignmentConfig } from "./queries";
import { SubmissionView } from "./SubmissionView";

/** A learner's assignment: its rules, my latest submission with its grade, and the form to (re)submit text and files. */
export default function AssignmentSubmit({ contentId }: { contentId: string }) {
  const { t, lang } = useI18n();
  const qc = useQueryClient();
  const config = useAssignmentConfig(contentId);
  const mine = useQuery({
    queryKey: ["my-submission", contentId],
    queryFn: () => ok(api.GET("/api/v1/assignments/{contentId}/my-submission", { params: { path: { contentId } } })),
  });
  const [body, setBody] = useState("");
  const [files, setFiles] = useState<File[]>([]);
  const [progress, setProgress] = useState<number | null>(null);
  const submit = useMutation({
    mutationFn: async () => {
      const fileIds: string[] = [];
      for (const [i, f] of files.entries()) {
        fileIds.push(await uploadFile(f, (p) => setProgress((i + p) / files.length)));
      }
      return ok(
        api.POST("/api/v1/assignments/{contentId}/submissions", { params: { path: { contentId } }, body: { body: body || null, fileIds } }),
      );
    },
    onSuccess: () => {
      setBody("");
      setFiles([]);
      void qc.invalidateQueries({ queryKey: ["my-submission", contentId] });
    },
    onSettled: () => setProgress(null),
  });
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
        <form
          className="panel"
          onSubmit={(e) => {
            e.preventDefault();
            submit.mutate();
          }}
        >
          <h2>{latest ? t("assignment.resubmit") : t("assignment.submit")}</h2>
          <div className="field">
            <label htmlFor="submit-body">{t("assignment.text")}</label>
            <textarea
              id="submit-body"
              rows={4}
              value={body}
              onChange={(e) => setBody(e.target.value)}
              aria-invalid={fieldError(submit.error, "body", t) ? true : undefined}
            />
          </div>
          <div className="field">
            <label htmlFor="submit-files">{t("assignment.files")}</label>
            <input id="submit-files" type="file" multiple onChange={(e) => setFiles([...(e.target.files ?? [])])} />
          </div>
          {progress !== null && (
            <div className="field" role="status">
              <label htmlFor="upload-progress">{t("assignment.uploading", { n: Math.round(progress * 100) })}</label>
              <progress id="upload-progress" max={1} value={progress} />
            </div>
          )}
          <FormError error={submit.error} fields={["body"]} />
          <button type="submit" className="primary" disabled={submit.isPending}>
            {t("assignment.send")}
          </button>
        </form>
      )}
    </div>
  );
}
