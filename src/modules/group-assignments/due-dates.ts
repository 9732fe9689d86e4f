// When each group assignment is due for one student (a guardian's overview, docs/rules/members.md#overview).
import { inArray } from "drizzle-orm";
import type { Db } from "../../platform/db/types";
import { extensionsOf } from "../submissions/extensions";
import { GROUP_EXTENSIONS } from "./extensions";
import { groupPeople } from "./link";
import { groupAssignmentConfigs as c } from "./tables";

/** Each group assignment's deadline for the student's group (its extension, else dueAt): three queries for any number. */
export function groupAssignmentDueDates(db: Db, contentIds: string[], profileId: string): Map<string, number | null> {
  if (contentIds.length === 0) return new Map();
  const configs = db
    .select({ id: c.contentId, dueAt: c.dueAt, setId: c.spaceGroupSetId })
    .from(c)
    .where(inArray(c.contentId, contentIds))
    .all();
  const out = new Map(configs.map((r) => [r.id, r.dueAt]));
  const setIds = [...new Set(configs.flatMap((r) => (r.setId ? [r.setId] : [])))];
  const groupOfSet = new Map(
    groupPeople(db, { setIds })
      .filter((p) => p.profileId === profileId)
      .map((p) => [p.setId, p.groupId]),
  );
  const extended = extensionsOf(db, GROUP_EXTENSIONS, contentIds, [...new Set(groupOfSet.values())]);
  for (const cfg of configs) {
    const groupId = cfg.setId ? groupOfSet.get(cfg.setId) : undefined;
    const own = extended.find((e) => e.contentId === cfg.id && e.ownerId === groupId);
    if (own) out.set(cfg.id, own.dueAt);
  }
  return out;
}
