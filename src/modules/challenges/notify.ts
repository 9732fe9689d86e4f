// CHALLENGE_REMINDER: m minutes before each task's deadline, for each m of the challenge's
// reminderMinutes, to its members who have not completed the task (docs/rules/notifications.md#challenge-reminders).
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../../platform/db/types";
import { notify } from "../notifications/emit";
import type { Scope } from "../notifications/hooks";
import { cancelJobs, scheduleJob } from "../notifications/schedule";
import { consoleUrl } from "../notifications/urls";
import { challengeCompletions, challengeMembers, challenges, challengeTasks } from "./tables";

export const CHALLENGE_JOB = "CHALLENGE_REMINDER";

/** The challenge's tasks, deadlines or reminders changed: its reminder job runs again now. */
export function challengeRemindersChanged(tx: Db, scope: Scope, challengeId: string, now: number) {
  scheduleJob(tx, scope, { kind: CHALLENGE_JOB, recordId: challengeId, fireAt: now });
}

export function challengeDeleted(tx: Db, challengeId: string) {
  cancelJobs(tx, challengeId);
}

/**
 * The job: for each task whose deadline is ahead, the latest reminder moment already come (at most
 * one at once, however many passed while the server was down) reaches the members who have not
 * completed it; then it sleeps until the next moment.
 */
export function runChallengeReminders(tx: Db, scope: Scope, job: { recordId: string }, now: number): number | null {
  const challenge = tx.select().from(challenges).where(eq(challenges.id, job.recordId)).get();
  if (!challenge || challenge.reminderMinutes.length === 0) return null;
  const tasks = tx.select().from(challengeTasks).where(eq(challengeTasks.challengeId, challenge.id)).all();
  let next: number | null = null;
  const due: { task: (typeof tasks)[number]; moment: number }[] = [];
  for (const task of tasks) {
    if (task.deadline === null || task.deadline <= now) continue;
    const moments = challenge.reminderMinutes.map((m) => (task.deadline as number) - m * 60_000);
    const past = moments.filter((m) => m <= now);
    if (past.length) due.push({ task, moment: Math.max(...past) });
    for (const m of moments) if (m > now) next = next === null ? m : Math.min(next, m);
  }
  if (due.length === 0) return next;
  const joined = tx
    .select({ memberId: challengeMembers.memberId })
    .from(challengeMembers)
    .where(eq(challengeMembers.challengeId, challenge.id))
    .all();
  const done = tx
    .select({ taskId: challengeCompletions.taskId, memberId: challengeCompletions.memberId })
    .from(challengeCompletions)
    .where(
      and(
        eq(challengeCompletions.challengeId, challenge.id),
        inArray(
          challengeCompletions.taskId,
          due.map((d) => d.task.id),
        ),
      ),
    )
    .all();
  for (const { task, moment } of due) {
    const finished = new Set(done.filter((d) => d.taskId === task.id).map((d) => d.memberId));
    const minutes = Math.max(1, Math.round(((task.deadline as number) - now) / 60_000));
    notify(
      tx,
      scope,
      {
        kind: "CHALLENGE_REMINDER",
        spaceId: challenge.spaceId,
        recordType: "CHALLENGE_TASK",
        recordId: task.id,
        titleKo: `${challenge.title}: ${task.title} 마감 ${minutes}분 전`,
        titleEn: `${challenge.title}: ${task.title} is due in ${minutes} min`,
        url: consoleUrl.space(challenge.spaceId, "challenges"),
        recipients: joined.map((j) => j.memberId).filter((id) => !finished.has(id)),
        moment,
      },
      now,
    );
  }
  return next;
}
