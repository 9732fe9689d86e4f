// Admission to password hashing (docs/rules/sign-in.md#password-hashing): how many hashes may wait for
// the hash threads, and when a shed sign-in is told to come back. Time comes from `now`, so tests drive it.

/** Nobody waits longer than this for a hash to start (issue 11: no request waits over 10 s). */
export const MAX_WAIT_MS = 5000;

/**
 * Shed requests are told to come back this share of one hash's turn apart, a little faster than the
 * threads finish hashes: an early return costs one more 503, a late one leaves a thread idle
 * (docs/rules/sign-in.md#retry-after-paces-the-returns).
 */
export const RETURN_PACE = 0.9;

export type AdmissionLimits = {
  /** Hashes that run at once (the hash threads). */
  concurrency: number;
  /** Hashes that may wait beyond those running. */
  queue: number;
  /** The estimate of one hash's time on a thread until hashes are measured. */
  hashMs: number;
  /** The clock, in ms (default performance.now()). */
  now?: () => number;
};

export type Admission = ReturnType<typeof hashAdmission>;

/**
 * Up to `queue` hashes wait beyond the `concurrency` running, as long as the expected wait (from the
 * hashes' measured time on their threads) stays under MAX_WAIT_MS. A request beyond that is shed, and
 * told to come back when the queue has room for it, one turn (hash time ÷ threads, × RETURN_PACE)
 * after the request shed before it: the returns arrive at the pace the threads finish hashes.
 */
export function hashAdmission(limits: AdmissionLimits) {
  const now = limits.now ?? (() => performance.now());
  const state = {
    /** Hashes admitted and not finished (running or waiting). */
    admitted: 0,
    /** One hash's time on a thread (moving average): the threads finish `concurrency` per `hashMs`. */
    hashMs: limits.hashMs,
    /** When the last shed request was told to come back (on `now`'s clock). */
    retryAt: Number.NEGATIVE_INFINITY,
  };
  return {
    state,
    /**
     * Whether a hash asked for now is shed: the seconds after which it should come back (the returns
     * spaced as for enter()), else null. Admits nothing: a sign-in asks before it reads anything, so a
     * shed answer costs no lookups (docs/rules/sign-in.md#shed-before-the-lookups).
     */
    shed(): number | null {
      // hashes that finish before this one starts, at `concurrency` per `hashMs`
      const ahead = state.admitted + 1 - limits.concurrency;
      if (ahead <= 0) return null;
      const turnMs = state.hashMs / limits.concurrency;
      const overMs = Math.max(ahead * turnMs - MAX_WAIT_MS, (ahead - limits.queue) * turnMs);
      if (overMs <= 0) return null;
      const t = now();
      state.retryAt = Math.max(t + overMs, state.retryAt + turnMs * RETURN_PACE);
      return (state.retryAt - t) / 1000;
    },
    /** Admits one hash (null), or sheds it: the seconds after which it should come back. */
    enter(): number | null {
      const retryAfterSeconds = this.shed();
      if (retryAfterSeconds === null) state.admitted++;
      return retryAfterSeconds;
    },
    /** An admitted hash finished after `ms` on its thread. */
    leave(ms: number) {
      state.admitted--;
      state.hashMs = state.hashMs * 0.9 + ms * 0.1;
    },
  };
}
