// DUE_SOON: 24 h before each participant's own due moment, derived when the job runs
// (docs/rules/notifications.md#due-soon).
import type { Db } from "../../platform/db/types";
import { notify } from "./emit";
import { boundRuntime, type Scope } from "./hooks";
import { scheduleJob } from "./schedule";
import { consoleUrl } from "./urls";

export const DUE_SOON_JOB = "DUE_SOON";
export const DUE_SOON_BEFORE_MS = 24 * 3_600_000;

/**
 * What a content type says about its due moments now: null when the content is gone or not visible
 * to its participants; else each active participant who has not submitted, with their own due
 * moment (extension or override included; none: left out).
 */
export type DueSource = (
  db: Db,
  contentId: string,
) => { spaceId: string; title: string; pending: { memberId: string; dueAt: number }[] } | null;

const sources = new Map<string, DueSource>();

/** Registers the due moments of a content type ("ASSIGNMENT", "GROUP_ASSIGNMENT", "QUIZ", "SURVEY"); wired in app.ts. */
export function registerDueSource(type: string, source: DueSource) {
  sources.set(type, source);
}

/**
 * A content's due moments changed (created or made visible, dueAt/closesAt set, an extension or
 * override set or removed): its DUE_SOON job runs again now and sleeps until the next 24-h mark.
 * Inside the caller's transaction.
 */
export function dueMomentsChanged(tx: Db, scope: Scope, contentId: string, type: string) {
  const now = boundRuntime()?.now() ?? Date.now();
  scheduleJob(tx, scope, { kind: DUE_SOON_JOB, recordId: contentId, param: type, fireAt: now });
}

const hours = (ms: number) => Math.max(1, Math.round(ms / 3_600_000));

/** The DUE_SOON job (registered by notificationsModule). */
export function runDueSoon(tx: Db, scope: Scope, job: { recordId: string; param: string | null }, now: number): number | null {
  const source = job.param ? sources.get(job.param) : undefined;
  const state = source?.(tx, job.recordId);
  if (!state) return null;
  const byMoment = new Map<number, string[]>();
  let next: number | null = null;
  for (const p of state.pending) {
    if (p.dueAt <= now) continue;
    const mark = p.dueAt - DUE_SOON_BEFORE_MS;
    if (mark <= now) byMoment.set(p.dueAt, [...(byMoment.get(p.dueAt) ?? []), p.memberId]);
    else next = next === null ? mark : Math.min(next, mark);
  }
  for (const [dueAt, recipients] of byMoment) {
    const left = hours(dueAt - now);
    notify(
      tx,
      scope,
      {
        kind: "DUE_SOON",
        spaceId: state.spaceId,
        recordType: "CONTENT",
        recordId: job.recordId,
        titleKo: `마감 ${left}시간 전: ${state.title}`,
        titleEn: `Due in ${left} h: ${state.title}`,
        bodyPreview: new Date(dueAt).toISOString(),
        url: consoleUrl.content(state.spaceId, job.recordId),
        recipients,
        moment: dueAt,
      },
      now,
    );
  }
  return next;
}
