// A space list's post and content counts: the features that own posts and contents register how
// they count (spaces/hooks.ts, wired in src/app.ts), so spaces imports neither.
import type { Db } from "../../platform/db/types";
import { spaceCount } from "./hooks";

export type ContentCounts = { postCount: number; contentCount: number };

/** postCount/contentCount of a page of spaces: one grouped query per kind, never per row. */
export function spaceContentCounts(db: Db, spaceIds: string[]): Map<string, ContentCounts> {
  const contents = spaceCount(db, "contentCount", spaceIds);
  const postsBySpace = spaceCount(db, "postCount", spaceIds);
  return new Map(spaceIds.map((id) => [id, { postCount: postsBySpace.get(id) ?? 0, contentCount: contents.get(id) ?? 0 }]));
}
