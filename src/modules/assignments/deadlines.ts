// A participant's own deadline (docs/rules/next-year.md#extensions): what config, submit and extensions read.
import { inArray } from "drizzle-orm";
import type { Db } from "../../platform/db/types";
import { deadlineFor, type ExtensionStore, extensionsOf } from "../submissions/extensions";
import { assignmentConfigs, assignmentExtensions as x } from "./tables";

export const ASSIGNMENT_EXTENSIONS: ExtensionStore = {
  type: "ASSIGNMENT",
  table: x,
  contentId: x.contentId,
  owner: x.profileId,
  ownerKey: "profileId",
  dueAt: x.dueAt,
};

/** The deadline of one participant: their extension, else the config's dueAt. */
export function dueAtFor(db: Db, contentId: string, profileId: string, configDueAt: number | null): number | null {
  return deadlineFor(db, ASSIGNMENT_EXTENSIONS, contentId, profileId, configDueAt);
}

/** Each assignment's deadline for one participant (their extension, else the config's dueAt): two queries for any number. */
export function assignmentDueDates(db: Db, contentIds: string[], profileId: string): Map<string, number | null> {
  if (contentIds.length === 0) return new Map();
  const out = new Map(
    db
      .select({ id: assignmentConfigs.contentId, dueAt: assignmentConfigs.dueAt })
      .from(assignmentConfigs)
      .where(inArray(assignmentConfigs.contentId, contentIds))
      .all()
      .map((r) => [r.id, r.dueAt]),
  );
  for (const e of extensionsOf(db, ASSIGNMENT_EXTENSIONS, contentIds, [profileId])) out.set(e.contentId, e.dueAt);
  return out;
}
