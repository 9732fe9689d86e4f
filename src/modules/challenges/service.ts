// Challenges: list, read, create, replace, delete, add a task, e-mail count (docs/rules/challenges.md#dates, docs/rules/challenges.md#replacing).
import { and, count, desc, eq, inArray, isNotNull, or, type SQL, sql } from "drizzle-orm";
import type { Static } from "elysia";
import type { Actor } from "../../platform/auth/actor";
import { type Db, write } from "../../platform/db/types";
import { type FieldError, invalidMany } from "../../platform/http/errors";
import { parseTime } from "../../platform/http/schemas";
import type { Runtime } from "../../platform/runtime";
import { libraryContents } from "../../schema/library";
import { members } from "../../schema/members";
import { spaceMembers } from "../../schema/spaces";
import { requireAttachableFiles } from "../files/attachments";
import { visibleContentSql } from "../library/access";
import { requireSpaceMember } from "../spaces/access";
import { challengeForManager, challengeForMember, datesOf, type TaskRow } from "./access";
import type { AddTaskBody, ChallengeBody, ListChallengesQuery, TaskInput } from "./model";
import { challengeDeleted, challengeRemindersChanged } from "./notify";
import { challengeDetail, challengeStats, type Stats, selectChallenges, tasksOf, toSummary } from "./records";
import { challengeFiles, challengeMembers, challenges, challengeTasks } from "./tables";

type Body = Static<typeof ChallengeBody>;
type PreparedTask = Omit<TaskRow, "challengeId" | "createdAt"> & { isNew: boolean };

/**
 * The tasks of a create or replace, checked and ordered. An `id` must name a task of this challenge
 * (create: none exist), listed once; a deadline may not precede its start; a newly set
 * targetContentId must be a content the caller sees in this space's folders or the tenant library.
 * Order: by `index` when sent, else by position in the list; stored `index` = the 0-based rank.
 */
function prepareTasks(tx: Db, actor: Actor, spaceId: string, inputs: Static<typeof TaskInput>[], existing: Map<string, TaskRow>) {
  const errors: FieldError[] = [];
  const err = (i: number, field: string, message: string) => errors.push({ in: "body", field: `tasks[${i}].${field}`, message });
  const seen = new Set<string>();
  const targets = new Map<string, number[]>();
  inputs.forEach((t, i) => {
    if (t.id !== undefined) {
      if (seen.has(t.id)) err(i, "id", "repeats an earlier task");
      else if (!existing.has(t.id)) err(i, "id", "is not a task of this challenge");
      seen.add(t.id);
    }
    if (t.deadline != null && parseTime(t.deadline) < parseTime(t.startedAt)) err(i, "deadline", "must not be before startedAt");
    const target = t.targetContentId ?? null;
    const kept = t.id !== undefined && existing.get(t.id)?.targetContentId === target;
    if (target !== null && !kept) targets.set(target, [...(targets.get(target) ?? []), i]);
  });
  if (targets.size) {
    const c = libraryContents;
    const usable = new Set(
      tx
        .select({ id: c.id })
        .from(c)
        .where(
          and(inArray(c.id, [...targets.keys()]), visibleContentSql(actor), or(sql`${c.spaceId} IS NULL`, eq(c.spaceId, spaceId)) as SQL),
        )
        .all()
        .map((r) => r.id),
    );
    for (const [id, at] of targets) {
      if (!usable.has(id))
        for (const i of at) err(i, "targetContentId", "must be a content you can see in this space or the tenant library");
    }
  }
  if (errors.length) throw invalidMany(errors.sort((a, b) => a.field.localeCompare(b.field, "en", { numeric: true })));
  return inputs
    .map((t, i) => ({ t, key: t.index ?? i, i }))
    .sort((a, b) => a.key - b.key || a.i - b.i)
    .map(
      ({ t }, index): PreparedTask => ({
        id: t.id ?? Bun.randomUUIDv7(),
        isNew: t.id === undefined,
        title: t.title,
        guide: t.guide ?? null,
        type: t.type ?? "CHECK_TASK",
        index,
        startedAt: parseTime(t.startedAt),
        deadline: t.deadline == null ? null : parseTime(t.deadline),
        targetContentId: t.targetContentId ?? null,
        defaultTags: t.defaultTags ?? [],
      }),
    );
}

function replaceFiles(tx: Db, challengeId: string, fileIds: string[]) {
  tx.delete(challengeFiles).where(eq(challengeFiles.challengeId, challengeId)).run();
  if (fileIds.length)
    tx.insert(challengeFiles)
      .values(fileIds.map((fileId, position) => ({ challengeId, fileId, position })))
      .run();
}

function joinAuthor(tx: Db, challengeId: string, memberId: string, now: number) {
  tx.insert(challengeMembers).values({ challengeId, memberId, joinedAt: now }).onConflictDoNothing().run();
}

/**
 * Any enrolled member may create; the caller is the author. includeAuthor makes them a member too.
 * Check order (docs/rules/challenges.md#replacing): the body (its references included) is checked before the space (404, 403).
 */
export function createChallenge(rt: Runtime, actor: Actor, spaceId: string, input: Body, now = Date.now()) {
  return write(actor.db, (tx) => {
    const tasks = prepareTasks(tx, actor, spaceId, input.tasks, new Map());
    const fileIds = input.fileIds ?? [];
    requireAttachableFiles(tx, actor, fileIds, new Set());
    const space = requireSpaceMember(actor, spaceId, tx);
    const id = Bun.randomUUIDv7();
    tx.insert(challenges)
      .values({
        id,
        spaceId,
        authorMemberId: actor.memberId,
        isWrittenByAdmin: space.callerRole === "ADMIN",
        title: input.title,
        emoji: input.emoji,
        body: input.body ?? "",
        reminderMinutes: input.reminderMinutes ?? [],
        ...datesOf(tasks),
        createdAt: now,
        updatedAt: now,
      })
      .run();
    tx.insert(challengeTasks)
      .values(tasks.map(({ isNew: _n, ...t }) => ({ ...t, challengeId: id, createdAt: now })))
      .run();
    replaceFiles(tx, id, fileIds);
    if (input.includeAuthor) joinAuthor(tx, id, actor.memberId, now);
    challengeRemindersChanged(tx, actor, id, now);
    return challengeDetail(rt, actor, tx, id, now);
  });
}

/**
 * PUT, full replace (docs/rules/challenges.md#replacing): a task with an existing id is updated (its
 * completions stay), one without id is created, an absent one is removed with its completions.
 * includeAuthor true adds the author (while enrolled) if absent; false removes nobody. Check
 * order (docs/rules/errors.md#check-order): the body (task ids and files are references) is checked before the challenge (404, 403).
 */
export function updateChallenge(rt: Runtime, actor: Actor, spaceId: string, challengeId: string, input: Body, now = Date.now()) {
  return write(actor.db, (tx) => {
    const existing = new Map(tasksOf(tx, challengeId).map((t) => [t.id, t]));
    const tasks = prepareTasks(tx, actor, spaceId, input.tasks, existing);
    const fileIds = input.fileIds ?? [];
    const attached = tx
      .select({ fileId: challengeFiles.fileId })
      .from(challengeFiles)
      .where(eq(challengeFiles.challengeId, challengeId))
      .all();
    requireAttachableFiles(tx, actor, fileIds, new Set(attached.map((r) => r.fileId)));
    const { challenge } = challengeForManager(actor, spaceId, challengeId, tx);

    const keep = new Set(tasks.map((t) => t.id));
    const gone = [...existing.keys()].filter((id) => !keep.has(id));
    if (gone.length) tx.delete(challengeTasks).where(inArray(challengeTasks.id, gone)).run();
    for (const { isNew, id, ...t } of tasks) {
      if (isNew)
        tx.insert(challengeTasks)
          .values({ id, ...t, challengeId, createdAt: now })
          .run();
      else tx.update(challengeTasks).set(t).where(eq(challengeTasks.id, id)).run();
    }
    replaceFiles(tx, challengeId, fileIds);
    tx.update(challenges)
      .set({
        title: input.title,
        emoji: input.emoji,
        body: input.body ?? "",
        reminderMinutes: input.reminderMinutes ?? [],
        ...datesOf(tasks),
        updatedAt: now,
      })
      .where(eq(challenges.id, challengeId))
      .run();
    const author = challenge.authorMemberId;
    if (input.includeAuthor && author !== null) {
      const enrolled = tx
        .select({ id: spaceMembers.memberId })
        .from(spaceMembers)
        .where(and(eq(spaceMembers.spaceId, spaceId), eq(spaceMembers.memberId, author)))
        .get();
      if (enrolled) joinAuthor(tx, challengeId, author, now);
    }
    challengeRemindersChanged(tx, actor, challengeId, now);
    return challengeDetail(rt, actor, tx, challengeId, now);
  });
}

/** addChallengeTask: a CHECK_TASK appended last, without deadline (so endedAt turns null). */
export function addChallengeTask(
  rt: Runtime,
  actor: Actor,
  spaceId: string,
  challengeId: string,
  input: Static<typeof AddTaskBody>,
  now = Date.now(),
) {
  return write(actor.db, (tx) => {
    challengeForManager(actor, spaceId, challengeId, tx);
    const tasks = tasksOf(tx, challengeId);
    const task = {
      id: Bun.randomUUIDv7(),
      challengeId,
      title: input.title,
      guide: null,
      type: "CHECK_TASK" as const,
      index: (tasks.at(-1)?.index ?? -1) + 1,
      startedAt: parseTime(input.startedAt),
      deadline: null,
      targetContentId: null,
      defaultTags: [],
      createdAt: now,
    };
    tx.insert(challengeTasks).values(task).run();
    tx.update(challenges)
      .set({ ...datesOf([...tasks, task]), updatedAt: now })
      .where(eq(challenges.id, challengeId))
      .run();
    return challengeDetail(rt, actor, tx, challengeId, now);
  });
}

export function getChallenge(rt: Runtime, actor: Actor, spaceId: string, challengeId: string) {
  challengeForMember(actor, spaceId, challengeId);
  return challengeDetail(rt, actor, actor.db, challengeId);
}

/** Members, tasks, completions and file links go by cascade. */
export function deleteChallenge(actor: Actor, spaceId: string, challengeId: string) {
  write(actor.db, (tx) => {
    challengeForManager(actor, spaceId, challengeId, tx);
    tx.delete(challenges).where(eq(challenges.id, challengeId)).run();
    challengeDeleted(tx, challengeId);
  });
}

/**
 * listChallenges: the space's challenges, newest first (space_id, created_at, id). `joined` and
 * `state` filter in SQL; the state is derived from the stored dates at this instant.
 */
export function listChallenges(actor: Actor, spaceId: string, q: Static<typeof ListChallengesQuery>, now = Date.now()) {
  requireSpaceMember(actor, spaceId);
  const c = challenges;
  const conds: (SQL | undefined)[] = [eq(c.spaceId, spaceId)];
  if (q.joined !== undefined) {
    const member = sql`EXISTS (SELECT 1 FROM ${challengeMembers} cm WHERE cm.challenge_id = ${c.id} AND cm.member_id = ${actor.memberId})`;
    conds.push(q.joined === "true" ? member : sql`NOT ${member}`);
  }
  if (q.state === "BEFORE_START") conds.push(sql`${c.startedAt} > ${now}`);
  if (q.state === "FINISHED") conds.push(and(sql`${c.startedAt} <= ${now}`, isNotNull(c.endedAt), sql`${c.endedAt} < ${now}`));
  if (q.state === "ONGOING") conds.push(and(sql`${c.startedAt} <= ${now}`, sql`(${c.endedAt} IS NULL OR ${c.endedAt} >= ${now})`));
  const rows = selectChallenges(actor.db)
    .where(and(...conds))
    .orderBy(desc(c.createdAt), desc(c.id))
    .all();
  const stats = challengeStats(
    actor.db,
    rows.map((r) => r.row.id),
    actor.memberId,
  );
  return {
    challenges: rows.map((r) => toSummary({ ...r.row, authorName: r.authorName }, stats.get(r.row.id) as Stats, now)),
  };
}

/** checkChallengeEmailCount (docs/rules/spaces.md#e-mail-counts): this challenge's memberships of the member with that e-mail. */
export function checkChallengeEmailCount(actor: Actor, spaceId: string, challengeId: string, email: string) {
  challengeForManager(actor, spaceId, challengeId);
  const n =
    actor.db
      .select({ n: count() })
      .from(challengeMembers)
      .innerJoin(members, eq(members.id, challengeMembers.memberId))
      .where(and(eq(challengeMembers.challengeId, challengeId), eq(members.email, email.toLowerCase())))
      .get()?.n ?? 0;
  return { email, count: n };
}
