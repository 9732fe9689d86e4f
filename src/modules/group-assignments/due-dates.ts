// When each group assignment is due (a guardian's overview, docs/rules/members.md#overview).
import { inArray } from "drizzle-orm";
import type { Db } from "../../platform/db/types";
import { groupAssignmentConfigs as c } from "./tables";

/** Each group assignment's dueAt: one query for any number. */
export function groupAssignmentDueDates(db: Db, contentIds: string[]): Map<string, number | null> {
  if (contentIds.length === 0) return new Map();
  return new Map(
    db
      .select({ id: c.contentId, dueAt: c.dueAt })
      .from(c)
      .where(inArray(c.contentId, contentIds))
      .all()
      .map((r) => [r.id, r.dueAt]),
  );
}
