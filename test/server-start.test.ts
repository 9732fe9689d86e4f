// The start of the server (docs/rules/performance.md#start): Elysia's collections during listen are skipped, nothing else.
import { expect, test } from "bun:test";
import { withoutForcedGc } from "../src/server";

test("withoutForcedGc skips exactly the listen's three non-forced collections; a forced one and later ones go through", () => {
  const bun = Bun as { gc: (force?: boolean) => void };
  const original = bun.gc;
  const calls: (boolean | undefined)[] = [];
  bun.gc = (force?: boolean) => {
    calls.push(force);
  };
  const fake = bun.gc;
  try {
    withoutForcedGc(() => {
      Bun.gc(false);
      Bun.gc(true);
      Bun.gc(false);
      Bun.gc(false);
      // Restored after the third: the same turn's next call is not skipped.
      Bun.gc(false);
    });
    expect(calls).toEqual([true, false]);
    expect(bun.gc).toBe(fake);
  } finally {
    bun.gc = original;
  }
});
