import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api, ok } from "../../api/client";
import { useI18n } from "../../i18n";
import { Field, FormError, fieldError, formatDate, Loading } from "../../shell/ui";

/** A space's stream of posts, newest first; its admins write new ones here. */
export default function Stream({ spaceId, admin }: { spaceId: string; admin: boolean }) {
  const { t, lang } = useI18n();
  const qc = useQueryClient();
  const posts = useQuery({
    queryKey: ["posts", spaceId],
    queryFn: () => ok(api.GET("/api/v1/posts", { params: { query: { spaceId, status: "PUBLISHED" } } })),
  });
  const [title, setTitle] = useState("");
  const [content, setContent] = useState("");
  const [pinned, setPinned] = useState(false);
  const create = useMutation({
    mutationFn: () => ok(api.POST("/api/v1/posts", { body: { spaceId, title, content, isPinned: pinned } })),
    onSuccess: () => {
      setTitle("");
      setContent("");
      void qc.invalidateQueries({ queryKey: ["posts", spaceId] });
    },
  });
  return (
    <div className="stack">
      {admin && (
        <form
          className="panel"
          onSubmit={(e) => {
            e.preventDefault();
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
            <label htmlFor="post-body">{t("posts.body")}</label>
            <textarea id="post-body" rows={3} value={content} onChange={(e) => setContent(e.target.value)} />
          </div>
          <label className="check">
            <input type="checkbox" checked={pinned} onChange={(e) => setPinned(e.target.checked)} /> {t("posts.pin")}
          </label>
          <FormError error={create.error} fields={["title"]} />
          <button type="submit" className="primary">
            {t("posts.publish")}
          </button>
        </form>
      )}
      {!posts.data ? (
        <Loading />
      ) : posts.data.posts.length === 0 ? (
        <p>{t("common.empty")}</p>
      ) : (
        posts.data.posts.map((p) => (
          <article key={p.id} className="post">
            <h2>
              {p.isPinned && <span className="badge">{t("posts.pinned")}</span>} {p.title}
            </h2>
            <p className="muted">
              {p.authorName ?? "—"} · {formatDate(p.publishAt, lang)}
            </p>
            <p className="pre">{p.content}</p>
          </article>
        ))
      )}
    </div>
  );
}
