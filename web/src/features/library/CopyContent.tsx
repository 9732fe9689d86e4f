import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { useI18n } from "../../i18n";
import { Link } from "../../ui/Link";
import { Field, FormError, fieldError, Loading } from "../../ui/ui";
import { spacePath, useAllActiveSpaces } from "../spaces/queries";
import { type Node, spaceTree } from "./folders";
import { copyContent, libraryKeys, useNodes } from "./queries";

/**
 * "Copy to…" (copyContent): a draft copy of the content, with its settings, questions, rubric and
 * files but none of the learners' work, in a folder of any space the member teaches.
 */
export function CopyContent({ contentId, title }: { contentId: string; title: string }) {
  const { t } = useI18n();
  const qc = useQueryClient();
  const id = useId();
  const nodes = useNodes();
  const spaces = useAllActiveSpaces(true);
  const [nodeId, setNodeId] = useState("");
  const [name, setName] = useState(title);
  const copy = useMutation({
    mutationFn: () => copyContent({ params: { path: { contentId } }, body: { nodeId, title: name } }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: libraryKeys.allContents }),
  });
  if (!nodes.data || !spaces.data) return <Loading />;
  const all = nodes.data.nodes;
  const groups = spaces.data.map((s) => ({ id: s.id, name: s.name, folders: spaceTree(all, s.id) })).filter((g) => g.folders.length > 0);
  const target = all.find((n) => n.id === nodeId);
  const label = (n: Node) => `${"— ".repeat(n.depth)}${n.title}`;
  if (copy.data && target)
    return (
      <div role="status" className="stack">
        <p>{t("library.copy.done", { title: copy.data.title })}</p>
        {target.spaceId && <Link to={spacePath(target.spaceId, copy.data.id)}>{t("library.copy.open")}</Link>}
      </div>
    );
  return (
    <form
      className="stack"
      onSubmit={(e) => {
        e.preventDefault();
        copy.mutate();
      }}
    >
      <p className="muted">{t("library.copy.help")}</p>
      <div className="field">
        <label htmlFor={id}>{t("library.copy.target")}</label>
        <select id={id} required value={nodeId} onChange={(e) => setNodeId(e.target.value)}>
          <option value="">{t("library.copy.pick")}</option>
          {groups.map((g) => (
            <optgroup key={g.id} label={g.name}>
              {g.folders.map((n) => (
                <option key={n.id} value={n.id}>
                  {label(n)}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
        {fieldError(copy.error, "nodeId", t) && <small className="error">{fieldError(copy.error, "nodeId", t)}</small>}
      </div>
      <Field
        label={t("library.contentTitle")}
        required
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={fieldError(copy.error, "title", t)}
      />
      <FormError error={copy.error} fields={["nodeId", "title"]} />
      <div>
        <button type="submit" className="primary" disabled={copy.isPending || !nodeId}>
          {t("library.copy.submit")}
        </button>
      </div>
    </form>
  );
}
