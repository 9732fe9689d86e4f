import { useId, useState } from "react";
import { useI18n } from "../../i18n";
import { Field, fieldError, useProblemText } from "../../ui/ui";
import { uploadFile } from "../files/queries";

/** Files uploaded in this page's lifetime, by id: the preview shows them from the browser's copy. */
const uploaded = new Map<string, string>();
export const uploadedImageUrl = (fileId: string | null) => (fileId ? (uploaded.get(fileId) ?? null) : null);

/**
 * One image of the sign-in page: an uploaded file (files module; it wins while set) or an http(s) URL.
 * `fileField`/`urlField` name the settings fields, so a problem lands here.
 */
export function ImageInput(props: {
  label: string;
  fileId: string | null;
  url: string | null;
  onFile: (fileId: string | null) => void;
  onUrl: (url: string) => void;
  fileField: string;
  urlField: string;
  error: unknown;
}) {
  const { t } = useI18n();
  const problem = useProblemText();
  const id = useId();
  const [progress, setProgress] = useState<number | null>(null);
  const [failed, setFailed] = useState<unknown>(null);
  const fileError = fieldError(props.error, props.fileField, t);
  return (
    <fieldset className="image-input">
      <legend>{props.label}</legend>
      <div className="field">
        <label htmlFor={id}>{t("loginPage.uploadImage", { what: props.label })}</label>
        <input
          id={id}
          type="file"
          accept="image/png,image/jpeg,image/gif,image/webp,image/svg+xml"
          aria-invalid={fileError ? true : undefined}
          onChange={async (e) => {
            const file = e.target.files?.[0];
            if (!file) return;
            setFailed(null);
            try {
              const fileId = await uploadFile(file, setProgress);
              uploaded.set(fileId, URL.createObjectURL(file));
              props.onFile(fileId);
            } catch (err) {
              setFailed(err);
            } finally {
              setProgress(null);
            }
          }}
        />
        {progress !== null && <progress value={progress} max={1} aria-label={t("loginPage.uploading")} />}
        {fileError && <small className="error">{fileError}</small>}
        {failed ? (
          <small role="alert" className="error">
            {problem(failed)}
          </small>
        ) : null}
      </div>
      {props.fileId ? (
        <p className="inline">
          <span data-testid={`${props.fileField}-set`}>{t("loginPage.imageUploaded")}</span>{" "}
          <button type="button" className="small" onClick={() => props.onFile(null)}>
            {t("loginPage.removeImage", { what: props.label })}
          </button>
        </p>
      ) : null}
      <Field
        label={t("loginPage.imageUrl", { what: props.label })}
        hint={t("loginPage.imageUrlHint")}
        inputMode="url"
        maxLength={2000}
        value={props.url ?? ""}
        onChange={(e) => props.onUrl(e.target.value)}
        error={fieldError(props.error, props.urlField, t)}
      />
    </fieldset>
  );
}
