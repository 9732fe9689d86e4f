import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { useI18n } from "../../i18n";
import { FormError, fieldError } from "../../ui/ui";
import { uploadFile } from "../files/queries";

/** Handing in text and files (each upload's progress shown); `send` makes the submit call with the uploaded file ids. */
export function SubmitForm({
  again,
  send,
  onDone,
}: {
  /** Whether this hands in again over an earlier submission (the form's title says so). */
  again: boolean;
  send: (body: string | null, fileIds: string[]) => Promise<unknown>;
  onDone: () => void;
}) {
  const { t } = useI18n();
  const [body, setBody] = useState("");
  const [files, setFiles] = useState<File[]>([]);
  const [progress, setProgress] = useState<number | null>(null);
  const submit = useMutation({
    mutationFn: async () => {
      const fileIds: string[] = [];
      for (const [i, f] of files.entries()) {
        fileIds.push(await uploadFile(f, (p) => setProgress((i + p) / files.length)));
      }
      return send(body || null, fileIds);
    },
    onSuccess: () => {
      setBody("");
      setFiles([]);
      onDone();
    },
    onSettled: () => setProgress(null),
  });
  return (
    <form
      className="panel"
      onSubmit={(e) => {
        e.preventDefault();
        submit.mutate();
      }}
    >
      <h2>{again ? t("assignment.resubmit") : t("assignment.submit")}</h2>
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
  );
}
