/**
 * The binary starts with JavaScriptCore's tier-up thresholds multiplied by START_JIT_POLICY (`compile.jitPolicy`,
 * scripts/build.ts): the code of a start runs once (module bodies, route registration, the first compositions),
 * and JIT-compiling it cost ~65 ms of a second core per start (docs/rules/performance.md#start); at ×100 the
 * JIT does next to nothing before ready (×8 still cost ~6 ms of CPU per start). Every thread goes back to the
 * normal policy once its own work begins: the main thread after the first answers (`src/server.ts`), every
 * command but `serve` once its modules are evaluated (`src/main.ts`), each Worker when it starts. Outside the
 * binary the policy is already normal and this changes nothing.
 */
export const START_JIT_POLICY = 100;

/** Back to JavaScriptCore's normal JIT policy for this thread. */
export function normalJitPolicy() {
  Bun.unsafe.setJITPolicy(1);
}
