import { useMutation } from "@tanstack/react-query";
import { useI18n } from "../../i18n";
import { type CopyTarget, CopyTargetForm } from "./CopyTargetForm";
import type { Node } from "./folders";
import { copyContent, createNode, everyContentOf, useRefreshLibrary } from "./queries";

/**
 * "Copy to…" on a folder: the same folder, its subfolders and (as copyContent makes them: drafts
 * without learners' work) every content in them, at the top of another space's classwork.
 */
export function CopyFolder({ node, tree, onDone }: { node: Node; tree: Node[]; onDone: () => void }) {
  const { t } = useI18n();
  const refresh = useRefreshLibrary();
  const copy = useMutation({
    mutationFn: async ({ spaceId }: CopyTarget) => {
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
  return (
    <CopyTargetForm
      into="space"
      help={t("library.copy.folderHelp")}
      copy={copy}
      done={(count, to) => ({
        message: t("library.copy.folderDone", { count, name: node.title, space: to.spaceName }),
        next: (
          <button type="button" onClick={onDone}>
            {t("common.done")}
          </button>
        ),
      })}
    />
  );
}
