import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api, ok } from "../../api/client";
import { useI18n } from "../../i18n";
import { Link } from "../../shell/Link";
import { navigate } from "../../shell/router";
import { Field, FormError, fieldError, Loading, Select } from "../../shell/ui";
import { spacePath } from "../spaces/queries";

// The content types a teacher creates here; the rest wait for their editors.
const NEW_TYPES = ["QUIZ", "ASSIGNMENT", "SURVEY", "GROUP_ASSIGNMENT", "GROUP_PEER_ASSESSMENT"] as const;

/** A space's classwork: its library folders and the contents in each. */
export default function Classwork({ spaceId, admin }: { spaceId: string; admin: boolean }) {
  const { t } = useI18n();
  const qc = useQueryClient();
  const nodes = useQuery({ queryKey: ["library-nodes"], queryFn: () => ok(api.GET("/api/v1/library/nodes")) });
  const folders = nodes.data?.nodes.filter((n) => n.spaceId === spaceId) ?? [];
  const [title, setTitle] = useState("");
  const createFolder = useMutation({
    mutationFn: () => ok(api.POST("/api/v1/library/nodes", { body: { title, spaceId } })),
    onSuccess: () => {
      setTitle("");
      void qc.invalidateQueries({ queryKey: ["library-nodes"] });
    },
  });
  return (
    <div className="stack">
      {admin && (
        <form
          className="inline"
          onSubmit={(e) => {
            e.preventDefault();
            createFolder.mutate();
          }}
        >
          <Field
            label={t("library.folderName")}
            value={title}
            onChange={(e) => setTitle(e.target.value)}
            required
            error={fieldError(createFolder.error, "title", t)}
          />
          <button type="submit">{t("library.newFolder")}</button>
          <FormError error={createFolder.error} fields={["title"]} />
        </form>
      )}
      {!nodes.data ? <Loading /> : folders.length === 0 ? <p>{t("common.empty")}</p> : null}
      {folders.map((f) => (
        <Folder key={f.id} spaceId={spaceId} nodeId={f.id} title={f.title} depth={f.depth} admin={admin} />
      ))}
    </div>
  );
}

function Folder({
  spaceId,
  nodeId,
  title,
  depth,
  admin,
}: {
  spaceId: string;
  nodeId: string;
  title: string;
  depth: number;
  admin: boolean;
}) {
  const { t } = useI18n();
  const contents = useQuery({
    queryKey: ["library-contents", nodeId],
    queryFn: () => ok(api.GET("/api/v1/library/contents", { params: { query: { nodeId } } })),
  });
  const [type, setType] = useState<(typeof NEW_TYPES)[number]>("QUIZ");
  const [name, setName] = useState("");
  const create = useMutation({
    mutationFn: () => ok(api.POST("/api/v1/library/contents", { body: { type, title: name, nodeId, visibility: "SHARED" } })),
    onSuccess: (c) => navigate(spacePath(spaceId, c.id)),
  });
  return (
    <section className="panel" style={{ marginInlineStart: `${depth * 1.5}rem` }}>
      <h2>{title}</h2>
      {!contents.data ? (
        <Loading />
      ) : contents.data.contents.length === 0 ? (
        <p className="muted">{t("common.empty")}</p>
      ) : (
        <ul className="list">
          {contents.data.contents.map((c) => (
            <li key={c.id}>
              <span className="badge">{t(`library.types.${c.type}`)}</span> <Link to={spacePath(spaceId, c.id)}>{c.title}</Link>
            </li>
          ))}
        </ul>
      )}
      {admin && (
        <form
          className="inline"
          onSubmit={(e) => {
            e.preventDefault();
            create.mutate();
          }}
        >
          <Select
            label={t("library.type")}
            value={type}
            onChange={(v) => setType(v as (typeof NEW_TYPES)[number])}
            options={NEW_TYPES.map((x) => ({ value: x, label: t(`library.types.${x}`) }))}
          />
          <Field
            label={t("library.contentTitle")}
            value={name}
            onChange={(e) => setName(e.target.value)}
            required
            error={fieldError(create.error, "title", t)}
          />
          <button type="submit" className="primary">
            {t("library.createContent")}
          </button>
          <FormError error={create.error} fields={["title"]} />
        </form>
      )}
    </section>
  );
}
