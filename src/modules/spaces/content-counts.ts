// A space list's post and content counts: they come from the modules above spaces, so they are
// composed here and not in spaces/access (which library and posts build on).
import type { Db } from "../../platform/db/types";
import { contentCounts } from "../library/access";
import { postCounts } from "../posts/access";

export type ContentCounts = { postCount: number; contentCount: number };

/** postCount/contentCount of a page of spaces: one grouped query per kind, never per row. */
export function spaceContentCounts(db: Db, spaceIds: string[]): Map<string, ContentCounts> {
  const contents = contentCounts(db, spaceIds);
  const postsBySpace = postCounts(db, spaceIds);
  return new Map(spaceIds.map((id) => [id, { postCount: postsBySpace.get(id) ?? 0, contentCount: contents.get(id) ?? 0 }]));
}
