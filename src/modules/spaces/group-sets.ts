import { and, asc, eq, inArray } from "drizzle-orm";
import type { Static } from "elysia";
import type { Actor } from "../../platform/auth/actor";
import { type Db, write } from "../../platform/db/types";
import { invalid, notFound } from "../../platform/http/errors";
import { isoRequired } from "../../platform/http/schemas";
import { members } from "../../schema/members";
import { spaceGroupMembers, spaceGroupSets, spaceGroups, spaceMembers } from "../../schema/spaces";
import { requireSpaceAdmin, requireSpaceMember } from "./access";
import { groupSetDeleted } from "./hooks";
import type { CreateGroupSetBody, SpaceGroupSet } from "./model";

type SetRecord = Static<typeof SpaceGroupSet>;
type SetRow = typeof spaceGroupSets.$inferSelect;
type GroupsInput = Static<typeof CreateGroupSetBody>["groups"];

/**
 * Sets with their groups and members in three queries. `onlyMember` keeps, in each set, just the
 * groups that member is in (a participant sees their own group).
 */
function toSets(db: Db, sets: SetRow[], onlyMember: string | null = null): SetRecord[] {
  if (sets.length === 0) return [];
  const setIds = sets.map((s) => s.id);
  const groups = db
    .select()
    .from(spaceGroups)
    .where(inArray(spaceGroups.setId, setIds))
    .orderBy(asc(spaceGroups.setId), asc(spaceGroups.position))
    .all();
  const people = db
    .select({
      groupId: spaceGroupMembers.groupId,
      id: members.id,
      userId: members.userId,
      displayName: members.displayName,
    })
    .from(spaceGroupMembers)
    .innerJoin(members, eq(members.id, spaceGroupMembers.memberId))
    .where(inArray(spaceGroupMembers.setId, setIds))
    .orderBy(asc(spaceGroupMembers.groupId), asc(spaceGroupMembers.position))
    .all();
  const byGroup = new Map<string, { id: string; userId: string | null; displayName: string }[]>();
  for (const { groupId, ...m } of people) byGroup.set(groupId, [...(byGroup.get(groupId) ?? []), m]);
  const bySet = new Map<string, SetRecord["groups"]>();
  for (const g of groups) {
    const list = byGroup.get(g.id) ?? [];
    if (onlyMember !== null && !list.some((m) => m.id === onlyMember)) continue;
    bySet.set(g.setId, [...(bySet.get(g.setId) ?? []), { id: g.id, name: g.name, members: list }]);
  }
  return sets.map((s) => ({
    id: s.id,
    spaceId: s.spaceId,
    name: s.name,
    groups: bySet.get(s.id) ?? [],
    createdAt: isoRequired(s.createdAt),
  }));
}

/** Any space member; ADMINs see every group, participants only the groups they are in. */
export function listSpaceGroupSets(actor: Actor, spaceId: string) {
  const space = requireSpaceMember(actor, spaceId);
  const sets = actor.db
    .select()
    .from(spaceGroupSets)
    .where(eq(spaceGroupSets.spaceId, spaceId))
    .orderBy(asc(spaceGroupSets.createdAt), asc(spaceGroupSets.id))
    .all();
  return { groupSets: toSets(actor.db, sets, space.callerRole === "ADMIN" ? null : actor.memberId) };
}

/** memberIds must be enrolled in the space, and a member may appear once in the whole set (400). */
function checkMembers(tx: Db, spaceId: string, groups: GroupsInput) {
  const all = [...new Set(groups.flatMap((g) => g.memberIds))];
  const enrolled = new Set(
    all.length
      ? tx
          .select({ id: spaceMembers.memberId })
          .from(spaceMembers)
          .where(and(eq(spaceMembers.spaceId, spaceId), inArray(spaceMembers.memberId, all)))
          .all()
          .map((r) => r.id)
      : [],
  );
  const seen = new Set<string>();
  groups.forEach((g, i) => {
    g.memberIds.forEach((id, j) => {
      const at = `groups[${i}].memberIds[${j}]`;
      if (!enrolled.has(id)) throw invalid(at, "is not a member enrolled in this space");
      if (seen.has(id)) throw invalid(at, "is already in a group of this set");
      seen.add(id);
    });
  });
}

function insertGroups(tx: Db, setId: string, groups: (GroupsInput[number] & { id?: string })[], keep: Set<string>, now: number) {
  groups.forEach((g, position) => {
    let groupId = g.id;
    if (groupId && keep.has(groupId)) tx.update(spaceGroups).set({ name: g.name, position }).where(eq(spaceGroups.id, groupId)).run();
    else {
      groupId = Bun.randomUUIDv7();
      tx.insert(spaceGroups).values({ id: groupId, setId, name: g.name, position, createdAt: now }).run();
    }
    if (g.memberIds.length) {
      const id = groupId;
      tx.insert(spaceGroupMembers)
        .values(g.memberIds.map((memberId, i) => ({ groupId: id, setId, memberId, position: i })))
        .run();
    }
  });
}

export function createSpaceGroupSet(actor: Actor, spaceId: string, input: Static<typeof CreateGroupSetBody>, now = Date.now()) {
  return write(actor.db, (tx) => {
    requireSpaceAdmin(actor, spaceId, tx);
    checkMembers(tx, spaceId, input.groups);
    const set = tx
      .insert(spaceGroupSets)
      .values({ id: Bun.randomUUIDv7(), spaceId, name: input.name, createdAt: now, updatedAt: now })
      .returning()
      .get();
    insertGroups(
      tx,
      set.id,
      input.groups.map(({ name, memberIds }) => ({ name, memberIds })),
      new Set(),
      now,
    );
    return toSets(tx, [set])[0] as SetRecord;
  });
}

function setOf(tx: Db, spaceId: string, setId: string): SetRow {
  const set = tx
    .select()
    .from(spaceGroupSets)
    .where(and(eq(spaceGroupSets.id, setId), eq(spaceGroupSets.spaceId, spaceId)))
    .get();
  if (!set) throw notFound();
  return set;
}

/**
 * PUT: a group with `id` (of this set, else 400) is kept, one without is new, an absent one is
 * removed. Memberships are rewritten from the body. Submissions keep their groupId/groupName copies.
 */
export function updateSpaceGroupSet(
  actor: Actor,
  spaceId: string,
  setId: string,
  input: Static<typeof CreateGroupSetBody> & { groups: { id?: string }[] },
  now = Date.now(),
) {
  return write(actor.db, (tx) => {
    requireSpaceAdmin(actor, spaceId, tx);
    const set = setOf(tx, spaceId, setId);
    const existing = new Set(
      tx
        .select({ id: spaceGroups.id })
        .from(spaceGroups)
        .where(eq(spaceGroups.setId, setId))
        .all()
        .map((r) => r.id),
    );
    const keep = new Set<string>();
    input.groups.forEach((g, i) => {
      if (g.id === undefined) return;
      if (!existing.has(g.id)) throw invalid(`groups[${i}].id`, "is not a group of this set");
      if (keep.has(g.id)) throw invalid(`groups[${i}].id`, "is listed twice");
      keep.add(g.id);
    });
    checkMembers(tx, spaceId, input.groups);
    tx.delete(spaceGroupMembers).where(eq(spaceGroupMembers.setId, setId)).run();
    const gone = [...existing].filter((id) => !keep.has(id));
    if (gone.length) tx.delete(spaceGroups).where(inArray(spaceGroups.id, gone)).run();
    insertGroups(tx, setId, input.groups, keep, now);
    const row = tx
      .update(spaceGroupSets)
      .set({ name: input.name, updatedAt: now })
      .where(eq(spaceGroupSets.id, set.id))
      .returning()
      .get() as SetRow;
    return toSets(tx, [row])[0] as SetRecord;
  });
}

/** Linked group-assignment and peer-assessment configs are marked GROUP_SET_DELETED. */
export function deleteSpaceGroupSet(actor: Actor, spaceId: string, setId: string) {
  write(actor.db, (tx) => {
    requireSpaceAdmin(actor, spaceId, tx);
    setOf(tx, spaceId, setId);
    groupSetDeleted(tx, setId);
    tx.delete(spaceGroupSets).where(eq(spaceGroupSets.id, setId)).run();
  });
}
