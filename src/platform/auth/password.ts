import { availableParallelism } from "node:os";
import { serverBusy } from "../http/errors";

/** OWASP's argon2id minimum (19 MiB, t=2, p=1): ~4x cheaper than Bun's default and still compliant. */
const PARAMS = { algorithm: "argon2id", memoryCost: 19456, timeCost: 2 } as const;
const CURRENT = "$argon2id$v=19$m=19456,t=2,p=1$";

/**
 * Admission to password hashing, one per process (the cores are): Bun.password runs each hash on its
 * own thread pool with no bound, so a sign-in storm would queue without limit and starve every other
 * request of CPU. At most `concurrency` hashes run; up to `queue` wait in order, as long as the
 * wait (from the measured hash time) stays under MAX_WAIT_MS; the rest are shed with 503 SERVER_BUSY
 * and a Retry-After of that wait.
 */
const pool = { concurrency: availableParallelism(), queue: 1000, running: 0, waiting: [] as (() => void)[], meanMs: 40 };
/** Nobody waits longer than this for a hash to start (issue 11: no request waits over 10 s). */
const MAX_WAIT_MS = 5000;

/** Sets the admission limits (LEARNSPACE_SIGNIN_QUEUE); called when a runtime starts. */
export function limitPasswordWork(limits: { queue: number; concurrency?: number }) {
  pool.queue = limits.queue;
  pool.concurrency = limits.concurrency ?? availableParallelism();
}

async function admitted<T>(work: () => Promise<T>): Promise<T> {
  const waitMs = ((pool.waiting.length + 1) * pool.meanMs) / pool.concurrency;
  if (pool.running < pool.concurrency) pool.running++;
  else if (pool.waiting.length < pool.queue && waitMs <= MAX_WAIT_MS) await new Promise<void>((resolve) => pool.waiting.push(resolve));
  else throw serverBusy(waitMs / 1000);
  const started = performance.now();
  try {
    return await work();
  } finally {
    pool.meanMs = pool.meanMs * 0.9 + (performance.now() - started) * 0.1;
    // The slot passes straight to the next in line, so `running` only drops when nobody waits.
    const next = pool.waiting.shift();
    if (next) next();
    else pool.running--;
  }
}

export const hashPassword = (password: string) => admitted(() => Bun.password.hash(password, PARAMS));

/**
 * A generated password has ~93 random bits, so a costly hash buys nothing against guessing it:
 * a light argon2id (~1 ms) keeps bulk creation fast; the first sign-in rehashes it (needsRehash).
 */
const GENERATED = { algorithm: "argon2id", memoryCost: 1024, timeCost: 1 } as const;
export const hashGeneratedPassword = (password: string) => Bun.password.hash(password, GENERATED);

export async function verifyPassword(password: string, hash: string | null): Promise<boolean> {
  if (!hash) return false;
  return admitted(async () => {
    try {
      return await Bun.password.verify(password, hash);
    } catch {
      return false;
    }
  });
}

/** A stored hash with other parameters is upgraded on the next successful sign-in. */
export const needsRehash = (hash: string) => !hash.startsWith(CURRENT);
