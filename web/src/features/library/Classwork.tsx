import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useI18n } from "../../i18n";
import { Link } from "../../ui/Link";
import { navigate } from "../../ui/router";
import { Field, FormError, fieldError, Loading, Select } from "../../ui/ui";
import { spacePath } from "../spaces/queries";
import { FolderTools } from "./FolderTools";
import { type Node, spaceTree } from "./folders";
import { contentsQuery, createContent, createNode, useNodes, useRefreshLibrary } from "./queries";

// The content types a teacher creates here: every type, each with its editor.
const NEW_TYPES = [
  "QUIZ",
  "ASSIGNMENT",
  "SURVEY",
  "GROUP_ASSIGNMENT",
  "GROUP_PEER_ASSESSMENT",
  "VIDEO",
  "URL_VIDEO",
  "LIVE",
  "DOCUMENT",
] as const;

/** A space's classwork: its library folders (a tree) and the contents in each. */
export default function Classwork({ spaceId, admin }: { spaceId: string; admin: boolean }) {
  const { t } = useI18n();
  const refresh = useRefreshLibrary();
  const nodes = useNodes();
  const tree = spaceTree(nodes.data?.nodes ?? [], spaceId);
  const [title, setTitle] = useState("");
  const [parentId, setParentId] = useState("");
  const createFolder = useMutation({
    mutationFn: () => createNode({ body: { title, spaceId, parentId: parentId || null } }),
    onSuccess: () => {
      setTitle("");
      refresh();
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
          {tree.length > 0 && (
            <Select
              label={t("library.parentFolder")}
              value={parentId}
              onChange={setParentId}
              options={[
                { value: "", label: t("library.topLevel") },
                ...tree.map((n) => ({ value: n.id, label: `${"— ".repeat(n.depth)}${n.title}` })),
              ]}
            />
          )}
          <button type="submit">{t("library.newFolder")}</button>
          <FormError error={createFolder.error} fields={["title"]} />
        </form>
      )}
      {!nodes.data ? <Loading /> : tree.length === 0 ? <p>{t("common.empty")}</p> : null}
      {tree.map((f) => (
        <Folder key={f.id} spaceId={spaceId} node={f} tree={tree} admin={admin} />
      ))}
    </div>
  );
}

function Folder({ spaceId, node, tree, admin }: { spaceId: string; node: Node; tree: Node[]; admin: boolean }) {
  const { t } = useI18n();
  const nodeId = node.id;
  const contents = useQuery(contentsQuery(nodeId));
  const [type, setType] = useState<(typeof NEW_TYPES)[number]>("QUIZ");
  const [name, setName] = useState("");
  // New classwork starts as a draft the students cannot see; "Assign" on its page shares it (docs/rules/console.md#drafts).
  const create = useMutation({
    mutationFn: () => createContent({ body: { type, title: name, nodeId, visibility: "PRIVATE" } }),
    onSuccess: (c) => navigate(spacePath(spaceId, c.id)),
  });
  const Heading = node.depth === 0 ? "h2" : "h3";
  return (
    <section className="panel" style={{ marginInlineStart: `${node.depth * 1.5}rem` }}>
      <Heading>{node.title}</Heading>
      {admin && <FolderTools node={node} tree={tree} />}
      {!contents.data ? (
        <Loading />
      ) : contents.data.contents.length === 0 ? (
        <p className="muted">{t("common.empty")}</p>
      ) : (
        <ul className="list">
          {contents.data.contents.map((c) => (
            <li key={c.id}>
              <span className="badge">{t(`library.types.${c.type}`)}</span> <Link to={spacePath(spaceId, c.id)}>{c.title}</Link>
              {c.canManage && c.visibility !== "SHARED" && <span className="badge"> {t(`library.visibility.${c.visibility}`)}</span>}
              {c.canManage && !c.ready && <small className="muted"> · {t("library.notReady")}</small>}
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
