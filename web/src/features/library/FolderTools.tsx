import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useI18n } from "../../i18n";
import { FormError, Modal, NameForm, Select } from "../../ui/ui";
import { CopyFolder } from "./CopyFolder";
import { type Node, siblingsOf, subtreeIds } from "./folders";
import { deleteNode, libraryKeys, moveNode, renameNode, useRefreshLibrary } from "./queries";

type Move = { parentId: string | null; prevNodeId?: string | null; nextNodeId?: string | null };

/** A space admin's tools for one folder: rename, move up/down among its siblings, move into another folder, copy to another space, delete. */
export function FolderTools({ node, tree }: { node: Node; tree: Node[] }) {
  const { t } = useI18n();
  const refresh = useRefreshLibrary();
  const qc = useQueryClient();
  const [open, setOpen] = useState<"rename" | "move" | "copy" | null>(null);
  const [title, setTitle] = useState(node.title);
  const [into, setInto] = useState(node.parentId ?? "");
  const rename = useMutation({
    mutationFn: () => renameNode({ params: { path: { nodeId: node.id } }, body: { title } }),
    onSuccess: () => {
      setOpen(null);
      refresh();
    },
  });
  const move = useMutation({
    mutationFn: (body: Move) => moveNode({ params: { path: { nodeId: node.id } }, body }),
    onSuccess: () => {
      setOpen(null);
      refresh();
    },
  });
  const remove = useMutation({
    mutationFn: () => deleteNode({ params: { path: { nodeId: node.id } } }),
    // The folder leaves the list first, so nothing asks for the contents of a folder that is gone (a 400).
    onSuccess: () => {
      qc.setQueryData<{ nodes: Node[] }>(["library-nodes"], (d) => d && { nodes: d.nodes.filter((n) => n.id !== node.id) });
      qc.removeQueries({ queryKey: libraryKeys.contents(node.id) });
      void qc.invalidateQueries({ queryKey: libraryKeys.nodes });
    },
  });
  const siblings = siblingsOf(tree, node);
  const i = siblings.findIndex((n) => n.id === node.id);
  const blocked = subtreeIds(tree, node.id);
  const targets = tree.filter((n) => !blocked.has(n.id));
  const id = (n: Node | undefined) => n?.id ?? null;
  return (
    <div className="inline">
      <button type="button" className="small" onClick={() => setOpen("rename")}>
        {t("library.rename")}
      </button>
      <button
        type="button"
        className="small"
        disabled={i <= 0}
        aria-label={t("library.moveUp", { name: node.title })}
        onClick={() => move.mutate({ parentId: node.parentId, prevNodeId: id(siblings[i - 2]), nextNodeId: id(siblings[i - 1]) })}
      >
        ↑
      </button>
      <button
        type="button"
        className="small"
        disabled={i < 0 || i >= siblings.length - 1}
        aria-label={t("library.moveDown", { name: node.title })}
        onClick={() => move.mutate({ parentId: node.parentId, prevNodeId: id(siblings[i + 1]), nextNodeId: id(siblings[i + 2]) })}
      >
        ↓
      </button>
      <button type="button" className="small" onClick={() => setOpen("move")}>
        {t("library.moveTo")}
      </button>
      <button type="button" className="small" onClick={() => setOpen("copy")}>
        {t("library.copy.button")}
      </button>
      <button
        type="button"
        className="small danger"
        onClick={() => {
          if (window.confirm(t("library.deleteFolderConfirm", { name: node.title }))) remove.mutate();
        }}
      >
        {t("library.deleteFolder")}
      </button>
      <FormError error={remove.error ?? (open ? null : move.error)} fields={[]} />
      <Modal open={open === "rename"} onOpenChange={(o) => setOpen(o ? "rename" : null)} title={t("library.renameFolder")}>
        <NameForm
          label={t("library.folderName")}
          value={title}
          onChange={setTitle}
          onSubmit={() => rename.mutate()}
          error={rename.error}
          field="title"
          required
          submitLabel={t("common.save")}
        >
          <FormError error={rename.error} fields={["title"]} />
        </NameForm>
      </Modal>
      <Modal open={open === "copy"} onOpenChange={(o) => setOpen(o ? "copy" : null)} title={t("library.copy.title", { title: node.title })}>
        {open === "copy" && <CopyFolder node={node} tree={tree} onDone={() => setOpen(null)} />}
      </Modal>
      <Modal open={open === "move"} onOpenChange={(o) => setOpen(o ? "move" : null)} title={t("library.moveFolder", { name: node.title })}>
        <form
          className="stack"
          onSubmit={(e) => {
            e.preventDefault();
            move.mutate({ parentId: into || null });
          }}
        >
          <Select
            label={t("library.into")}
            value={into}
            onChange={setInto}
            options={[
              { value: "", label: t("library.topLevel") },
              ...targets.map((n) => ({ value: n.id, label: `${"— ".repeat(n.depth)}${n.title}` })),
            ]}
          />
          <FormError error={move.error} fields={[]} />
          <button type="submit" className="primary">
            {t("library.move")}
          </button>
        </form>
      </Modal>
    </div>
  );
}
