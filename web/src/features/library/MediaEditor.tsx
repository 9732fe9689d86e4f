import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, type ReactNode, useState } from "react";
import { useI18n } from "../../i18n";
import { fromLocalInput, toLocalInput } from "../../ui/datetime";
import { Field, FormError, fieldError, Select } from "../../ui/ui";
import { uploadFile } from "../files/queries";
import type { MediaType } from "./MediaView";
import { attachVideo, libraryKeys, setDocument, setLinkedVideo, setLiveSession, useContentInfo } from "./queries";

const PROVIDERS = ["meeting_a", "meeting_b", "meeting_c", "other"] as const;

/** The manager's side of a media content: upload the video or document, or set the link or the live session. */
export function MediaEditor({ contentId, type }: { contentId: string; type: MediaType }) {
  return type === "VIDEO" || type === "DOCUMENT" ? (
    <FileMedia contentId={contentId} type={type} />
  ) : type === "URL_VIDEO" ? (
    <UrlVideoForm contentId={contentId} />
  ) : (
    <LiveForm contentId={contentId} />
  );
}

/** The content's info changed: the viewer and the classwork's "not set up yet" mark follow. */
function useSaved(contentId: string) {
  const qc = useQueryClient();
  return () => {
    void qc.invalidateQueries({ queryKey: libraryKeys.info(contentId) });
    void qc.invalidateQueries({ queryKey: libraryKeys.content(contentId) });
    void qc.invalidateQueries({ queryKey: libraryKeys.allContents });
  };
}

function Panel({ title, onSubmit, children }: { title: string; onSubmit: () => void; children: ReactNode }) {
  return (
    <form
      className="panel stack"
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      <h2>{title}</h2>
      {children}
    </form>
  );
}

function FileMedia({ contentId, type }: { contentId: string; type: "VIDEO" | "DOCUMENT" }) {
  const { t } = useI18n();
  const saved = useSaved(contentId);
  const [file, setFile] = useState<File | null>(null);
  const [pages, setPages] = useState("");
  const [progress, setProgress] = useState<number | null>(null);
  const [picks, setPicks] = useState(0); // a new key empties the file input after an upload
  const upload = useMutation({
    mutationFn: async () => {
      if (!file) return;
      const fileId = await uploadFile(file, setProgress);
      const params = { path: { contentId } };
      if (type === "VIDEO") await attachVideo({ params, body: { fileId } });
      else
        await setDocument({
          params,
          body: { fileId, ...(pages ? { pageCount: Number(pages) } : {}) },
        });
    },
    onSuccess: () => {
      setFile(null);
      setPicks(picks + 1);
      saved();
    },
    onSettled: () => setProgress(null),
  });
  const inputId = `media-file-${contentId}`;
  return (
    <Panel title={type === "VIDEO" ? t("media.uploadVideo") : t("media.uploadDocument")} onSubmit={() => upload.mutate()}>
      <div className="field">
        <label htmlFor={inputId}>{type === "VIDEO" ? t("media.videoFile") : t("media.documentFile")}</label>
        <input
          key={picks}
          id={inputId}
          type="file"
          required
          accept={type === "VIDEO" ? "video/*" : undefined}
          onChange={(e) => setFile(e.target.files?.[0] ?? null)}
        />
      </div>
      {type === "DOCUMENT" && (
        <Field
          label={t("media.pageCount")}
          type="number"
          min={1}
          value={pages}
          onChange={(e) => setPages(e.target.value)}
          error={fieldError(upload.error, "pageCount", t)}
        />
      )}
      {progress !== null && (
        <div className="field" role="status">
          <label htmlFor={`${inputId}-progress`}>{t("media.uploading", { n: Math.round(progress * 100) })}</label>
          <progress id={`${inputId}-progress`} max={1} value={progress} />
        </div>
      )}
      <FormError error={upload.error} fields={["pageCount"]} />
      {upload.isSuccess && <p role="status">{t("common.saved")}</p>}
      <button type="submit" className="primary" disabled={upload.isPending || !file}>
        {t("media.upload")}
      </button>
    </Panel>
  );
}

function UrlVideoForm({ contentId }: { contentId: string }) {
  const { t } = useI18n();
  const saved = useSaved(contentId);
  const info = useContentInfo(contentId).data?.info as { url?: string } | null | undefined;
  const [url, setUrl] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: () => setLinkedVideo({ params: { path: { contentId } }, body: { url: url ?? "" } }),
    onSuccess: saved,
  });
  return (
    <Panel title={t("media.linkTitle")} onSubmit={() => save.mutate()}>
      <Field
        label={t("media.videoUrl")}
        type="url"
        required
        value={url ?? info?.url ?? ""}
        onChange={(e) => setUrl(e.target.value)}
        error={fieldError(save.error, "url", t)}
      />
      <FormError error={save.error} fields={["url"]} />
      {save.isSuccess && <p role="status">{t("common.saved")}</p>}
      <button type="submit" className="primary">
        {t("media.saveLink")}
      </button>
    </Panel>
  );
}

type LiveBody = { joinUrl: string; provider: (typeof PROVIDERS)[number]; startAt: string | null; endAt: string | null };

function LiveForm({ contentId }: { contentId: string }) {
  const { t } = useI18n();
  const saved = useSaved(contentId);
  const current = useContentInfo(contentId).data?.info as Partial<LiveBody> | null | undefined;
  const [form, setForm] = useState<LiveBody | null>(null);
  const v: LiveBody = form ?? {
    joinUrl: current?.joinUrl ?? "",
    provider: current?.provider ?? "other",
    startAt: current?.startAt ?? null,
    endAt: current?.endAt ?? null,
  };
  const save = useMutation({
    mutationFn: () => setLiveSession({ params: { path: { contentId } }, body: v }),
    onSuccess: saved,
  });
  return (
    <Panel title={t("media.liveTitle")} onSubmit={() => save.mutate()}>
      <Field
        label={t("media.joinUrl")}
        type="url"
        required
        value={v.joinUrl}
        onChange={(e) => setForm({ ...v, joinUrl: e.target.value })}
        error={fieldError(save.error, "joinUrl", t)}
      />
      <Select
        label={t("media.provider")}
        value={v.provider}
        onChange={(p) => setForm({ ...v, provider: p as LiveBody["provider"] })}
        options={PROVIDERS.map((p) => ({ value: p, label: t(`media.providers.${p}`) }))}
      />
      <div className="inline">
        <Field
          label={t("media.startAt")}
          type="datetime-local"
          value={toLocalInput(v.startAt)}
          onChange={(e) => setForm({ ...v, startAt: fromLocalInput(e.target.value) })}
          error={fieldError(save.error, "startAt", t)}
        />
        <Field
          label={t("media.endAt")}
          type="datetime-local"
          value={toLocalInput(v.endAt)}
          onChange={(e) => setForm({ ...v, endAt: fromLocalInput(e.target.value) })}
          error={fieldError(save.error, "endAt", t)}
        />
      </div>
      <FormError error={save.error} fields={["joinUrl", "startAt", "endAt"]} />
      {save.isSuccess && <p role="status">{t("common.saved")}</p>}
      <button type="submit" className="primary">
        {t("media.saveLive")}
      </button>
    </Panel>
  );
}
