import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { useI18n } from "../../i18n";
import { useSearch } from "../../ui/router";
import { Field, FormError, fieldError, Loading, MoreButton, Select } from "../../ui/ui";
import { FilePicker } from "../files/Attachments";
import { uploadFiles } from "../files/queries";
import { PostItem } from "./PostItem";
import { createPost, postKeys, usePosts } from "./queries";

const VIEWS = ["all", "QUESTION", "GENERAL"] as const;
const ANSWERED = ["any", "no", "yes"] as const;

/**
 * A space's community (its `community` menu): every member posts GENERAL posts and asks QUESTIONs,
 * comments under them, and the question's author or an admin marks the answer. The view
 * (all, questions answered or not, general) is in the URL.
 */
export default function Community({ spaceId, admin, open }: { spaceId: string; admin: boolean; open: boolean }) {
  const { t } = useI18n();
  const { get, set } = useSearch();
  const view = (VIEWS as readonly string[]).includes(get("view") ?? "") ? (get("view") as (typeof VIEWS)[number]) : "all";
  const answered = view === "QUESTION" && (get("answered") === "yes" || get("answered") === "no") ? get("answered") : "any";
  const posts = usePosts(spaceId, {
    ...(view === "all" ? {} : { type: view }),
    ...(answered === "any" ? {} : { answered: answered === "yes" ? "true" : "false" }),
  });
  const list = posts.data?.pages.flatMap((p) => p.posts) ?? [];
  return (
    <div className="stack">
      {open && <CommunityComposer spaceId={spaceId} />}
      <div className="filters">
        <Select
          label={t("community.view")}
          value={view}
          onChange={(v) => set({ view: v === "all" ? null : v, answered: null }, true)}
          options={VIEWS.map((v) => ({ value: v, label: t(`community.views.${v}`) }))}
        />
        {view === "QUESTION" && (
          <Select
            label={t("community.answeredFilter")}
            value={answered ?? "any"}
            onChange={(v) => set({ answered: v === "any" ? null : v }, true)}
            options={ANSWERED.map((v) => ({ value: v, label: t(`community.answeredOptions.${v}`) }))}
          />
        )}
      </div>
      {!posts.data ? (
        <Loading />
      ) : list.length === 0 ? (
        <p>{t("common.empty")}</p>
      ) : (
        list.map((p) => <PostItem key={p.id} post={p} admin={admin} canComment={open} />)
      )}
      <MoreButton list={posts} label={t("posts.more")} />
    </div>
  );
}

/** A participant's post: a question (the usual case) or a general post, with files; published at once. */
function CommunityComposer({ spaceId }: { spaceId: string }) {
  const { t } = useI18n();
  const qc = useQueryClient();
  const bodyId = useId();
  const [type, setType] = useState<"QUESTION" | "GENERAL">("QUESTION");
  const [title, setTitle] = useState("");
  const [content, setContent] = useState("");
  const [files, setFiles] = useState<File[]>([]);
  const [progress, setProgress] = useState<number | null>(null);
  const create = useMutation({
    mutationFn: async () => {
      const fileIds = files.length ? await uploadFiles(files, setProgress) : [];
      return createPost({ body: { spaceId, type, title, content, fileIds } });
    },
    onSuccess: () => {
      setTitle("");
      setContent("");
      setFiles([]);
      void qc.invalidateQueries({ queryKey: postKeys.space(spaceId) });
    },
    onSettled: () => setProgress(null),
  });
  return (
    <form
      className="panel stack"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate();
      }}
    >
      <h2>{type === "QUESTION" ? t("community.ask") : t("community.newPost")}</h2>
      <Select
        label={t("posts.type")}
        value={type}
        onChange={(v) => setType(v as "QUESTION" | "GENERAL")}
        options={(["QUESTION", "GENERAL"] as const).map((p) => ({ value: p, label: t(`posts.types.${p}`) }))}
      />
      <Field
        label={type === "QUESTION" ? t("community.question") : t("posts.title")}
        value={title}
        onChange={(e) => setTitle(e.target.value)}
        required
        maxLength={300}
        error={fieldError(create.error, "title", t)}
      />
      <div className="field">
        <label htmlFor={bodyId}>{t("community.details")}</label>
        <textarea id={bodyId} rows={3} value={content} onChange={(e) => setContent(e.target.value)} />
      </div>
      <FilePicker label={t("posts.files")} files={files} onChange={setFiles} progress={progress} />
      <FormError error={create.error} fields={["title"]} />
      <div>
        <button type="submit" className="primary" disabled={create.isPending}>
          {type === "QUESTION" ? t("community.askButton") : t("posts.publish")}
        </button>
      </div>
      {create.isSuccess && <p role="status">{t("community.posted")}</p>}
    </form>
  );
}
