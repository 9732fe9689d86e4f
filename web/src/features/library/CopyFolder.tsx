import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { useI18n } from "../../i18n";
import { FormError, Loading, Select } from "../../ui/ui";
import { useAllActiveSpaces } from "../spaces/queries";
import type { Node } from "./folders";
import { copyContent, createNode, everyContentOf, useRefreshLibrary } from "./queries";

/**
 * "Copy to…" on a folder: the same folder, its subfolders and (as copyContent makes them: drafts
 * without learners' work) every content in them, at the top of another space's classwork.
 */
export function CopyFolder({ node, tree, onDone }: { node: Node; tree: Node[]; onDone: () => void }) {
  const { t } = useI18n();
  const spaces = useAllActiveSpaces(true);
  const refresh = useRefreshLibrary();
  const [spaceId, setSpaceId] = useState("");
  const copy = useMutation({
    mutationFn: async () => {
      let copied = 0;
      const copyTree = async (from: Node, parentId: string | null) => {
        const folder = await createNode({ body: { title: from.title, spaceId, parentId } });
        for (const c of await everyContentOf(from.id)) {
          await copyContent({ params: { path: { contentId: c.id } }, body: { nodeId: folder.id } });
          copied++;
        }
        for (const child of tree.filter((n) => n.parentId === from.id)) await copyTree(child, folder.id);
      };
      await copyTree(node, null);
      return copied;
    },
    onSuccess: refresh,
  });
  if (!spaces.data) return <Loading />;
  const space = spaces.data.find((s) => s.id === spaceId);
  if (copy.data !== undefined)
    return (
      <div className="stack">
        <p role="status">{t("library.copy.folderDone", { count: copy.data, name: node.title, space: space?.name ?? "" })}</p>
        <div>
          <button type="button" onClick={onDone}>
            {t("common.done")}
          </button>
        </div>
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
      <p className="muted">{t("library.copy.folderHelp")}</p>
      <Select
        label={t("library.copy.space")}
        value={spaceId}
        onChange={setSpaceId}
        options={[{ value: "", label: t("library.copy.pickSpace") }, ...spaces.data.map((s) => ({ value: s.id, label: s.name }))]}
      />
      <FormError error={copy.error} fields={[]} />
      <div>
        <button type="submit" className="primary" disabled={!spaceId || copy.isPending}>
          {copy.isPending ? t("spaces.copy.copying") : t("library.copy.submit")}
        </button>
      </div>
    </form>
  );
}
