import type { paths } from "../../api/schema";

export type Node = paths["/api/v1/library/nodes"]["get"]["responses"]["200"]["content"]["application/json"]["nodes"][number];

/** The space's folders in reading order: each parent followed by its children (listNodes sorts by rank only). */
export function spaceTree(nodes: Node[], spaceId: string): Node[] {
  const mine = nodes.filter((n) => n.spaceId === spaceId);
  const byParent = new Map<string | null, Node[]>();
  for (const n of mine) {
    const parent = n.parentId && mine.some((p) => p.id === n.parentId) ? n.parentId : null;
    byParent.set(parent, [...(byParent.get(parent) ?? []), n]);
  }
  const out: Node[] = [];
  const walk = (parent: string | null) => {
    for (const n of byParent.get(parent) ?? []) {
      out.push(n);
      walk(n.id);
    }
  };
  walk(null);
  return out;
}

/** The folder and everything under it: where it cannot be moved (moveNode refuses a cycle). */
export function subtreeIds(nodes: Node[], rootId: string): Set<string> {
  const out = new Set([rootId]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const n of nodes)
      if (n.parentId && out.has(n.parentId) && !out.has(n.id)) {
        out.add(n.id);
        grew = true;
      }
  }
  return out;
}

/** The siblings of a folder under the same parent, in order. */
export const siblingsOf = (tree: Node[], node: Node) => tree.filter((n) => n.parentId === node.parentId);
