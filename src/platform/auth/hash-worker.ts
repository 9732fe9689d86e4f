// A password-hashing thread (docs/rules/sign-in.md#password-hashing): argon2id runs here, synchronously,
// at a lowered priority, so hashing takes every idle cycle of the cores while the event loop, which
// the scheduler serves first, keeps answering other requests.
import { normalJitPolicy } from "../jit";
import { lowerThisThread } from "../threads";

export type HashRequest = { id: number; password: string } & (
  | { op: "hash"; params: { algorithm: "argon2id"; memoryCost: number; timeCost: number } }
  | { op: "verify"; hash: string }
);
/** `ms`: the hash's own time on this thread (the admission's estimate of a hash). */
export type HashReply = { id: number; value: string | boolean; ms: number; error?: string };

/** Nice 10: a nice-0 thread outweighs it ~9 to 1 for the CPU (docs/rules/sign-in.md#password-hashing). */
const HASH_NICE = 10;

declare const self: Worker;

lowerThisThread(HASH_NICE);
// The binary starts every thread with a reluctant JIT (src/platform/jit.ts); a Worker runs long work from its start.
normalJitPolicy();

self.onmessage = (event: MessageEvent<HashRequest>) => {
  const r = event.data;
  const started = performance.now();
  let reply: HashReply;
  try {
    const value = r.op === "hash" ? Bun.password.hashSync(r.password, r.params) : Bun.password.verifySync(r.password, r.hash);
    reply = { id: r.id, value, ms: performance.now() - started };
  } catch (e) {
    // an unreadable stored hash verifies as false, as Bun.password.verify's rejection did
    reply = { id: r.id, value: false, ms: performance.now() - started, error: r.op === "hash" ? String(e) : undefined };
  }
  self.postMessage(reply);
};
