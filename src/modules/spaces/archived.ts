// docs/rules/spaces.md#archived-spaces: an inactive space is read-only for participants.
import { eq, sql } from "drizzle-orm";
import { preparedQuery } from "../../platform/db/sqlite";
import type { Db } from "../../platform/db/types";
import { conflict } from "../../platform/http/errors";
import { spaces } from "../../schema/spaces";

/**
 * Refuses new participant work (submitting, attempting, responding, peer-assessing, completing
 * tasks, joining) in an inactive space with 409 INVALID_STATE. `spaceId` null (tenant library
 * content) is never archived. Managers' grading, returning and exporting do not call this.
 */
export function requireActiveSpace(db: Db, spaceId: string | null): void {
  if (spaceId === null) return;
  const row = preparedQuery(db, "spaces.isActive", (base) =>
    base
      .select({ isActive: spaces.isActive })
      .from(spaces)
      .where(eq(spaces.id, sql.placeholder("spaceId")))
      .prepare(),
  ).get({ spaceId });
  if (row) requireActive(row);
}

/** The same rule on a space row already read. */
export function requireActive(space: { isActive: boolean }): void {
  if (!space.isActive) throw conflict("INVALID_STATE", "This space is archived: it is read-only.");
}
