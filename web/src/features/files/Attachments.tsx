import { useId } from "react";
import { useI18n } from "../../i18n";

type Attachment = { fileId: string; name: string; size: number; url: string | null };

/** A record's attached files as download links (a file whose download is not allowed is named only). */
export function AttachmentList({ files }: { files: Attachment[] }) {
  if (files.length === 0) return null;
  return (
    <ul className="list">
      {files.map((a) => (
        <li key={a.fileId}>
          📎{" "}
          {a.url ? (
            <a href={a.url} download={a.name}>
              {a.name}
            </a>
          ) : (
            a.name
          )}{" "}
          <small className="muted">({Math.max(1, Math.round(a.size / 1024))} KB)</small>
        </li>
      ))}
    </ul>
  );
}

/** The file chooser of a form and, while its files upload, their progress. */
export function FilePicker(props: { label: string; files: File[]; onChange: (files: File[]) => void; progress: number | null }) {
  const { t } = useI18n();
  const id = useId();
  return (
    <>
      <div className="field">
        <label htmlFor={id}>{props.label}</label>
        <input
          id={id}
          type="file"
          multiple
          onChange={(e) => props.onChange([...(e.target.files ?? [])])}
          key={props.files.length === 0 ? "empty" : "chosen"}
        />
      </div>
      {props.progress !== null && (
        <div className="field" role="status">
          <label htmlFor={`${id}-p`}>{t("files.uploading", { n: Math.round(props.progress * 100) })}</label>
          <progress id={`${id}-p`} max={1} value={props.progress} />
        </div>
      )}
    </>
  );
}
