import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { useI18n } from "../../i18n";
import { fromLocalInput } from "../../ui/datetime";
import { CheckList, Field, FormError, fieldError, Select } from "../../ui/ui";
import { FilePicker } from "../files/Attachments";
import { uploadFiles } from "../files/queries";
import { postTargetsQuery, spaceKeys, useSpaceCategories } from "../spaces/queries";
import { createPost, createPostsInSpaces, postKeys } from "./queries";

export const POST_TYPES = ["NOTICE", "GENERAL", "QUESTION"] as const;
type PostType = (typeof POST_TYPES)[number];

/**
 * A new post: published now or at a set time (scheduled), pinned, marked as an emergency, with files
 * uploaded first (progress shown), in this space or also in others (createPostsInSpaces, which skips
 * the spaces where the author is not an admin and says so).
 */
export function PostComposer({ spaceId }: { spaceId: string }) {
  const { t } = useI18n();
  const qc = useQueryClient();
  const ids = { body: useId(), spaces: useId() };
  const categories = useSpaceCategories();
  const [title, setTitle] = useState("");
  const [content, setContent] = useState("");
  const [type, setType] = useState<PostType>("NOTICE");
  const [pinned, setPinned] = useState(false);
  const [emergency, setEmergency] = useState(false);
  const [allowDownload, setAllowDownload] = useState(true);
  const [publishAt, setPublishAt] = useState("");
  const [tags, setTags] = useState<string[]>([]);
  const [others, setOthers] = useState<string[]>([]);
  const [files, setFiles] = useState<File[]>([]);
  const [progress, setProgress] = useState<number | null>(null);
  const [result, setResult] = useState<string | null>(null);
  const [showOthers, setShowOthers] = useState(false);
  const spaces = useQuery(postTargetsQuery(showOthers));
  const create = useMutation({
    mutationFn: async () => {
      const fileIds = files.length ? await uploadFiles(files, setProgress) : [];
      const fields = {
        title,
        content,
        type,
        tags,
        isPinned: pinned,
        isEmergency: emergency,
        allowFileDownload: allowDownload,
        publishAt: fromLocalInput(publishAt),
        fileIds,
      };
      if (others.length === 0) {
        const post = await createPost({ body: { spaceId, ...fields } });
        return { created: 1, skipped: 0, scheduled: post.status === "SCHEDULED" };
      }
      const r = await createPostsInSpaces({ body: { spaceIds: [spaceId, ...others], ...fields } });
      return { created: r.created, skipped: r.skipped.length, scheduled: r.posts.some((p) => p.status === "SCHEDULED") };
    },
    onSuccess: (r) => {
      setTitle("");
      setContent("");
      setFiles([]);
      setPublishAt("");
      setEmergency(false);
      setPinned(false);
      setOthers([]);
      setResult(
        [
          r.scheduled ? t("posts.scheduledDone", { count: r.created }) : t("posts.postedDone", { count: r.created }),
          r.skipped ? t("posts.skipped", { count: r.skipped }) : "",
        ]
          .filter(Boolean)
          .join(" "),
      );
      void qc.invalidateQueries({ queryKey: postKeys.all });
      void qc.invalidateQueries({ queryKey: spaceKeys.all });
    },
    onSettled: () => setProgress(null),
  });
  const otherSpaces = spaces.data?.spaces.filter((s) => s.id !== spaceId) ?? [];
  return (
    <form
      className="panel stack"
      onSubmit={(e) => {
        e.preventDefault();
        setResult(null);
        create.mutate();
      }}
    >
      <h2>{t("posts.new")}</h2>
      <Field
        label={t("posts.title")}
        value={title}
        onChange={(e) => setTitle(e.target.value)}
        required
        error={fieldError(create.error, "title", t)}
      />
      <div className="field">
        <label htmlFor={ids.body}>{t("posts.body")}</label>
        <textarea id={ids.body} rows={3} value={content} onChange={(e) => setContent(e.target.value)} />
      </div>
      <div className="inline">
        <Select
          label={t("posts.type")}
          value={type}
          onChange={(v) => setType(v as PostType)}
          options={POST_TYPES.map((p) => ({ value: p, label: t(`posts.types.${p}`) }))}
        />
        <Field
          label={t("posts.publishAt")}
          type="datetime-local"
          value={publishAt}
          hint={t("posts.publishAtHint")}
          onChange={(e) => setPublishAt(e.target.value)}
          error={fieldError(create.error, "publishAt", t)}
        />
      </div>
      <div className="inline">
        <label className="check">
          <input type="checkbox" checked={pinned} onChange={(e) => setPinned(e.target.checked)} /> {t("posts.pin")}
        </label>
        <label className="check">
          <input type="checkbox" checked={emergency} onChange={(e) => setEmergency(e.target.checked)} /> {t("posts.emergency")}
        </label>
        <label className="check">
          <input type="checkbox" checked={allowDownload} onChange={(e) => setAllowDownload(e.target.checked)} /> {t("posts.allowDownload")}
        </label>
      </div>
      {(categories.data?.tags.length ?? 0) > 0 && (
        <fieldset className="bare">
          <legend>{t("posts.tags")}</legend>
          <CheckList items={(categories.data?.tags ?? []).map((tag) => ({ id: tag, label: tag }))} picked={tags} onChange={setTags} />
        </fieldset>
      )}
      <FilePicker label={t("posts.files")} files={files} onChange={setFiles} progress={progress} />
      <div>
        <button
          type="button"
          className="link"
          aria-expanded={showOthers}
          aria-controls={ids.spaces}
          onClick={() => setShowOthers(!showOthers)}
        >
          {t("posts.alsoPostTo")}
        </button>
        {showOthers && (
          <fieldset id={ids.spaces} className="bare scroll">
            <legend className="sr-only">{t("posts.alsoPostTo")}</legend>
            <CheckList items={otherSpaces.map((s) => ({ id: s.id, label: s.name }))} picked={others} onChange={setOthers} />
            {spaces.data && otherSpaces.length === 0 && <p>{t("common.empty")}</p>}
          </fieldset>
        )}
      </div>
      <FormError error={create.error} fields={["title", "publishAt"]} />
      <div>
        <button type="submit" className="primary" disabled={create.isPending}>
          {publishAt ? t("posts.schedule") : t("posts.publish")}
        </button>
      </div>
      {result && <p role="status">{result}</p>}
    </form>
  );
}
