import { availableParallelism } from "node:os";
import { holdsOutsideHeap } from "../db/memory-budget";
import { serverBusy } from "../http/errors";
import { workerModule } from "../threads";
import { hashAdmission } from "./admission";
import type { HashReply, HashRequest } from "./hash-worker";

/** OWASP's argon2id minimum (19 MiB, t=2, p=1): ~4x cheaper than Bun's default and still compliant. */
const PARAMS = { algorithm: "argon2id", memoryCost: 19456, timeCost: 2 } as const;
const CURRENT = "$argon2id$v=19$m=19456,t=2,p=1$";

type Work = HashRequest extends infer R ? (R extends unknown ? Omit<R, "id"> : never) : never;
type Job = { work: Work; resolve: (value: string | boolean) => void; reject: (e: Error) => void };
type Thread = { worker: Worker; jobs: Map<number, Job> };

/**
 * Password hashing, one per process (the cores are; docs/rules/sign-in.md#password-hashing): argon2id
 * runs on `concurrency` threads of lowered priority (src/platform/auth/hash-worker.ts), each holding at
 * most DEPTH hashes so it never idles waiting for the event loop to hand it the next. `admission`
 * (src/platform/auth/admission.ts) decides which hashes wait and when a shed one comes back.
 */
const pool = {
  concurrency: availableParallelism(),
  admission: hashAdmission({ concurrency: availableParallelism(), queue: 1000, hashMs: 40 }),
  waiting: [] as Job[],
  threads: [] as (Thread | undefined)[],
  /** false once a thread could not start: hashes run on Bun.password's own pool, `concurrency` at once. */
  useThreads: true,
  /** Hashes running on Bun.password's pool (without threads). */
  running: 0,
  nextId: 0,
};
/**
 * A running hash holds its argon2 memory (memoryCost KiB) outside the JS heap: the memory watch leaves it
 * out (docs/rules/performance.md#memory), or a storm's hashes set off full collections on the event loop.
 */
holdsOutsideHeap(() => {
  let running = pool.running;
  for (const thread of pool.threads) if (thread && thread.jobs.size > 0) running++;
  return (running * PARAMS.memoryCost) / 1024;
});

/** Hashes a thread holds: the one it runs and the next, already in its inbox. */
const DEPTH = 2;
const WORKER = workerModule("platform/auth/hash-worker.ts");

/**
 * Sets the admission limits (LEARNSPACE_SIGNIN_QUEUE); called when a runtime starts. `hashMs`: the
 * estimate of one hash until hashes are measured (tests make it long).
 */
export function limitPasswordWork(limits: { queue: number; concurrency?: number; hashMs?: number }) {
  pool.concurrency = limits.concurrency ?? availableParallelism();
  const running = pool.admission.state.admitted;
  pool.admission = hashAdmission({ concurrency: pool.concurrency, queue: limits.queue, hashMs: limits.hashMs ?? 40 });
  pool.admission.state.admitted = running; // hashes under way still finish through it
}

function admitted(work: Work): Promise<string | boolean> {
  const retryAfterSeconds = pool.admission.enter();
  if (retryAfterSeconds !== null) throw serverBusy(retryAfterSeconds);
  return new Promise((resolve, reject) => {
    pool.waiting.push({ work, resolve, reject });
    dispatch();
  });
}

function finished(job: Job, reply: { value: string | boolean; ms: number; error?: string }) {
  pool.admission.leave(reply.ms);
  if (reply.error) job.reject(new Error(reply.error));
  else job.resolve(reply.value);
}

/** Hands waiting hashes to threads with room (started on first use), or to Bun.password's pool without them. */
function dispatch() {
  while (pool.waiting.length) {
    if (!pool.useThreads) {
      if (pool.running >= pool.concurrency) return;
      runInPool(pool.waiting.shift() as Job);
      continue;
    }
    const thread = threadWithRoom();
    if (!thread) return;
    const job = pool.waiting.shift() as Job;
    const id = ++pool.nextId;
    thread.jobs.set(id, job);
    holdsProcess(thread.worker, true);
    thread.worker.postMessage({ ...job.work, id } as HashRequest);
  }
}

function threadWithRoom(): Thread | null {
  let best: Thread | null = null;
  for (let i = 0; i < pool.concurrency; i++) {
    const thread = pool.threads[i] ?? startThread(i);
    if (!thread) return null;
    if (thread.jobs.size < DEPTH && (!best || thread.jobs.size < best.jobs.size)) best = thread;
  }
  return best;
}

/** An idle thread does not keep a command from exiting; one holding a hash does (Bun's ref/unref, which lib.dom's Worker type hides). */
function holdsProcess(worker: Worker, holds: boolean) {
  const w = worker as unknown as { ref(): void; unref(): void };
  if (holds) w.ref();
  else w.unref();
}

function startThread(slot: number): Thread | null {
  let worker: Worker;
  try {
    worker = new Worker(WORKER, { smol: true });
  } catch {
    pool.useThreads = false;
    return null;
  }
  const thread: Thread = { worker, jobs: new Map() };
  holdsProcess(worker, false);
  worker.onmessage = (e: MessageEvent<HashReply>) => {
    const job = thread.jobs.get(e.data.id);
    if (!job) return;
    thread.jobs.delete(e.data.id);
    if (thread.jobs.size === 0) holdsProcess(worker, false);
    finished(job, e.data);
    dispatch();
  };
  // A thread that dies answers nothing more: fail what it holds and start a fresh one next time.
  worker.onerror = (e: ErrorEvent) => {
    if (pool.threads[slot] === thread) pool.threads[slot] = undefined;
    worker.terminate();
    for (const job of thread.jobs.values())
      finished(job, { value: false, ms: pool.admission.state.hashMs, error: `password thread failed: ${e.message}` });
    thread.jobs.clear();
    dispatch();
  };
  pool.threads[slot] = thread;
  return thread;
}

async function runInPool(job: Job) {
  pool.running++;
  const started = performance.now();
  const { work } = job;
  try {
    const value =
      work.op === "hash"
        ? await Bun.password.hash(work.password, work.params)
        : await Bun.password.verify(work.password, work.hash).catch(() => false);
    finished(job, { value, ms: performance.now() - started });
  } catch (e) {
    finished(job, { value: false, ms: performance.now() - started, error: String(e) });
  } finally {
    pool.running--;
    dispatch();
  }
}

/**
 * 503 SERVER_BUSY now if a hash asked for now would be shed: a sign-in calls it before its lookups, so
 * a storm's shed answers read nothing (docs/rules/sign-in.md#shed-before-the-lookups). The answer is the
 * same whoever signs in, so it tells nothing about the identifier.
 */
export function refuseWhileHashingFull() {
  const retryAfterSeconds = pool.admission.shed();
  if (retryAfterSeconds !== null) throw serverBusy(retryAfterSeconds);
}

export const hashPassword = async (password: string) => (await admitted({ op: "hash", password, params: PARAMS })) as string;

/**
 * A generated password has ~93 random bits, so a costly hash buys nothing against guessing it:
 * a light argon2id (~1 ms) keeps bulk creation fast; the first sign-in rehashes it (needsRehash).
 */
const GENERATED = { algorithm: "argon2id", memoryCost: 1024, timeCost: 1 } as const;
export const hashGeneratedPassword = (password: string) => Bun.password.hash(password, GENERATED);

/** An unreadable stored hash verifies as false. */
export async function verifyPassword(password: string, hash: string | null): Promise<boolean> {
  if (!hash) return false;
  return (await admitted({ op: "verify", password, hash })) === true;
}

/** A stored hash with other parameters is upgraded on the next successful sign-in. */
export const needsRehash = (hash: string) => !hash.startsWith(CURRENT);
