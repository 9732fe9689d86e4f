// Who may read and manage a challenge (docs/rules/errors.md#check-order, docs/rules/access.md#auth-values).
import { and, eq } from "drizzle-orm";
import type { Actor } from "../../platform/auth/actor";
import type { Db } from "../../platform/db/types";
import { forbidden, notFound } from "../../platform/http/errors";
import { type VisibleSpace, visibleSpace } from "../spaces/access";
import { type ChallengeState, challenges, challengeTasks } from "./tables";

export type ChallengeRow = typeof challenges.$inferSelect;
export type TaskRow = typeof challengeTasks.$inferSelect;
export type ChallengeAccess = { space: VisibleSpace; challenge: ChallengeRow };

/** The space (404 unless visible), then the challenge in that space (404 when unknown or elsewhere). */
function lookUp(actor: Actor, spaceId: string, challengeId: string, db: Db): ChallengeAccess {
  const space = visibleSpace(actor, spaceId, db);
  const challenge = db
    .select()
    .from(challenges)
    .where(and(eq(challenges.id, challengeId), eq(challenges.spaceId, spaceId)))
    .get();
  if (!challenge) throw notFound();
  return { space, challenge };
}

/** `spaceAdmin` for challenge operations: an ADMIN of the space, or the challenge's author while enrolled. */
export const managesChallenge = (actor: Actor, { space, challenge }: ChallengeAccess) =>
  space.callerRole === "ADMIN" || (space.callerRole !== null && challenge.authorMemberId === actor.memberId);

/** `spaceMember`: 404 for an invisible space or unknown challenge, then 403 when not enrolled. */
export function challengeForMember(actor: Actor, spaceId: string, challengeId: string, db: Db = actor.db): ChallengeAccess {
  const found = lookUp(actor, spaceId, challengeId, db);
  if (found.space.callerRole === null) throw forbidden();
  return found;
}

/** `spaceAdmin`: 404 as above, then 403 unless the caller manages the challenge. */
export function challengeForManager(actor: Actor, spaceId: string, challengeId: string, db: Db = actor.db): ChallengeAccess {
  const found = lookUp(actor, spaceId, challengeId, db);
  if (!managesChallenge(actor, found)) throw forbidden();
  return found;
}

/** A task of the challenge, else 404. */
export function taskOf(db: Db, challengeId: string, taskId: string): TaskRow {
  const task = db
    .select()
    .from(challengeTasks)
    .where(and(eq(challengeTasks.id, taskId), eq(challengeTasks.challengeId, challengeId)))
    .get();
  if (!task) throw notFound();
  return task;
}

/** docs/rules/challenges.md#dates: BEFORE_START before startedAt, FINISHED after a non-null endedAt, else ONGOING. */
export function stateOf(c: { startedAt: number; endedAt: number | null }, now: number): ChallengeState {
  if (now < c.startedAt) return "BEFORE_START";
  if (c.endedAt !== null && now > c.endedAt) return "FINISHED";
  return "ONGOING";
}

/** startedAt = the earliest task start; endedAt = the latest deadline, null when any task has none. */
export function datesOf(tasks: { startedAt: number; deadline: number | null }[]) {
  const startedAt = Math.min(...tasks.map((t) => t.startedAt));
  const endedAt = tasks.some((t) => t.deadline === null) ? null : Math.max(...tasks.map((t) => t.deadline as number));
  return { startedAt, endedAt };
}

export const percent = (part: number, whole: number) => (whole === 0 ? 0 : (part / whole) * 100);
