// The durable schedule of time-driven work and the one timer that runs it
// (docs/rules/notifications.md#the-schedule).
import { and, asc, eq, lte, min, sql } from "drizzle-orm";
import { settled } from "../../platform/db/group-commit";
import { commitNow, type Db, write } from "../../platform/db/types";
import type { Runtime } from "../../platform/runtime";
import { asJob, boundRuntime, jobHandler, type Scope } from "./hooks";
import { KEEP_MS } from "./inbox";
import { onNewMail } from "./live";
import { sendDueMails } from "./mail";
import { notificationWakeups } from "./platform-tables";
import { notificationJobs, notifications } from "./tables";

/** How often the timer looks at the wake-ups in the platform file. */
const TICK_MS = 1_000;
/** Jobs run per transaction: a backlog after downtime never holds the tenant file long. */
const JOBS_PER_TX = 50;

type Scheduler = {
  timer: ReturnType<typeof setInterval> | null;
  /** The wake-up each tenant has in the platform file, as far as this process knows. */
  known: Map<string, number>;
  /** Tenants told to run at once (a commit made work due now). */
  kicked: Set<string>;
  running: Promise<void> | null;
  again: boolean;
  stopped: boolean;
};

const schedulers = new WeakMap<Runtime, Scheduler>();

function schedulerOf(rt: Runtime): Scheduler {
  let s = schedulers.get(rt);
  if (!s) {
    s = { timer: null, known: new Map(), kicked: new Set(), running: null, again: false, stopped: false };
    schedulers.set(rt, s);
  }
  return s;
}

/**
 * The tenant must be looked at no later than `at`: written to the platform file (and committed at
 * once) before the caller's tenant transaction commits, unless an earlier wake-up is already there.
 */
export function wakeBy(rt: Runtime, tenantId: string, at: number) {
  const s = schedulerOf(rt);
  const known = s.known.get(tenantId);
  if (known !== undefined && known <= at) return;
  write(rt.platform.db, (tx) =>
    tx
      .insert(notificationWakeups)
      .values({ tenantId, wakeAt: at })
      .onConflictDoUpdate({
        target: notificationWakeups.tenantId,
        set: { wakeAt: sql`min(${notificationWakeups.wakeAt}, excluded.wake_at)` },
      })
      .run(),
  );
  commitNow(rt.platform.db);
  s.known.set(tenantId, Math.min(at, known ?? at));
}

/** The tenant runs at once, after the commit of this turn: the answer of the write that kicked it never waits for the work. */
function kick(rt: Runtime, tenantId: string) {
  const s = schedulerOf(rt);
  s.kicked.add(tenantId);
  const run = () => setTimeout(() => void runDue(rt), 0).unref?.();
  void (settled() ?? Promise.resolve()).then(run, run);
}

/**
 * Schedules (or moves) the job of this kind for this record: it runs once `fireAt` has come, in
 * its own transaction, by the handler registered for the kind. Inside the caller's transaction.
 */
export function scheduleJob(tx: Db, scope: Scope, job: { kind: string; recordId: string; param?: string | null; fireAt: number }) {
  const row = { kind: job.kind, recordId: job.recordId, param: job.param ?? null, fireAt: job.fireAt };
  tx.insert(notificationJobs)
    .values(row)
    .onConflictDoUpdate({ target: [notificationJobs.recordId, notificationJobs.kind], set: { param: row.param, fireAt: row.fireAt } })
    .run();
  const rt = boundRuntime();
  if (!rt) return;
  wakeBy(rt, scope.tenantId, job.fireAt);
  if (job.fireAt <= rt.now()) kick(rt, scope.tenantId);
}

/** A record is gone: its pending jobs go with it (docs/rules/notifications.md#deleted-records). */
export function cancelJobs(tx: Db, recordId: string, kind?: string) {
  tx.delete(notificationJobs)
    .where(and(eq(notificationJobs.recordId, recordId), kind ? eq(notificationJobs.kind, kind) : undefined))
    .run();
}

/** Runs the due jobs of one tenant, each batch in one transaction; returns how many ran. */
export function runDueJobs(rt: Runtime, db: Db, tenantId: string, now: number): number {
  let ran = 0;
  for (;;) {
    const n = write(db, (tx) => {
      const due = tx
        .select()
        .from(notificationJobs)
        .where(lte(notificationJobs.fireAt, now))
        .orderBy(asc(notificationJobs.fireAt))
        .limit(JOBS_PER_TX)
        .all();
      for (const job of due) {
        const handler = jobHandler(job.kind);
        const next = handler ? asJob(() => handler(tx, { tenantId }, { recordId: job.recordId, param: job.param }, now)) : null;
        const key = and(eq(notificationJobs.recordId, job.recordId), eq(notificationJobs.kind, job.kind));
        if (next === null || next <= now) tx.delete(notificationJobs).where(key).run();
        else tx.update(notificationJobs).set({ fireAt: next }).where(key).run();
      }
      return due.length;
    });
    commitNow(db);
    ran += n;
    if (n < JOBS_PER_TX) return ran;
    if (rt.config.quiet === false) rt.log({ event: "notifications.backlog", tenantId, ran });
  }
}

/** The tenant's next moment with work: its earliest job or pending mail. */
function nextWork(db: Db): number | null {
  const job =
    db
      .select({ at: min(notificationJobs.fireAt) })
      .from(notificationJobs)
      .get()?.at ?? null;
  const mail =
    db
      .select({ at: min(notifications.mailAt) })
      .from(notifications)
      .get()?.at ?? null;
  if (job === null) return mail;
  return mail === null ? job : Math.min(job, mail);
}

/** One tenant's turn: due jobs, due mails, old items purged, then its next wake-up recorded. */
async function runTenant(rt: Runtime, tenantId: string, now: number) {
  const s = schedulerOf(rt);
  let next: number | null = null;
  try {
    const handle = rt.tenants.acquire(tenantId);
    try {
      runDueJobs(rt, handle.db, tenantId, now);
      await sendDueMails(rt, handle.db, tenantId, now);
      write(handle.db, (tx) =>
        tx
          .delete(notifications)
          .where(lte(notifications.createdAt, now - KEEP_MS))
          .run(),
      );
      next = nextWork(handle.db);
    } finally {
      rt.tenants.release(handle);
    }
  } catch (e) {
    rt.log({ level: "error", event: "notifications.run-failed", tenantId, error: e instanceof Error ? e.message : String(e) });
    next = now + 60_000;
  }
  // A wake-up written meanwhile (a request scheduled earlier work) stays: only ours is replaced.
  write(rt.platform.db, (tx) => {
    const row = tx.select().from(notificationWakeups).where(eq(notificationWakeups.tenantId, tenantId)).get();
    if (row && row.wakeAt > now) return;
    if (next === null) tx.delete(notificationWakeups).where(eq(notificationWakeups.tenantId, tenantId)).run();
    else
      tx.insert(notificationWakeups)
        .values({ tenantId, wakeAt: next })
        .onConflictDoUpdate({ target: notificationWakeups.tenantId, set: { wakeAt: next } })
        .run();
  });
  commitNow(rt.platform.db);
  const row = rt.platform.db.select().from(notificationWakeups).where(eq(notificationWakeups.tenantId, tenantId)).get();
  if (row) s.known.set(tenantId, row.wakeAt);
  else s.known.delete(tenantId);
}

/**
 * Runs every tenant whose wake-up has come (read by the index on wake_at) or that was kicked; one
 * run at a time per server. Tests call it after moving `rt.now`.
 */
export async function runDue(rt: Runtime): Promise<void> {
  const s = schedulerOf(rt);
  if (s.stopped) return;
  if (s.running) {
    s.again = true;
    return s.running;
  }
  s.running = (async () => {
    do {
      s.again = false;
      const now = rt.now();
      const due = rt.platform.db
        .select({ tenantId: notificationWakeups.tenantId })
        .from(notificationWakeups)
        .where(lte(notificationWakeups.wakeAt, now))
        .all()
        .map((r) => r.tenantId);
      const tenants = new Set([...due, ...s.kicked]);
      s.kicked.clear();
      for (const tenantId of tenants) {
        if (s.stopped) return;
        await runTenant(rt, tenantId, now);
      }
    } while (s.again && !s.stopped);
  })().finally(() => {
    s.running = null;
  });
  return s.running;
}

/**
 * Starts the one timer (no timer per item); missed work of a server that was down runs `firstRunAfterMs`
 * after the start (the server: after its first `/readyz`, docs/rules/performance.md#start).
 */
export function startNotificationScheduler(rt: Runtime, firstRunAfterMs = 0) {
  const s = schedulerOf(rt);
  onNewMail((tenantId, due, firstFuture) => {
    const r = boundRuntime();
    if (!r) return;
    if (firstFuture !== null) wakeBy(r, tenantId, firstFuture);
    if (due) kick(r, tenantId);
  });
  s.timer = setInterval(() => void runDue(rt), TICK_MS);
  s.timer.unref?.();
  setTimeout(() => void runDue(rt), firstRunAfterMs).unref?.();
}

export async function stopNotificationScheduler(rt: Runtime) {
  const s = schedulerOf(rt);
  s.stopped = true;
  if (s.timer) clearInterval(s.timer);
  await s.running;
}
