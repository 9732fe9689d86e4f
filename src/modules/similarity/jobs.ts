// The background check (DECISIONS §12): queued in the submit transaction, run after the response by
// a small in-process queue per server, and picked up again at start when the process died first.
import { eq } from "drizzle-orm";
import { settled } from "../../platform/db/group-commit";
import { listTenantRows } from "../../platform/db/registry";
import type { Db } from "../../platform/db/types";
import { storedFilePath } from "../../platform/files/storage";
import type { Runtime } from "../../platform/runtime";
import { readyFilesByIds } from "../files/attachments";
import { recordFailure } from "./compare";
import { extractFileText, MAX_EXTRACT_BYTES, readerOf } from "./extract";
import { normaliseText } from "./normalise";
import { type SimilarityKind, similarityChecks } from "./tables";
import { fingerprints } from "./winnow";
import type { WorkerReply, WorkerRequest } from "./worker";

/** Checks at once per server: each is mostly synchronous CPU and one write, so more would only queue behind the lock. */
const CONCURRENCY = 1;
/** Tries at recording a check before it is FAILED, the waits between them growing from RETRY_BASE_MS (×4). */
const RECORD_ATTEMPTS = 4;
const RETRY_BASE_MS = 250;

type Job = { tenantId: string; submissionId: string };
type Queue = { waiting: Job[]; running: Set<Promise<void>>; stopped: boolean };

const queues = new WeakMap<Runtime, Queue>();

function queueOf(rt: Runtime): Queue {
  let q = queues.get(rt);
  if (!q) {
    q = { waiting: [], running: new Set(), stopped: false };
    queues.set(rt, q);
  }
  return q;
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
        pump(rt, q);
      });
    q.running.add(run);
  }
}

function schedule(rt: Runtime, job: Job) {
  const q = queueOf(rt);
  q.waiting.push(job);
  pump(rt, q);
}

export type SimilarityJobInput = {
  kind: SimilarityKind;
  contentId: string;
  submissionId: string;
  /** The submitter's profileId, or the groupId: its older revisions leave the comparison pool. */
  ownerId: string;
  /** Shown to managers in others' `matches`. */
  displayName: string | null;
  body: string | null;
  fileIds: readonly string[];
};

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
    parts.push(await extractFileText(storedFilePath(rt.config.dataDir, job.tenantId, fileId), reader));
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
  const hashes = [...fingerprints(normaliseText(loaded.text))].sort((a, b) => a - b);
  const t1 = performance.now();
  const { seq, contentId, ownerId } = loaded.row;
  const request = { path: rt.tenants.fileOf(job.tenantId), row: { seq, contentId, ownerId }, hashes };
  for (let attempt = 1; ; attempt++) {
    try {
      await inWorker(rt, request);
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
  });
}

/**
 * The worker's module: next to this file when run from source; in the compiled binary, the extra
 * entrypoint scripts/build.ts embeds, named relative to src/.
 */
const WORKER = import.meta.url.includes("$bunfs") ? "./modules/similarity/worker.ts" : new URL("./worker.ts", import.meta.url).href;

type Workers = { worker: Worker; next: number; waiting: Map<number, (reply: WorkerReply) => void> };
const workers = new WeakMap<Runtime, Workers>();

/** Records one check on the server's similarity thread (started on first use, ended by stopSimilarityChecks). */
function inWorker(rt: Runtime, request: Omit<WorkerRequest, "id">): Promise<void> {
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
    waiting.set(id, (reply) => (reply.error ? reject(new Error(reply.error)) : resolve()));
    worker.postMessage({ ...request, id } satisfies WorkerRequest);
  });
}

/** At start: queue every check left PENDING in any tenant (one indexed probe per tenant file). */
export function resumeSimilarityChecks(rt: Runtime) {
  for (const t of listTenantRows(rt.platform.db)) {
    try {
      const pending = rt.tenants.use(t.id, (h) =>
        h.db
          .select({ id: similarityChecks.submissionId })
          .from(similarityChecks)
          .where(eq(similarityChecks.status, "PENDING"))
          .orderBy(similarityChecks.submissionId)
          .all(),
      );
      for (const p of pending) schedule(rt, { tenantId: t.id, submissionId: p.id });
    } catch (e) {
      rt.log({ level: "error", event: "similarity.resume-failed", tenantId: t.id, error: String(e) });
    }
  }
}

/** At shutdown: no new check starts; the running ones finish (their rows stay PENDING otherwise, for the next start). */
export async function stopSimilarityChecks(rt: Runtime) {
  const q = queueOf(rt);
  q.stopped = true;
  q.waiting.length = 0;
  await Promise.all(q.running);
  workers.get(rt)?.worker.terminate();
  workers.delete(rt);
}
