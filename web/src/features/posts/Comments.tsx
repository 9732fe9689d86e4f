import { useId, useState } from "react";
import { useUser } from "../../app/session";
import { useI18n } from "../../i18n";
import { ConfirmButton, FormError, fieldError, formatDate, MoreButton } from "../../ui/ui";
import { AttachmentList, FilePicker } from "../files/Attachments";
import { type Comment, type Post, useComments } from "./queries";

/**
 * The comments under a post (oldest first) with a reply box: authors edit their own, authors and the
 * space's admins delete; on a QUESTION the post's author or an admin marks one as the answer.
 */
export function Comments({ post, admin, canWrite }: { post: Post; admin: boolean; canWrite: boolean }) {
  const { t } = useI18n();
  const user = useUser();
  const regionId = useId();
  const [open, setOpen] = useState(post.type === "QUESTION");
  const { list, create, update, remove, markAnswer } = useComments(post, open);
  const comments = list.data?.pages.flatMap((p) => p.comments) ?? [];
  const canMark = post.type === "QUESTION" && (admin || post.authorId === user.id) && post.status !== "ARCHIVED";
  return (
    <div className="comments">
      <button type="button" className="link" aria-expanded={open} aria-controls={regionId} onClick={() => setOpen(!open)}>
        {t("community.commentsToggle", { count: post.commentCount })}
      </button>
      {open && (
        <section id={regionId} className="stack" aria-label={t("community.commentsOf", { title: post.title })}>
          {comments.length > 0 && (
            <ul className="comment-list">
              {comments.map((c) => (
                <CommentItem
                  key={c.id}
                  comment={c}
                  mine={c.authorId === user.id}
                  canDelete={admin || c.authorId === user.id}
                  canMark={canMark}
                  onSave={(body) => update.mutateAsync({ commentId: c.id, body })}
                  onDelete={() => remove.mutate(c.id)}
                  onMark={() => markAnswer.mutate(c.isAnswer ? null : c.id)}
                />
              ))}
            </ul>
          )}
          <MoreButton list={list} label={t("community.moreComments")} />
          <FormError error={remove.error ?? markAnswer.error ?? update.error} fields={[]} />
          {canWrite && post.status === "PUBLISHED" && (
            <ReplyForm
              label={t("community.reply")}
              submit={t("community.send")}
              error={create.error}
              pending={create.isPending}
              onSend={(body, files, onProgress) => create.mutateAsync({ body, files, onProgress })}
            />
          )}
        </section>
      )}
    </div>
  );
}

function CommentItem(props: {
  comment: Comment;
  mine: boolean;
  canDelete: boolean;
  canMark: boolean;
  onSave: (body: string) => Promise<unknown>;
  onDelete: () => void;
  onMark: () => void;
}) {
  const { t, lang } = useI18n();
  const c = props.comment;
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(c.body);
  const editId = useId();
  return (
    <li className={c.isAnswer ? "comment answer" : "comment"}>
      <p className="muted">
        <strong>{c.authorName ?? "—"}</strong> · {formatDate(c.createdAt, lang)}
        {c.updatedAt !== c.createdAt && ` · ${t("community.edited")}`}
        {c.isAnswer && (
          <>
            {" "}
            <span className="badge ok">{t("community.answer")}</span>
          </>
        )}
      </p>
      {editing ? (
        <form
          className="stack"
          onSubmit={(e) => {
            e.preventDefault();
            void props.onSave(text).then(() => setEditing(false));
          }}
        >
          <label htmlFor={editId} className="sr-only">
            {t("community.editComment")}
          </label>
          <textarea id={editId} rows={2} value={text} onChange={(e) => setText(e.target.value)} required maxLength={5000} />
          <div className="actions">
            <button type="submit" className="small primary">
              {t("common.save")}
            </button>
            <button type="button" className="small" onClick={() => setEditing(false)}>
              {t("posts.cancel")}
            </button>
          </div>
        </form>
      ) : (
        <>
          <p className="pre">{c.body}</p>
          <AttachmentList files={c.attachments} />
        </>
      )}
      {!editing && (props.mine || props.canDelete || props.canMark) && (
        <div className="actions">
          {props.canMark && (
            <button type="button" className="small" aria-pressed={c.isAnswer} onClick={props.onMark}>
              {t("community.markAnswer")}
            </button>
          )}
          {props.mine && (
            <button type="button" className="small" onClick={() => setEditing(true)}>
              {t("posts.edit")}
            </button>
          )}
          {props.canDelete && (
            <ConfirmButton className="small danger" question={t("community.deleteCommentConfirm")} onConfirm={props.onDelete}>
              {t("common.delete")}
            </ConfirmButton>
          )}
        </div>
      )}
    </li>
  );
}

/** A text box with files (uploaded first, progress shown) and a send button; cleared once sent. Also the message box of a conversation. */
export function ReplyForm(props: {
  label: string;
  submit: string;
  error: unknown;
  pending: boolean;
  onSend: (body: string, files: File[], onProgress: (f: number) => void) => Promise<unknown>;
}) {
  const { t } = useI18n();
  const id = useId();
  const [body, setBody] = useState("");
  const [files, setFiles] = useState<File[]>([]);
  const [progress, setProgress] = useState<number | null>(null);
  const error = fieldError(props.error, "body", t);
  return (
    <form
      className="stack reply"
      onSubmit={(e) => {
        e.preventDefault();
        void props
          .onSend(body, files, setProgress)
          .then(() => {
            setBody("");
            setFiles([]);
          })
          .catch(() => {})
          .finally(() => setProgress(null));
      }}
    >
      <div className="field">
        <label htmlFor={id}>{props.label}</label>
        <textarea
          id={id}
          rows={2}
          value={body}
          required
          maxLength={5000}
          aria-invalid={error ? true : undefined}
          onChange={(e) => setBody(e.target.value)}
        />
        {error && <small className="error">{error}</small>}
      </div>
      <FilePicker label={t("community.attach")} files={files} onChange={setFiles} progress={progress} />
      <FormError error={props.error} fields={["body", "fileIds"]} />
      <div>
        <button type="submit" className="primary" disabled={props.pending || !body.trim()}>
          {props.submit}
        </button>
      </div>
    </form>
  );
}
