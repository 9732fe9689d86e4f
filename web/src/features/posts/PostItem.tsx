import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import type { paths } from "../../api/schema";
import { useUser } from "../../app/session";
import { useI18n } from "../../i18n";
import { fromLocalInput, toLocalInput } from "../../ui/datetime";
import { ConfirmButton, Field, FormError, fieldError, formatDate } from "../../ui/ui";
import { AttachmentList } from "../files/Attachments";
import { Comments } from "./Comments";
import { deletePost, type Post, postKeys, updatePost } from "./queries";

type Patch = NonNullable<paths["/api/v1/posts/{postId}"]["patch"]["requestBody"]>["content"]["application/json"];

/**
 * One post with its comments; its space's admins pin it, edit it, publish a scheduled one now, archive
 * or delete it; its author (a participant of a community) edits or deletes it.
 */
export function PostItem({ post: p, admin, canComment }: { post: Post; admin: boolean; canComment: boolean }) {
  const { t, lang } = useI18n();
  const qc = useQueryClient();
  const user = useUser();
  const author = p.authorId === user.id;
  const [editing, setEditing] = useState(false);
  const done = () => void qc.invalidateQueries({ queryKey: postKeys.space(p.spaceId) });
  const update = useMutation({
    mutationFn: (body: Patch) => updatePost({ params: { path: { postId: p.id } }, body }),
    onSuccess: () => {
      setEditing(false);
      done();
    },
  });
  const remove = useMutation({
    mutationFn: () => deletePost({ params: { path: { postId: p.id } } }),
    onSuccess: done,
  });
  return (
    <article className={p.isEmergency ? "post emergency" : "post"} aria-labelledby={`post-${p.id}`}>
      <h2 id={`post-${p.id}`}>
        {p.isEmergency && <span className="badge late">{t("posts.emergencyBadge")}</span>}{" "}
        {p.isPinned && <span className="badge">{t("posts.pinned")}</span>}{" "}
        {p.type === "QUESTION" && (
          <span className={p.answeredCommentId ? "badge ok" : "badge"}>
            {p.answeredCommentId ? t("community.answered") : t("community.unanswered")}
          </span>
        )}{" "}
        {p.title}
      </h2>
      <p className="muted">
        {t(`posts.types.${p.type}`)} · {p.authorName ?? "—"} ·{" "}
        {p.status === "SCHEDULED" ? t("posts.scheduledFor", { at: formatDate(p.publishAt, lang) }) : formatDate(p.publishAt, lang)}
        {p.tags.length > 0 && ` · ${p.tags.map((x) => `#${x}`).join(" ")}`}
      </p>
      {editing ? (
        <PostEdit post={p} admin={admin} onSave={(b) => update.mutate(b)} error={update.error} onCancel={() => setEditing(false)} />
      ) : (
        <>
          <p className="pre">{p.content}</p>
          <AttachmentList files={p.attachments} />
        </>
      )}
      {!admin && author && !editing && (
        <div className="actions">
          <button type="button" className="small" onClick={() => setEditing(true)}>
            {t("posts.edit")}
          </button>
          <ConfirmButton className="small danger" question={t("posts.deleteConfirm", { title: p.title })} onConfirm={() => remove.mutate()}>
            {t("common.delete")}
          </ConfirmButton>
          <FormError error={update.error ?? remove.error} fields={[]} />
        </div>
      )}
      {admin && !editing && (
        <div className="actions">
          <button type="button" className="small" onClick={() => update.mutate({ isPinned: !p.isPinned })}>
            {p.isPinned ? t("posts.unpin") : t("posts.pinAction")}
          </button>
          <button type="button" className="small" onClick={() => setEditing(true)}>
            {t("posts.edit")}
          </button>
          {p.status === "SCHEDULED" && (
            <button type="button" className="small" onClick={() => update.mutate({ status: "PUBLISHED" })}>
              {t("posts.publishNow")}
            </button>
          )}
          {p.status === "PUBLISHED" && (
            <button type="button" className="small" onClick={() => update.mutate({ status: "ARCHIVED" })}>
              {t("posts.archive")}
            </button>
          )}
          <ConfirmButton className="small danger" question={t("posts.deleteConfirm", { title: p.title })} onConfirm={() => remove.mutate()}>
            {t("common.delete")}
          </ConfirmButton>
          <FormError error={update.error ?? remove.error} fields={[]} />
        </div>
      )}
      {p.status !== "SCHEDULED" && <Comments post={p} admin={admin} canWrite={canComment || admin} />}
    </article>
  );
}

/** Edits a post's title, text and, for an admin, its emergency mark and (while not yet published) its publish time. */
function PostEdit(props: { post: Post; admin: boolean; onSave: (b: Patch) => void; onCancel: () => void; error: unknown }) {
  const { t } = useI18n();
  const p = props.post;
  const bodyId = useId();
  const [title, setTitle] = useState(p.title);
  const [content, setContent] = useState(p.content);
  const [emergency, setEmergency] = useState(p.isEmergency);
  const [publishAt, setPublishAt] = useState(p.status === "SCHEDULED" ? toLocalInput(p.publishAt) : "");
  return (
    <form
      className="stack"
      onSubmit={(e) => {
        e.preventDefault();
        props.onSave({
          title,
          content,
          ...(props.admin ? { isEmergency: emergency } : {}),
          ...(p.status === "SCHEDULED" && publishAt ? { publishAt: fromLocalInput(publishAt) } : {}),
        });
      }}
    >
      <Field
        label={t("posts.title")}
        value={title}
        required
        onChange={(e) => setTitle(e.target.value)}
        error={fieldError(props.error, "title", t)}
      />
      <div className="field">
        <label htmlFor={bodyId}>{t("posts.body")}</label>
        <textarea id={bodyId} rows={3} value={content} onChange={(e) => setContent(e.target.value)} />
      </div>
      {props.admin && (
        <label className="check">
          <input type="checkbox" checked={emergency} onChange={(e) => setEmergency(e.target.checked)} /> {t("posts.emergency")}
        </label>
      )}
      {p.status === "SCHEDULED" && (
        <Field
          label={t("posts.publishAt")}
          type="datetime-local"
          value={publishAt}
          onChange={(e) => setPublishAt(e.target.value)}
          error={fieldError(props.error, "publishAt", t)}
        />
      )}
      <div className="actions">
        <button type="submit" className="primary">
          {t("common.save")}
        </button>
        <button type="button" onClick={props.onCancel}>
          {t("posts.cancel")}
        </button>
      </div>
    </form>
  );
}
