// The background check (docs/rules/submissions.md#similarity): queued in the submit transaction, run after the response by
// a small in-process queue per server, and picked up again at start when the process died first
// (the tenants to look in are marked in the platform file, so a start does not open every tenant).
import { open } from "node:fs/promises";
import { eq } from "drizzle-orm";
import { settled } from "../../platform/db/group-commit";
import { tenantById } from "../../platform/db/registry";
import { commitNow, type Db, write } from "../../platform/db/types";
import type { Runtime } from "../../platform/runtime";
import { workerModule } from "../../platform/threads";
import { readyFilesByIds } from "../files/attachments";
import { backfillSimilarity } from "./backfill";
import { recordFailure } from "./compare";
import { normaliseText } from "./normalise";
import { similarityTenants } from "./platform-tables";
import type { SimilarityRevision } from "./revision";
import { similarityChecks } from "./tables";
import { fingerprints } from "./winnow";
import type { WorkerReply, WorkerRequest } from "./worker";

/** Checks at once per server: each is mostly synchronous CPU and one write, so more would only queue behind the lock. */
const CONCURRENCY = 1;
/** Tries at recording a check before it is FAILED, the waits between them growing from RETRY_BASE_MS (×4). */
const RECORD_ATTEMPTS = 4;
const RETRY_BASE_MS = 250;
/** The similarity thread's pools in memory may take 1/16 of the memory budget (8 MiB of the default 128: ~2,000 essays). */
const POOL_SHARE_OF_MEMORY = 16;
/** How long a tenant's queue stays empty before its `pending` mark is cleared: a busy spell writes the mark once. */
const IDLE_BEFORE_UNMARK_MS = 10_000;

type Job = { tenantId: string; submissionId: string };
type Queue = {
  waiting: Job[];
  running: Set<Promise<void>>;
  stopped: boolean;
  /** `tenantId/submissionId` of every job waiting or running: a check is queued once. */
  queued: Set<string>;
  /** Jobs waiting or running per tenant. */
  perTenant: Map<string, number>;
  /** Tenants whose `pending` mark is set in the platform file (as far as this process knows). */
  marked: Set<string>;
  idleTimers: Map<string, ReturnType<typeof setTimeout>>;
};

const queues = new WeakMap<Runtime, Queue>();

function queueOf(rt: Runtime): Queue {
  let q = queues.get(rt);
  if (!q) {
    q = {
      waiting: [],
      running: new Set(),
      stopped: false,
      queued: new Set(),
      perTenant: new Map(),
      marked: new Set(),
      idleTimers: new Map(),
    };
    queues.set(rt, q);
  }
  return q;
}

/**
 * Sets the tenant's `pending` mark and commits the platform file at once, before the caller's
 * tenant transaction commits: a PENDING row on disk always has its mark on disk, so the start
 * (resumeSimilarityChecks) finds it without opening every tenant file. Once per busy spell.
 */
function markPending(rt: Runtime, q: Queue, tenantId: string) {
  const timer = q.idleTimers.get(tenantId);
  if (timer) clearTimeout(timer);
  q.idleTimers.delete(tenantId);
  if (q.marked.has(tenantId)) return;
  write(rt.platform.db, (tx) =>
    tx
      .insert(similarityTenants)
      .values({ tenantId, pending: true })
      .onConflictDoUpdate({ target: similarityTenants.tenantId, set: { pending: true } })
      .run(),
  );
  commitNow(rt.platform.db);
  q.marked.add(tenantId);
}

/** The tenant file and its WAL onto the disk: the similarity thread commits without waiting for it. */
async function fsyncTenantFile(path: string) {
  for (const file of [`${path}-wal`, path]) {
    const handle = await open(file, "r").catch(() => null);
    if (!handle) continue;
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  }
}

/**
 * A tenant's queue has been empty for a while: its checks are made durable, then its mark cleared
 * (unless a new check came meanwhile, which set it again).
 */
async function unmark(rt: Runtime, q: Queue, tenantId: string) {
  q.idleTimers.delete(tenantId);
  if (q.stopped || (q.perTenant.get(tenantId) ?? 0) > 0 || !q.marked.delete(tenantId)) return;
  try {
    await fsyncTenantFile(rt.tenants.fileOf(tenantId));
  } catch (e) {
    q.marked.add(tenantId);
    rt.log({ level: "warn", event: "similarity.sync-failed", tenantId, error: String(e) });
    return;
  }
  if (q.stopped || q.marked.has(tenantId)) return;
  write(rt.platform.db, (tx) => tx.update(similarityTenants).set({ pending: false }).where(eq(similarityTenants.tenantId, tenantId)).run());
}

function armUnmark(rt: Runtime, q: Queue, tenantId: string) {
  if (q.stopped || q.idleTimers.has(tenantId)) return;
  const timer = setTimeout(() => void unmark(rt, q, tenantId), IDLE_BEFORE_UNMARK_MS);
  timer.unref?.();
  q.idleTimers.set(tenantId, timer);
}

/** Starts waiting jobs up to CONCURRENCY; each on a fresh macrotask, so responses already queued go first. */
function pump(rt: Runtime, q: Queue) {
  while (!q.stopped && q.running.size < CONCURRENCY && q.waiting.length > 0) {
    const job = q.waiting.shift() as Job;
    const run: Promise<void> = new Promise<void>((resolve) => setTimeout(resolve, 0))
      // The submit's group commit first: the worker's own connection must see the PENDING row, or
      // it would find nothing to do and the check would stay PENDING. (A failed batch: no row at all.)
      .then(() => settled()?.catch(() => {}))
      .then(() => (q.stopped ? undefined : runCheck(rt, job)))
      .catch((e) => rt.log({ level: "error", event: "similarity.job-error", submissionId: job.submissionId, error: String(e) }))
      .finally(() => {
        q.running.delete(run);
        q.queued.delete(`${job.tenantId}/${job.submissionId}`);
        const left = (q.perTenant.get(job.tenantId) ?? 1) - 1;
        if (left > 0) q.perTenant.set(job.tenantId, left);
        else {
          q.perTenant.delete(job.tenantId);
          armUnmark(rt, q, job.tenantId);
        }
        pump(rt, q);
      });
    q.running.add(run);
  }
}

function schedule(rt: Runtime, job: Job) {
  const q = queueOf(rt);
  const key = `${job.tenantId}/${job.submissionId}`;
  if (q.stopped || q.queued.has(key)) return;
  q.queued.add(key);
  q.perTenant.set(job.tenantId, (q.perTenant.get(job.tenantId) ?? 0) + 1);
  q.waiting.push(job);
  pump(rt, q);
}

export type SimilarityJobInput = SimilarityRevision;

/**
 * Queues the check of a new revision. Call it inside the submit transaction: the PENDING row
 * commits with the submission (a crash cannot lose it), and the job starts only after the
 * synchronous transaction, and the response, are done; a rolled-back submit leaves it nothing to do.
 */
export function enqueueSimilarity(rt: Runtime, tenant: { tenantId: string }, tx: Db, input: SimilarityJobInput, now = Date.now()) {
  tx.insert(similarityChecks)
    .values({
      submissionId: input.submissionId,
      kind: input.kind,
      contentId: input.contentId,
      ownerId: input.ownerId,
      displayName: input.displayName,
      status: "PENDING",
      body: input.body,
      fileIds: [...input.fileIds],
      createdAt: now,
    })
    .run();
  markPending(rt, queueOf(rt), tenant.tenantId);
  schedule(rt, { tenantId: tenant.tenantId, submissionId: input.submissionId });
}

/** The text of a PENDING check (body + readable attachments), or null when it is no longer PENDING. */
async function loadText(rt: Runtime, job: Job) {
  const loaded = rt.tenants.use(job.tenantId, (h) => {
    const row = h.db.select().from(similarityChecks).where(eq(similarityChecks.submissionId, job.submissionId)).get();
    if (row?.status !== "PENDING") return null;
    return { row, files: readyFilesByIds(h.db, row.fileIds) };
  });
  if (!loaded) return null;
  const { row, files } = loaded;
  const parts = [row.body ?? ""];
  // With fflate (whose tables are built at import) on the first check, not at start (docs/rules/performance.md#start).
  const { extractFileText, MAX_EXTRACT_BYTES, readerOf } = await import("./extract");
  for (const fileId of row.fileIds) {
    const file = files.get(fileId);
    const reader = file && readerOf(file);
    if (!file || !reader || file.size > MAX_EXTRACT_BYTES) {
      const why = !file ? "not ready" : !reader ? "unsupported type" : "too large";
      rt.log({
        level: "info",
        event: "similarity.file-skipped",
        submissionId: row.submissionId,
        fileId,
        contentType: file?.contentType,
        why,
      });
      continue;
    }
    parts.push(await extractFileText(rt.files.open(job.tenantId, fileId), reader));
  }
  return { row, text: parts.join("\n") };
}

const reasonOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** A check that cannot be done: FAILED, with the reason in the log only. */
function failCheck(rt: Runtime, job: Job, e: unknown) {
  rt.log({ level: "warn", event: "similarity.failed", submissionId: job.submissionId, reason: reasonOf(e) });
  rt.tenants.use(job.tenantId, (h) => recordFailure(h.db, job.submissionId));
}

/** One check: read (FAILED when a file cannot be parsed), fingerprint, record. */
async function runCheck(rt: Runtime, job: Job) {
  let loaded: Awaited<ReturnType<typeof loadText>>;
  try {
    loaded = await loadText(rt, job);
  } catch (e) {
    return failCheck(rt, job, e);
  }
  if (!loaded) return;
  const t0 = performance.now();
  const hashes = Uint32Array.from(fingerprints(normaliseText(loaded.text))).sort();
  const t1 = performance.now();
  const { seq, contentId, ownerId, createdAt } = loaded.row;
  const poolBudgetBytes = Math.floor((rt.config.memoryMb * 1024 * 1024) / POOL_SHARE_OF_MEMORY);
  const request = {
    path: rt.tenants.fileOf(job.tenantId),
    row: { seq, contentId, ownerId, createdAt },
    hashes,
    poolBudgetBytes,
    replicated: rt.config.replicaUrl !== null,
  };
  let reply: WorkerReply;
  for (let attempt = 1; ; attempt++) {
    try {
      reply = await inWorker(rt, request);
      break;
    } catch (e) {
      // A busy file or a dead thread is passing: try again; every step may run twice. After the last
      // try the check is FAILED (reason in the log), never PENDING until the next start.
      const q = queueOf(rt);
      if (q.stopped) return; // stays PENDING: the next start picks it up
      if (attempt >= RECORD_ATTEMPTS) return failCheck(rt, job, e);
      rt.log({ level: "warn", event: "similarity.retry", submissionId: job.submissionId, attempt, reason: reasonOf(e) });
      await new Promise((r) => setTimeout(r, RETRY_BASE_MS * 4 ** (attempt - 1)));
    }
  }
  const ms = (a: number, b: number) => Math.round((b - a) * 100) / 100;
  rt.log({
    event: "similarity.checked",
    submissionId: job.submissionId,
    fingerprints: hashes.length,
    winnowMs: ms(t0, t1),
    recordMs: ms(t1, performance.now()),
    poolMs: ms(0, reply.poolMs ?? 0),
    writeMs: ms(0, reply.writeMs ?? 0),
  });
}

/** The worker's module (an extra entrypoint of the binary, scripts/build.ts). */
const WORKER = workerModule("modules/similarity/worker.ts");

type Workers = { worker: Worker; next: number; waiting: Map<number, (reply: WorkerReply) => void> };
const workers = new WeakMap<Runtime, Workers>();

/** Records one check on the server's similarity thread (started on first use, ended by stopSimilarityChecks). */
function inWorker(rt: Runtime, request: Omit<WorkerRequest, "id">): Promise<WorkerReply> {
  let w = workers.get(rt);
  if (!w) {
    const created: Workers = { worker: new Worker(WORKER), next: 0, waiting: new Map() };
    created.worker.onmessage = (e: MessageEvent<WorkerReply>) => {
      created.waiting.get(e.data.id)?.(e.data);
      created.waiting.delete(e.data.id);
    };
    // A thread that dies answers nothing more: fail what it holds and start a fresh one next time.
    created.worker.onerror = (e: ErrorEvent) => {
      if (workers.get(rt) === created) workers.delete(rt);
      for (const [id, reply] of created.waiting) reply({ id, error: `similarity thread failed: ${e.message}` });
      created.waiting.clear();
      created.worker.terminate();
    };
    w = created;
    workers.set(rt, w);
  }
  const id = ++w.next;
  const { worker, waiting } = w;
  return new Promise((resolve, reject) => {
    waiting.set(id, (reply) => (reply.error ? reject(new Error(reply.error)) : resolve(reply)));
    worker.postMessage({ ...request, id } satisfies WorkerRequest);
  });
}

/** Queues a tenant's PENDING checks; a tenant without any gets its mark cleared once idle. */
function resumeTenant(rt: Runtime, q: Queue, tenantId: string) {
  const pending = rt.tenants.use(tenantId, (h) =>
    h.db
      .select({ id: similarityChecks.submissionId })
      .from(similarityChecks)
      .where(eq(similarityChecks.status, "PENDING"))
      .orderBy(similarityChecks.seq)
      .all(),
  );
  q.marked.add(tenantId);
  for (const p of pending) schedule(rt, { tenantId, submissionId: p.id });
  if (!q.perTenant.has(tenantId)) armUnmark(rt, q, tenantId);
}

/**
 * At start: queue the checks left PENDING, opening only the tenant files marked `pending` in the
 * platform file (one indexed probe each), not every tenant's.
 */
export function resumeSimilarityChecks(rt: Runtime) {
  const q = queueOf(rt);
  const marked = rt.platform.db
    .select({ tenantId: similarityTenants.tenantId })
    .from(similarityTenants)
    .where(eq(similarityTenants.pending, true))
    .all();
  for (const { tenantId } of marked) {
    try {
      if (tenantById(rt.platform.db, tenantId)) resumeTenant(rt, q, tenantId);
      else write(rt.platform.db, (tx) => tx.delete(similarityTenants).where(eq(similarityTenants.tenantId, tenantId)).run());
    } catch (e) {
      rt.log({ level: "error", event: "similarity.resume-failed", tenantId, error: String(e) });
    }
  }
  void backfillSimilarity(rt, {
    mark: (tenantId) => markPending(rt, q, tenantId),
    schedule: (tenantId, ids) => {
      for (const submissionId of ids) schedule(rt, { tenantId, submissionId });
    },
    backlog: () => q.waiting.length,
    stopped: () => q.stopped,
  }).catch((e) => rt.log({ level: "error", event: "similarity.backfill-error", error: String(e) }));
}

/** At shutdown: no new check starts; the running ones finish (their rows stay PENDING otherwise, for the next start). */
export async function stopSimilarityChecks(rt: Runtime) {
  const q = queueOf(rt);
  q.stopped = true;
  q.waiting.length = 0;
  for (const timer of q.idleTimers.values()) clearTimeout(timer);
  q.idleTimers.clear();
  await Promise.all(q.running);
  workers.get(rt)?.worker.terminate();
  workers.delete(rt);
}
