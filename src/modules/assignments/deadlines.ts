// A participant's own deadline (DECISIONS §13 Another chance): what config, submit and extensions read.
import { and, eq } from "drizzle-orm";
import type { Db } from "../../platform/db/types";
import { assignmentExtensions as x } from "./tables";

/** The deadline of one participant: their extension, else the config's dueAt. */
export function dueAtFor(db: Db, contentId: string, profileId: string, configDueAt: number | null): number | null {
  const row = db
    .select({ dueAt: x.dueAt })
    .from(x)
    .where(and(eq(x.contentId, contentId), eq(x.profileId, profileId)))
    .get();
  return row?.dueAt ?? configDueAt;
}
