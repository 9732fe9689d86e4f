// When each quiz closes for one student (a guardian's overview, docs/rules/members.md#overview).
import { inArray } from "drizzle-orm";
import type { Db } from "../../platform/db/types";
import { ownClosesAt } from "./overrides";
import { quizConfigs as c } from "./tables";

/** Each quiz's closesAt for the student (their override's, else the quiz's), the moment its work is due: two queries for any number. */
export function quizCloseDates(db: Db, contentIds: string[], profileId: string): Map<string, number | null> {
  if (contentIds.length === 0) return new Map();
  const own = ownClosesAt(db, contentIds, [profileId]);
  return new Map(
    db
      .select({ id: c.contentId, closesAt: c.closesAt })
      .from(c)
      .where(inArray(c.contentId, contentIds))
      .all()
      .map((r) => [r.id, own.get(`${r.id}:${profileId}`) ?? r.closesAt]),
  );
}
