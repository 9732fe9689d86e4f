// "Copy class for next year" (docs/rules/next-year.md#copies): a new space with the source's
// settings, field values, group sets (without members) and, with includeAdmins, its ADMINs. No
// participants, join codes, blocks or enrolment history.
import { and, asc, eq, inArray } from "drizzle-orm";
import type { Actor } from "../../platform/auth/actor";
import type { Db } from "../../platform/db/types";
import { spaceFieldValues } from "../../schema/fields";
import { members } from "../../schema/members";
import { spaceGroupSets, spaceGroups, spaceMembers, spaces } from "../../schema/spaces";
import type { SpaceRow } from "./access";
import { enrol } from "./members";

export type CopiedSpace = { row: SpaceRow; groupSets: Map<string, string> };

export function copySpaceShell(
  tx: Db,
  actor: Pick<Actor, "memberId">,
  src: SpaceRow,
  input: { name: string; semester?: string | null; includeAdmins?: boolean },
  now: number,
): CopiedSpace {
  const row = tx
    .insert(spaces)
    .values({
      ...src,
      id: Bun.randomUUIDv7(),
      name: input.name,
      semester: input.semester === undefined ? src.semester : input.semester,
      isActive: true,
      createdAt: now,
      updatedAt: now,
    })
    .returning()
    .get();
  enrol(tx, row, [actor.memberId], "ADMIN", now, true);
  if (input.includeAdmins ?? true) {
    const admins = tx
      .select({ id: spaceMembers.memberId })
      .from(spaceMembers)
      .innerJoin(members, and(eq(members.id, spaceMembers.memberId), eq(members.isActive, true)))
      .where(and(eq(spaceMembers.spaceId, src.id), eq(spaceMembers.role, "ADMIN")))
      .all()
      .map((a) => a.id)
      .filter((id) => id !== actor.memberId);
    enrol(tx, row, admins, "ADMIN", now);
  }
  const values = tx.select().from(spaceFieldValues).where(eq(spaceFieldValues.spaceId, src.id)).all();
  if (values.length)
    tx.insert(spaceFieldValues)
      .values(values.map((v) => ({ ...v, spaceId: row.id })))
      .run();
  const sets = tx.select().from(spaceGroupSets).where(eq(spaceGroupSets.spaceId, src.id)).orderBy(asc(spaceGroupSets.createdAt)).all();
  const groupSets = new Map(sets.map((s) => [s.id, Bun.randomUUIDv7()]));
  if (sets.length) {
    tx.insert(spaceGroupSets)
      .values(sets.map((s) => ({ ...s, id: groupSets.get(s.id) as string, spaceId: row.id, createdAt: now, updatedAt: now })))
      .run();
    const groups = tx
      .select()
      .from(spaceGroups)
      .where(inArray(spaceGroups.setId, [...groupSets.keys()]))
      .all();
    if (groups.length)
      tx.insert(spaceGroups)
        .values(groups.map((g) => ({ ...g, id: Bun.randomUUIDv7(), setId: groupSets.get(g.setId) as string, createdAt: now })))
        .run();
  }
  return { row, groupSets };
}
