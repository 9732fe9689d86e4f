// Contents by author, for a member who leaves (docs/rules/members.md#hand-over).
import { asc, eq } from "drizzle-orm";
import type { Db } from "../../platform/db/types";
import { libraryContents as c } from "../../schema/library";

/** The contents a profile authored, in the tenant library or any space, oldest first (on library_contents_author_idx). */
export function authoredContents(db: Db, profileId: string) {
  return db
    .select({ id: c.id, title: c.title, type: c.type, spaceId: c.spaceId })
    .from(c)
    .where(eq(c.authorProfileId, profileId))
    .orderBy(asc(c.createdAt), asc(c.id))
    .all();
}

/** Makes `toProfileId` the author of everything `fromProfileId` authored, in the caller's transaction; returns the content ids. */
export function reassignAuthor(tx: Db, fromProfileId: string, toProfileId: string, now: number): string[] {
  return tx
    .update(c)
    .set({ authorProfileId: toProfileId, updatedAt: now })
    .where(eq(c.authorProfileId, fromProfileId))
    .returning({ id: c.id })
    .all()
    .map((r) => r.id);
}
