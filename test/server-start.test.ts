// The start of the server (docs/rules/performance.md#start): Elysia's collections, second composition and
// reload during listen are skipped, its general handler is composed on first use, nothing else.
import { expect, spyOn, test } from "bun:test";
import { Elysia } from "elysia";
import * as compose from "elysia/compose";
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

/** Counts the reloads of the server `listen` started (Elysia's second composition reloads it with the new handler, then its microtask with the routes mapped again). */
function countReloads(server: { reload: (options: never) => unknown } | null) {
  if (!server) throw new Error("not listening");
  const reload = server.reload;
  const counter = { reloads: 0 };
  server.reload = (options: never) => {
    counter.reloads++;
    return reload.call(server, options);
  };
  return counter;
}

test("Elysia's listen composes the handler twice and reloads the server before the first request; composeOnce leaves none until a request Bun's router does not serve, no reload, and the server answers", async () => {
  const plain = countingApp();
  plain.app.listen({ port: 0 });
  const plainReloads = countReloads(plain.app.server);
  await Bun.sleep(20);
  expect(plain.counter.calls).toBe(2);
  expect(plainReloads.reloads).toBe(2);
  await plain.app.stop(true);

  const { app, counter, counting } = countingApp();
  const general = spyOn(compose, "composeGeneralHandler");
  composeOnce(app, () => app.listen({ port: 0 }));
  const reloads = countReloads(app.server);
  await Bun.sleep(20);
  expect(counter.calls).toBe(0);
  expect(reloads.reloads).toBe(0);
  expect(app.compile).toBe(counting);
  expect(app.config.systemRouter).toBeUndefined();
  const base = `http://127.0.0.1:${app.server?.port}`;
  expect(await (await fetch(`${base}/`)).text()).toBe("ok");
  expect(general).toHaveBeenCalledTimes(0);
  // An unknown path is the general handler's: composed on that first request, once, and answered as Elysia answers it.
  for (let i = 0; i < 2; i++) {
    const missing = await fetch(`${base}/missing`);
    expect([missing.status, await missing.text()]).toEqual([404, "NOT_FOUND"]);
  }
  expect(general).toHaveBeenCalledTimes(1);
  general.mockRestore();
  // Restored: a later composition goes through, and so does the reload it asks for.
  app.compile();
  expect(counter.calls).toBe(1);
  expect(reloads.reloads).toBe(1);
  await app.stop(true);
});
