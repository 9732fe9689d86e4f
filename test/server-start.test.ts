// The start of the server (docs/rules/performance.md#start): Elysia's collections during listen are skipped, nothing else.
import { expect, test } from "bun:test";
import { Elysia } from "elysia";
import { composeOnce, withoutForcedGc } from "../src/server";

test("withoutForcedGc skips exactly the listen's two non-forced collections; a forced one and later ones go through", () => {
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
      // Restored after the second: the same turn's next call is not skipped.
      Bun.gc(false);
    });
    expect(calls).toEqual([true, false]);
    expect(bun.gc).toBe(fake);
  } finally {
    bun.gc = original;
  }
});

/** An app whose handler compositions are counted (Elysia's `compile` composes the router and hooks). */
function countingApp() {
  const app = new Elysia().get("/", () => "ok");
  const compose = app.compile;
  const counter = { calls: 0 };
  const counting = function (this: typeof app) {
    counter.calls++;
    return compose.call(this);
  };
  app.compile = counting;
  return { app, counter, counting };
}

test("Elysia's listen composes the handler twice before the first request; composeOnce leaves one and the server answers", async () => {
  const plain = countingApp();
  plain.app.listen({ port: 0 });
  await Bun.sleep(20);
  expect(plain.counter.calls).toBe(2);
  await plain.app.stop(true);

  const { app, counter, counting } = countingApp();
  composeOnce(app, () => app.listen({ port: 0 }));
  await Bun.sleep(20);
  expect(counter.calls).toBe(1);
  expect(app.compile).toBe(counting);
  expect(await (await fetch(`http://127.0.0.1:${app.server?.port}/`)).text()).toBe("ok");
  // Restored: a later composition goes through.
  app.compile();
  expect(counter.calls).toBe(2);
  await app.stop(true);
});
