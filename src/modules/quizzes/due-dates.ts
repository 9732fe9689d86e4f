// When each quiz closes (a guardian's overview, docs/rules/members.md#overview).
import { inArray } from "drizzle-orm";
import type { Db } from "../../platform/db/types";
import { quizConfigs as c } from "./tables";

/** Each quiz's closesAt, the moment its work is due: one query for any number. */
export function quizCloseDates(db: Db, contentIds: string[]): Map<string, number | null> {
  if (contentIds.length === 0) return new Map();
  return new Map(
    db
      .select({ id: c.contentId, closesAt: c.closesAt })
      .from(c)
      .where(inArray(c.contentId, contentIds))
      .all()
      .map((r) => [r.id, r.closesAt]),
  );
}
