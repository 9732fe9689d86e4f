// What features register with the notifications base at start-up (wired in src/app.ts), so this
// module never imports them (docs/rules/notifications.md#hooks).
import type { Db } from "../../platform/db/types";
import type { Runtime } from "../../platform/runtime";

/** The guardians of each student, by member id (docs/rules/notifications.md#guardian-copies). */
export type GuardianLookup = (db: Db, studentMemberIds: string[]) => Map<string, string[]>;

/** The tenant a job runs for. */
export type Scope = { tenantId: string };

/**
 * A time-driven job (docs/rules/notifications.md#the-schedule): runs inside one transaction once its
 * moment has come, notifies (notify() with a `moment`), and returns when it must run next, or null
 * when it is done (its row goes).
 */
export type JobHandler = (tx: Db, scope: Scope, job: { recordId: string; param: string | null }, now: number) => number | null;

const state: { rt: Runtime | null; guardians: GuardianLookup | null; jobs: Map<string, JobHandler> } = {
  rt: null,
  guardians: null,
  jobs: new Map(),
};

/** The server's runtime, bound once by notificationsModule(rt): notify() reaches the live stream and the mailer through it. */
export function bindRuntime(rt: Runtime) {
  state.rt = rt;
}

export const boundRuntime = (): Runtime | null => state.rt;

/** Registers the members feature's guardian links; copies are made only while one is registered. */
export function registerGuardianLookup(fn: GuardianLookup) {
  state.guardians = fn;
}

export const guardianLookup = (): GuardianLookup | null => state.guardians;

/** Registers the handler of a job kind ("POST", "DUE_SOON", "CHALLENGE_REMINDER", …). */
export function registerJob(kind: string, handler: JobHandler) {
  state.jobs.set(kind, handler);
}

/** The handler of a job kind; a kind `NAME:<id>` (one row per call, several per record) runs NAME's. */
export const jobHandler = (kind: string): JobHandler | undefined => state.jobs.get(kind) ?? state.jobs.get(kind.split(":")[0] as string);

let jobDepth = 0;

/** Runs `fn` as a job handler's turn: notify() inside it fans out inline (nobody waits for an answer). */
export function asJob<T>(fn: () => T): T {
  jobDepth++;
  try {
    return fn();
  } finally {
    jobDepth--;
  }
}

export const inJobRun = () => jobDepth > 0;
