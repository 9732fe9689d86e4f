// Submissions made before the check existed have no similarity_checks row: at start, in the
// background, each tenant's revisions are walked once in submit order and the missing checks queued.
import { inArray, isNotNull } from "drizzle-orm";
import { listTenantRows } from "../../platform/db/registry";
import { write } from "../../platform/db/types";
import type { Runtime } from "../../platform/runtime";
import { similarityTenants } from "./platform-tables";
import { type RevisionSource, revisionSources } from "./revision";
import { similarityChecks } from "./tables";

/** Revisions read per step, and the pause between steps: a tenant file is held a few ms at a time. */
const CHUNK = 100;
const PAUSE_MS = 20;
/** Queued checks above which the walk waits: the copied bodies it adds stay bounded. */
const MAX_BACKLOG = 200;

/** What the back-fill needs of the job queue (jobs.ts). */
export type BackfillQueue = {
  /** Sets the tenant's `pending` mark durably (before its PENDING rows commit). */
  mark(tenantId: string): void;
  schedule(tenantId: string, submissionIds: string[]): void;
  backlog(): number;
  stopped(): boolean;
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Queues the missing checks of one step; null when the source has no revision after `afterId`. */
function step(rt: Runtime, queue: BackfillQueue, tenantId: string, source: RevisionSource, afterId: string | null) {
  return rt.tenants.use(tenantId, (h) => {
    const revisions = source(h.db, afterId, CHUNK);
    if (revisions.length === 0) return null;
    const checked = new Set(
      h.db
        .select({ id: similarityChecks.submissionId })
        .from(similarityChecks)
        .where(
          inArray(
            similarityChecks.submissionId,
            revisions.map((r) => r.submissionId),
          ),
        )
        .all()
        .map((r) => r.id),
    );
    const missing = revisions.filter((r) => !checked.has(r.submissionId));
    if (missing.length > 0) {
      queue.mark(tenantId);
      // created_at = the submit time: revision order among an owner's checks (compare.ts beginCheck)
      write(h.db, (tx) =>
        tx
          .insert(similarityChecks)
          .values(
            missing.map((r) => ({
              submissionId: r.submissionId,
              kind: r.kind,
              contentId: r.contentId,
              ownerId: r.ownerId,
              displayName: r.displayName,
              status: "PENDING" as const,
              body: r.body,
              fileIds: [...r.fileIds],
              createdAt: r.submittedAt,
            })),
          )
          .onConflictDoNothing()
          .run(),
      );
    }
    return {
      last: revisions[revisions.length - 1]?.submissionId as string,
      queued: missing.map((r) => r.submissionId),
    };
  });
}

/** Walks one tenant's revisions; true when it got to the end. */
async function backfillTenant(rt: Runtime, queue: BackfillQueue, tenantId: string): Promise<boolean> {
  for (const source of revisionSources()) {
    let afterId: string | null = null;
    for (;;) {
      await sleep(PAUSE_MS);
      while (queue.backlog() > MAX_BACKLOG && !queue.stopped()) await sleep(200);
      if (queue.stopped()) return false;
      const done = step(rt, queue, tenantId, source, afterId);
      if (!done) break;
      queue.schedule(tenantId, done.queued);
      afterId = done.last;
    }
  }
  return true;
}

/** Every tenant not yet back-filled, one at a time; each is recorded as done in the platform file. */
export async function backfillSimilarity(rt: Runtime, queue: BackfillQueue) {
  // after the server is ready, not before (docs/rules/performance.md#start)
  await sleep(PAUSE_MS);
  if (queue.stopped()) return;
  const done = new Set(
    rt.platform.db
      .select({ id: similarityTenants.tenantId })
      .from(similarityTenants)
      .where(isNotNull(similarityTenants.backfilledAt))
      .all()
      .map((r) => r.id),
  );
  for (const t of listTenantRows(rt.platform.db)) {
    if (done.has(t.id)) continue;
    try {
      if (!(await backfillTenant(rt, queue, t.id))) return;
    } catch (e) {
      // a tenant deleted meanwhile, a busy file: tried again at the next start
      rt.log({ level: "warn", event: "similarity.backfill-failed", tenantId: t.id, error: String(e) });
      continue;
    }
    write(rt.platform.db, (tx) =>
      tx
        .insert(similarityTenants)
        .values({ tenantId: t.id, pending: false, backfilledAt: Date.now() })
        .onConflictDoUpdate({ target: similarityTenants.tenantId, set: { backfilledAt: Date.now() } })
        .run(),
    );
  }
}
