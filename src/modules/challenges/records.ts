// Rows → the API's records: Challenge summary/detail, ChallengeTask, member progress. Per-challenge
// figures come from grouped queries over a whole list, never one query per row.
import { and, asc, count, eq, inArray } from "drizzle-orm";
import type { Static } from "elysia";
import type { Actor } from "../../platform/auth/actor";
import type { Db } from "../../platform/db/types";
import { iso, isoRequired } from "../../platform/http/schemas";
import type { Runtime } from "../../platform/runtime";
import { members } from "../../schema/members";
import { attachmentOf, readyFilesByIds } from "../files/attachments";
import { type ChallengeRow, percent, stateOf, type TaskRow } from "./access";
import type { ChallengeDetail, ChallengeSummary, ChallengeTask, MemberProgress } from "./model";
import { challengeCompletions, challengeFiles, challengeMembers, challenges, challengeTasks } from "./tables";

export type Stats = { memberCount: number; totalTaskCount: number; completions: number; myDone: number; joined: boolean };

const countBy = (rows: { id: string; n: number }[]) => new Map(rows.map((r) => [r.id, r.n]));

/** memberCount, totalTaskCount, all completions and the viewer's, and `joined`, for many challenges in five grouped queries. */
export function challengeStats(db: Db, ids: string[], viewerId: string): Map<string, Stats> {
  const out = new Map<string, Stats>();
  if (ids.length === 0) return out;
  const cm = challengeMembers;
  const cc = challengeCompletions;
  const tasks = countBy(
    db
      .select({ id: challengeTasks.challengeId, n: count() })
      .from(challengeTasks)
      .where(inArray(challengeTasks.challengeId, ids))
      .groupBy(challengeTasks.challengeId)
      .all(),
  );
  const memberCounts = countBy(
    db.select({ id: cm.challengeId, n: count() }).from(cm).where(inArray(cm.challengeId, ids)).groupBy(cm.challengeId).all(),
  );
  const done = countBy(
    db.select({ id: cc.challengeId, n: count() }).from(cc).where(inArray(cc.challengeId, ids)).groupBy(cc.challengeId).all(),
  );
  const mine = countBy(
    db
      .select({ id: cc.challengeId, n: count() })
      .from(cc)
      .where(and(eq(cc.memberId, viewerId), inArray(cc.challengeId, ids)))
      .groupBy(cc.challengeId)
      .all(),
  );
  const joined = new Set(
    db
      .select({ id: cm.challengeId })
      .from(cm)
      .where(and(eq(cm.memberId, viewerId), inArray(cm.challengeId, ids)))
      .all()
      .map((r) => r.id),
  );
  for (const id of ids) {
    out.set(id, {
      memberCount: memberCounts.get(id) ?? 0,
      totalTaskCount: tasks.get(id) ?? 0,
      completions: done.get(id) ?? 0,
      myDone: mine.get(id) ?? 0,
      joined: joined.has(id),
    });
  }
  return out;
}

export type ChallengeWithAuthor = ChallengeRow & { authorName: string | null };

/** SELECT challenges with the author's name (left join: the author may be gone). */
export function selectChallenges(db: Db) {
  return db
    .select({ row: challenges, authorName: members.displayName })
    .from(challenges)
    .leftJoin(members, eq(members.id, challenges.authorMemberId));
}

export function toSummary(c: ChallengeWithAuthor, s: Stats, now: number): Static<typeof ChallengeSummary> {
  return {
    id: c.id,
    spaceId: c.spaceId,
    title: c.title,
    emoji: c.emoji,
    authorName: c.authorName,
    isWrittenByAdmin: c.isWrittenByAdmin,
    startedAt: isoRequired(c.startedAt),
    endedAt: iso(c.endedAt),
    state: stateOf(c, now),
    memberCount: s.memberCount,
    totalTaskCount: s.totalTaskCount,
    joined: s.joined,
    progress: s.joined ? percent(s.myDone, s.totalTaskCount) : 0,
    // The members' average progress: every completion belongs to a current member.
    totalProgress: percent(s.completions, s.totalTaskCount * s.memberCount),
    createdAt: isoRequired(c.createdAt),
  };
}

export function tasksOf(db: Db, challengeId: string): TaskRow[] {
  return db
    .select()
    .from(challengeTasks)
    .where(eq(challengeTasks.challengeId, challengeId))
    .orderBy(asc(challengeTasks.index), asc(challengeTasks.id))
    .all();
}

/** The challenge's tasks with one member's completions (two queries). */
export function memberTasks(db: Db, challengeId: string, memberId: string): Static<typeof ChallengeTask>[] {
  const done = new Map(
    db
      .select({ taskId: challengeCompletions.taskId, at: challengeCompletions.completedAt })
      .from(challengeCompletions)
      .where(and(eq(challengeCompletions.challengeId, challengeId), eq(challengeCompletions.memberId, memberId)))
      .all()
      .map((r) => [r.taskId, r.at]),
  );
  return tasksOf(db, challengeId).map((t) => ({
    id: t.id,
    title: t.title,
    guide: t.guide,
    type: t.type,
    index: t.index,
    startedAt: isoRequired(t.startedAt),
    deadline: iso(t.deadline),
    defaultTags: t.defaultTags,
    targetContentId: t.targetContentId,
    done: done.has(t.id),
    completedAt: iso(done.get(t.id)),
  }));
}

/** getChallenge, create, update, addChallengeTask: the detail as the caller sees it. */
export function challengeDetail(rt: Runtime, actor: Actor, db: Db, challengeId: string, now = Date.now()): Static<typeof ChallengeDetail> {
  const found = selectChallenges(db).where(eq(challenges.id, challengeId)).get();
  if (!found) throw new Error("challenge vanished inside its transaction");
  const c = { ...found.row, authorName: found.authorName };
  const stats = challengeStats(db, [c.id], actor.memberId).get(c.id) as Stats;
  const tasks = memberTasks(db, c.id, actor.memberId);
  const fileIds = db
    .select({ fileId: challengeFiles.fileId })
    .from(challengeFiles)
    .where(eq(challengeFiles.challengeId, c.id))
    .orderBy(asc(challengeFiles.position))
    .all()
    .map((r) => r.fileId);
  const ready = readyFilesByIds(db, fileIds);
  const attachments = fileIds.flatMap((id) => {
    const row = ready.get(id);
    return row ? [attachmentOf(rt, actor, row, `challenge:${c.id}`)] : [];
  });
  return {
    ...toSummary(c, stats, now),
    body: c.body,
    doneTaskCount: tasks.filter((t) => t.done).length,
    tasks,
    reminderMinutes: c.reminderMinutes,
    attachments,
  };
}

/** getChallengeMemberProgress, complete/uncomplete: one member's progress. */
export function memberProgress(db: Db, challengeId: string, member: { id: string; displayName: string }): Static<typeof MemberProgress> {
  const tasks = memberTasks(db, challengeId, member.id);
  const doneTaskCount = tasks.filter((t) => t.done).length;
  return {
    userId: member.id,
    displayName: member.displayName,
    doneTaskCount,
    totalTaskCount: tasks.length,
    progress: percent(doneTaskCount, tasks.length),
    tasks,
  };
}
