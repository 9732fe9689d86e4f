// A space's posts in its copy (docs/rules/next-year.md#copies): ARCHIVED (republished with
// updatePost), same number, author and attachments (the same stored files); no comments.
import { asc, eq, inArray } from "drizzle-orm";
import type { Db } from "../../platform/db/types";
import { postFiles, posts } from "./tables";

export function copySpacePosts(tx: Db, fromSpaceId: string, toSpaceId: string, now: number): number {
  const rows = tx.select().from(posts).where(eq(posts.spaceId, fromSpaceId)).orderBy(asc(posts.index)).all();
  if (rows.length === 0) return 0;
  const ids = new Map(rows.map((p) => [p.id, Bun.randomUUIDv7()]));
  const copies = rows.map((p) => ({
    ...p,
    id: ids.get(p.id) as string,
    spaceId: toSpaceId,
    status: "ARCHIVED" as const,
    createdAt: now,
    updatedAt: now,
  }));
  for (let i = 0; i < copies.length; i += 200)
    tx.insert(posts)
      .values(copies.slice(i, i + 200))
      .run();
  const files = tx
    .select()
    .from(postFiles)
    .where(inArray(postFiles.postId, [...ids.keys()]))
    .all();
  if (files.length)
    tx.insert(postFiles)
      .values(files.map((f) => ({ ...f, postId: ids.get(f.postId) as string })))
      .run();
  return rows.length;
}
