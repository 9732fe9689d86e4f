/**
 * The binary starts with JavaScriptCore's tier-up thresholds multiplied by START_JIT_POLICY (`compile.jitPolicy`,
 * scripts/build.ts): the code of a start runs once (module bodies, route registration, the first compositions),
 * and JIT-compiling it cost ~65 ms of a second core per start (docs/rules/performance.md#start). Every thread
 * goes back to the normal policy once it serves: the main thread after the first answers (`src/server.ts`),
 * each Worker when it starts. Outside the binary the policy is already normal and this changes nothing.
 */
export const START_JIT_POLICY = 8;

/** Back to JavaScriptCore's normal JIT policy for this thread. */
export function normalJitPolicy() {
  Bun.unsafe.setJITPolicy(1);
}
