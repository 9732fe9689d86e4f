// Challenge members: lists, adds, candidates, progress, task status, and the participant's own
// completions and leave (docs/rules/challenges.md#members, docs/rules/challenges.md#completing-tasks, docs/rules/challenges.md#leaving).
import { and, asc, count, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Static } from "elysia";
import type { Actor } from "../../platform/auth/actor";
import { type Db, inJsonList, write } from "../../platform/db/types";
import { type Cursors, decodeKeyset, type Keyset } from "../../platform/http/cursor";
import { conflict, forbidden, invalid, notFound } from "../../platform/http/errors";
import { iso, isoRequired } from "../../platform/http/schemas";
import type { Runtime } from "../../platform/runtime";
import { members } from "../../schema/members";
import { spaceMembers } from "../../schema/spaces";
import { contains } from "../groups/lookup";
import { requireActiveSpace } from "../spaces/archived";
import { challengeForManager, challengeForMember, managesChallenge, percent, stateOf, type TaskRow, taskOf } from "./access";
import type { CandidatesQuery, ChallengeMemberPage, TaskStatusQuery } from "./model";
import { memberProgress } from "./records";
import { challengeCompletions, challengeMembers, challengeTasks } from "./tables";

const MEMBERS_OP = "listChallengeMembers";
const CANDIDATES_OP = "listChallengeCandidates";
const STATUS_OP = "getChallengeTaskStatus";
const FIRST_PAGE = 30;

const cm = challengeMembers;
const cc = challengeCompletions;

/** One page of a challenge's members in join order (challenge_id, joined_at, member_id), with their progress. */
function membersPage(db: Db, cursors: Cursors, spaceId: string, challengeId: string, after: Keyset | null, limit: number) {
  const rows = db
    .select({ id: cm.memberId, displayName: members.displayName, joinedAt: cm.joinedAt })
    .from(cm)
    .innerJoin(members, eq(members.id, cm.memberId))
    .where(and(eq(cm.challengeId, challengeId), after ? sql`(${cm.joinedAt}, ${cm.memberId}) > (${after[0]}, ${after[1]})` : undefined))
    .orderBy(asc(cm.joinedAt), asc(cm.memberId))
    .limit(limit + 1)
    .all();
  const page = rows.slice(0, limit);
  const total = db.select({ n: count() }).from(challengeTasks).where(eq(challengeTasks.challengeId, challengeId)).get()?.n ?? 0;
  const done = new Map(
    page.length
      ? db
          .select({ id: cc.memberId, n: count() })
          .from(cc)
          .where(
            and(
              eq(cc.challengeId, challengeId),
              inArray(
                cc.memberId,
                page.map((r) => r.id),
              ),
            ),
          )
          .groupBy(cc.memberId)
          .all()
          .map((r) => [r.id, r.n])
      : [],
  );
  const last = page.at(-1);
  return {
    members: page.map((r) => ({
      userId: r.id,
      displayName: r.displayName,
      progress: percent(done.get(r.id) ?? 0, total),
      joinedAt: isoRequired(r.joinedAt),
    })),
    nextCursor: rows.length > limit && last ? cursors.encode(MEMBERS_OP, { spaceId, challengeId }, [last.joinedAt, last.id]) : null,
  } satisfies Static<typeof ChallengeMemberPage>;
}

export function listChallengeMembers(
  rt: Runtime,
  actor: Actor,
  spaceId: string,
  challengeId: string,
  q: { cursor?: string; limit?: number },
) {
  const after = decodeKeyset(rt.cursors, MEMBERS_OP, { spaceId, challengeId }, q.cursor);
  challengeForMember(actor, spaceId, challengeId);
  return membersPage(actor.db, rt.cursors, spaceId, challengeId, after, q.limit ?? FIRST_PAGE);
}

/** The enrolled members among `ids`; the first id not enrolled in the space gets 400 naming `userIds[i]`. */
function requireEnrolled(tx: Db, spaceId: string, ids: string[]) {
  const unique = [...new Set(ids)];
  const enrolled = new Set(
    tx
      .select({ id: spaceMembers.memberId })
      .from(spaceMembers)
      .where(and(eq(spaceMembers.spaceId, spaceId), inJsonList(spaceMembers.memberId, unique)))
      .all()
      .map((r) => r.id),
  );
  const i = ids.findIndex((id) => !enrolled.has(id));
  if (i >= 0) throw invalid(`userIds[${i}]`, "is not a member of this space");
  return unique;
}

/** Adds the ids (any number: one JSON parameter, not one per row); members already in stay unchanged. */
function insertMembers(tx: Db, challengeId: string, ids: string[], now: number) {
  if (ids.length === 0) return;
  tx.run(
    sql`INSERT INTO ${cm} (challenge_id, member_id, joined_at) SELECT ${challengeId}, value, ${now} FROM json_each(${JSON.stringify(ids)}) WHERE true ON CONFLICT DO NOTHING`,
  );
}

/**
 * addChallengeMembers (docs/rules/challenges.md#members): any space member may add themself (join); the
 * author or an ADMIN may add any space member. Members already in stay unchanged.
 */
export function addChallengeMembers(rt: Runtime, actor: Actor, spaceId: string, challengeId: string, userIds: string[], now = Date.now()) {
  return write(actor.db, (tx) => {
    const found = challengeForMember(actor, spaceId, challengeId, tx);
    if (!managesChallenge(actor, found) && userIds.some((id) => id !== actor.memberId)) throw forbidden();
    insertMembers(tx, challengeId, requireEnrolled(tx, spaceId, userIds), now);
    return membersPage(tx, rt.cursors, spaceId, challengeId, null, FIRST_PAGE);
  });
}

/** addChallengeMembersFromCandidates: every id must be a current candidate (enrolled, not yet a member), else 400. */
export function addChallengeMembersFromCandidates(
  rt: Runtime,
  actor: Actor,
  spaceId: string,
  challengeId: string,
  userIds: string[],
  now = Date.now(),
) {
  return write(actor.db, (tx) => {
    challengeForManager(actor, spaceId, challengeId, tx);
    const unique = [...new Set(userIds)];
    const candidates = new Set(
      tx
        .select({ id: spaceMembers.memberId })
        .from(spaceMembers)
        .where(and(eq(spaceMembers.spaceId, spaceId), inArray(spaceMembers.memberId, unique), notInChallenge(challengeId)))
        .all()
        .map((r) => r.id),
    );
    const i = userIds.findIndex((id) => !candidates.has(id));
    if (i >= 0) throw invalid(`userIds[${i}]`, "is not a candidate of this challenge");
    insertMembers(tx, challengeId, unique, now);
    return membersPage(tx, rt.cursors, spaceId, challengeId, null, FIRST_PAGE);
  });
}

const notInChallenge = (challengeId: string): SQL =>
  sql`NOT EXISTS (SELECT 1 FROM ${cm} WHERE ${cm.challengeId} = ${challengeId} AND ${cm.memberId} = ${spaceMembers.memberId})`;

/**
 * listChallengeCandidates: space members not yet in the challenge, in enrolment order (keyset on
 * the space's (space_id, created_at, member_id) index); `keyword` is a displayName substring.
 */
export function listChallengeCandidates(
  rt: Runtime,
  actor: Actor,
  spaceId: string,
  challengeId: string,
  q: Static<typeof CandidatesQuery>,
) {
  const keyword = q.keyword ? q.keyword : null;
  const filters = { spaceId, challengeId, keyword };
  const after = decodeKeyset(rt.cursors, CANDIDATES_OP, filters, q.cursor);
  challengeForManager(actor, spaceId, challengeId);
  const sm = spaceMembers;
  const limit = q.limit ?? 30;
  const rows = actor.db
    .select({ id: sm.memberId, createdAt: sm.createdAt, displayName: members.displayName })
    .from(sm)
    .innerJoin(members, eq(members.id, sm.memberId))
    .where(
      and(
        eq(sm.spaceId, spaceId),
        eq(members.isActive, true),
        notInChallenge(challengeId),
        keyword !== null ? contains(members.displayName, keyword) : undefined,
        after ? sql`(${sm.createdAt}, ${sm.memberId}) > (${after[0]}, ${after[1]})` : undefined,
      ),
    )
    .orderBy(asc(sm.createdAt), asc(sm.memberId))
    .limit(limit + 1)
    .all();
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    candidates: page.map((r) => ({ userId: r.id, displayName: r.displayName })),
    nextCursor: rows.length > limit && last ? rt.cursors.encode(CANDIDATES_OP, filters, [last.createdAt, last.id]) : null,
  };
}

/** A challenge member with their display name, or null. */
function challengeMember(db: Db, challengeId: string, memberId: string) {
  return (
    db
      .select({ id: cm.memberId, displayName: members.displayName })
      .from(cm)
      .innerJoin(members, eq(members.id, cm.memberId))
      .where(and(eq(cm.challengeId, challengeId), eq(cm.memberId, memberId)))
      .get() ?? null
  );
}

/** getChallengeMemberProgress: any space member may look; a member not in the challenge is 404. */
export function getChallengeMemberProgress(actor: Actor, spaceId: string, challengeId: string, memberId: string) {
  challengeForMember(actor, spaceId, challengeId);
  const member = challengeMember(actor.db, challengeId, memberId);
  if (!member) throw notFound();
  return memberProgress(actor.db, challengeId, member);
}

/**
 * getChallengeTaskStatus: the challenge's members in join order with their completion of the task;
 * `status` COMPLETED / INCOMPLETE filters the page, the counts are always over all members.
 */
export function getChallengeTaskStatus(
  rt: Runtime,
  actor: Actor,
  spaceId: string,
  challengeId: string,
  taskId: string,
  q: Static<typeof TaskStatusQuery>,
) {
  const status = q.status ?? "ALL";
  const filters = { spaceId, challengeId, taskId, status };
  const after = decodeKeyset(rt.cursors, STATUS_OP, filters, q.cursor);
  challengeForManager(actor, spaceId, challengeId);
  taskOf(actor.db, challengeId, taskId);
  const db = actor.db;
  const allMemberCount = db.select({ n: count() }).from(cm).where(eq(cm.challengeId, challengeId)).get()?.n ?? 0;
  // Completions exist only for current members (leaving removes them).
  const completedMemberCount = db.select({ n: count() }).from(cc).where(eq(cc.taskId, taskId)).get()?.n ?? 0;
  const limit = q.limit ?? 30;
  const rows = db
    .select({ id: cm.memberId, joinedAt: cm.joinedAt, displayName: members.displayName, completedAt: cc.completedAt })
    .from(cm)
    .innerJoin(members, eq(members.id, cm.memberId))
    .leftJoin(cc, and(eq(cc.taskId, taskId), eq(cc.memberId, cm.memberId), eq(cc.challengeId, cm.challengeId)))
    .where(
      and(
        eq(cm.challengeId, challengeId),
        status === "COMPLETED" ? sql`${cc.completedAt} IS NOT NULL` : undefined,
        status === "INCOMPLETE" ? sql`${cc.completedAt} IS NULL` : undefined,
        after ? sql`(${cm.joinedAt}, ${cm.memberId}) > (${after[0]}, ${after[1]})` : undefined,
      ),
    )
    .orderBy(asc(cm.joinedAt), asc(cm.memberId))
    .limit(limit + 1)
    .all();
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    allMemberCount,
    completedMemberCount,
    incompleteMemberCount: allMemberCount - completedMemberCount,
    members: page.map((r) => ({
      userId: r.id,
      displayName: r.displayName,
      done: r.completedAt !== null,
      completedAt: iso(r.completedAt),
    })),
    nextCursor: rows.length > limit && last ? rt.cursors.encode(STATUS_OP, filters, [last.joinedAt, last.id]) : null,
  };
}

/**
 * The caller's own completion of a task: 404 for an unknown task, 403 for a non-member, 409
 * INVALID_STATE unless the task is open (startedAt ≤ now ≤ deadline) and the challenge ONGOING.
 */
function ownTask(actor: Actor, tx: Db, spaceId: string, challengeId: string, taskId: string, now: number) {
  const { challenge } = challengeForMember(actor, spaceId, challengeId, tx);
  requireActiveSpace(tx, spaceId);
  const task: TaskRow = taskOf(tx, challengeId, taskId);
  const member = challengeMember(tx, challengeId, actor.memberId);
  if (!member) throw forbidden("FORBIDDEN", "Only members of the challenge may complete its tasks.");
  const open = task.startedAt <= now && (task.deadline === null || now <= task.deadline);
  if (!open || stateOf(challenge, now) !== "ONGOING") throw conflict("INVALID_STATE", "This task is not open.");
  return member;
}

/** completeChallengeTask: idempotent; the first completion's time is kept. */
export function completeChallengeTask(actor: Actor, spaceId: string, challengeId: string, taskId: string, now = Date.now()) {
  return write(actor.db, (tx) => {
    const member = ownTask(actor, tx, spaceId, challengeId, taskId, now);
    tx.insert(cc).values({ challengeId, memberId: actor.memberId, taskId, completedAt: now }).onConflictDoNothing().run();
    return memberProgress(tx, challengeId, member);
  });
}

/** uncompleteChallengeTask: idempotent. */
export function uncompleteChallengeTask(actor: Actor, spaceId: string, challengeId: string, taskId: string, now = Date.now()) {
  return write(actor.db, (tx) => {
    const member = ownTask(actor, tx, spaceId, challengeId, taskId, now);
    tx.delete(cc)
      .where(and(eq(cc.challengeId, challengeId), eq(cc.memberId, actor.memberId), eq(cc.taskId, taskId)))
      .run();
    return memberProgress(tx, challengeId, member);
  });
}

/** leaveChallenge: removes the caller's membership and completions; not a member: 404. */
export function leaveChallenge(actor: Actor, spaceId: string, challengeId: string) {
  write(actor.db, (tx) => {
    challengeForMember(actor, spaceId, challengeId, tx);
    if (!challengeMember(tx, challengeId, actor.memberId)) throw notFound("You are not a member of this challenge.");
    tx.delete(cc)
      .where(and(eq(cc.challengeId, challengeId), eq(cc.memberId, actor.memberId)))
      .run();
    tx.delete(cm)
      .where(and(eq(cm.challengeId, challengeId), eq(cm.memberId, actor.memberId)))
      .run();
  });
}
