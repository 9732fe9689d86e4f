import { join } from "node:path";
import type { AnyElysia } from "elysia";
import { composeErrorHandler, composeGeneralHandler } from "elysia/compose";
import { createApp } from "./app";
import { rebuildDirectory } from "./cli/reindex";
import { startAgent } from "./cluster/agent";
import { type Config, ConfigError } from "./config";
import { startFileCollector, stopFileCollector } from "./modules/files/collector";
import { startNotificationScheduler, stopNotificationScheduler } from "./modules/notifications/schedule";
import { resumeSimilarityChecks, stopSimilarityChecks } from "./modules/similarity/jobs";
import { lockDataDir } from "./platform/db/data-lock";
import { writeGuards } from "./platform/db/types";
import { normalJitPolicy } from "./platform/jit";
import { startReplication } from "./platform/replica/supervisor";
import type { Runtime } from "./platform/runtime";

/** The largest upload (1 GiB) plus room: the runtime's own limit never answers before ours. */
const MAX_REQUEST_BODY = 1024 * 1024 * 1024 + 16 * 1024 * 1024;

/**
 * The pause between the listen and the similarity queue's resume (a query of the platform file, then the
 * tenants marked pending), the notification scheduler's first run (Drizzle's first, cold query) and the
 * return to the normal JIT policy: the first `/readyz` is answered before them (docs/rules/performance.md#start).
 */
const RESUME_AFTER_MS = 100;

/** How long a shutdown waits for in-flight requests (docs/operating.md#shutdown). */
export const DRAIN_MS = 10_000;

/** Litestream for every file of the data dir; a missing binary stops `serve` with one line. */
function replicate(config: Config, rt: Runtime) {
  try {
    const replication = startReplication({
      dataDir: config.dataDir,
      replicaUrl: config.replicaUrl as string,
      syncMs: config.replicaSyncMs,
      log: rt.log,
      // Which files were written lately (docs/rules/replication.md#tiers).
      lastWriteAt: (f) => (f.tenantId ? rt.tenants.lastWriteAt(f.tenantId) : null),
    });
    // Every write, for Litestream's CPU floor (docs/rules/replication.md#scheduling).
    rt.tenants.written = (tenantId) => replication.wrote(rt.tenants.fileOf(tenantId));
    const platformFile = join(config.dataDir, "platform.sqlite");
    writeGuards.set(rt.platform.sqlite, () => replication.wrote(platformFile));
    return replication;
  } catch (e) {
    throw new ConfigError(`LEARNSPACE_REPLICA_URL is set but ${(e as Error).message}`);
  }
}

/**
 * Elysia's listen (1.4) asks for a garbage collection, `Bun.gc(false)`, after composing its handler in
 * `listen` and after reloading the server in a microtask (a third time when that microtask composes the
 * handler again, which `composeOnce` skips): ~30 ms of CPU of a cold start on 2 cores
 * (docs/rules/performance.md#start). Exactly those calls are skipped: `Bun.gc` is wrapped for the listen
 * alone, a forced collection (`Bun.gc(true)`) always goes through, and the original is back after
 * Elysia's second call, or at the next turn of the event loop if a later Elysia makes fewer.
 */
const ELYSIA_LISTEN_GCS = 2;
export function withoutForcedGc(listen: () => void) {
  const bun = Bun as { gc: (force?: boolean) => void };
  const gc = bun.gc;
  let skipped = 0;
  const restore = () => {
    if (bun.gc === skipListenGc) bun.gc = gc;
  };
  const skipListenGc = (force?: boolean) => {
    if (force) return gc(force);
    if (++skipped === ELYSIA_LISTEN_GCS) restore();
  };
  bun.gc = skipListenGc;
  try {
    listen();
  } finally {
    setTimeout(restore, 0);
  }
}

/**
 * Elysia's general handler (its router and global hooks, compiled into one function) serves only what
 * Bun's router of every route does not: an unknown path, a wildcard route, a method Bun's router does not
 * take. Composing it with Elysia's router was ~6 % of a cold start (docs/rules/performance.md#start), so it
 * is composed on the first request that needs it; the server is given a function that does that. The
 * error handler, which every route's handler takes when that route is composed, is composed now, as
 * Elysia's own composition does.
 */
function composeOnFirstUse(app: AnyElysia) {
  (app as unknown as { handleError: unknown }).handleError = composeErrorHandler(app);
  let handler: ((request: Request, server?: unknown) => unknown) | null = null;
  const fetch = (request: Request, server?: unknown) => {
    handler ??= composeGeneralHandler(app) as (request: Request, server?: unknown) => unknown;
    return handler(request, server);
  };
  Object.defineProperty(app, "fetch", { value: fetch, configurable: true, writable: true });
}

/**
 * Elysia's listen composes the app's handler (see composeOnFirstUse) and serves it with Bun's router of
 * every route (`mapRoutes`); then, in a microtask before the first request, it composes the handler again,
 * maps the routes again and reloads the server with them: ~6 % of a cold start's main-thread CPU
 * (docs/rules/performance.md#start). Nothing is added to the app after `listen` (no plugin is async), so
 * that microtask would serve the same handler and the same routes: its `compile` is skipped (the server
 * keeps the first handler), its `mapRoutes` maps nothing (Elysia's own `systemRouter: false` test, for
 * that turn only) and its `reload` is skipped (the server keeps the first routes). The listen's own
 * `compile` leaves the handler to its first use. The originals are back after the microtask, or at the
 * next turn.
 */
export function composeOnce(app: AnyElysia, listen: () => void) {
  const own = Object.hasOwn(app, "compile");
  const compile = app.compile;
  const systemRouter = Object.hasOwn(app.config, "systemRouter") ? { value: app.config.systemRouter } : null;
  let calls = 0;
  const restoreRouter = () => {
    if (systemRouter) app.config.systemRouter = systemRouter.value;
    else delete app.config.systemRouter;
  };
  const restore = () => {
    if (app.compile !== once) return;
    if (own) app.compile = compile;
    else delete (app as { compile?: unknown }).compile;
  };
  const once = function (this: unknown) {
    if (++calls === 1) {
      composeOnFirstUse(app);
      return app;
    }
    restore();
    const server = app.server;
    if (server) {
      app.config.systemRouter = false;
      const ownReload = Object.hasOwn(server, "reload");
      const reload = server.reload;
      const skipReload = () => {
        if (ownReload) server.reload = reload;
        else delete (server as { reload?: unknown }).reload;
        restoreRouter();
        return server;
      };
      server.reload = skipReload;
      setTimeout(() => {
        if (server.reload === skipReload) skipReload();
      }, 0);
    }
    return app;
  };
  app.compile = once;
  try {
    listen();
  } finally {
    setTimeout(restore, 0);
  }
}

export function startServer(config: Config) {
  const { release: unlock, crashed } = lockDataDir(config.dataDir);
  let created: ReturnType<typeof createApp> | undefined;
  try {
    created = createApp(config);
    // The last run was killed: a member write may have reached its tenant file but not the directory.
    if (crashed) {
      const rebuilt = rebuildDirectory(created.rt);
      created.rt.log({ event: "directory.rebuilt", reason: "unclean shutdown", tenants: rebuilt.tenants, failed: rebuilt.failed });
    }
    if (config.replicaUrl) created.rt.replication = replicate(config, created.rt);
    // idleTimeout bounds a request that trickles in or never ends (slow body, endless chunks); Bun
    // itself drops connections that send no complete request head within about 10 s (slowloris).
    const app = created.app;
    withoutForcedGc(() =>
      composeOnce(app, () =>
        app.listen({ port: config.port, reusePort: false, maxRequestBodySize: MAX_REQUEST_BODY, idleTimeout: config.requestTimeout }),
      ),
    );
  } catch (e) {
    created?.rt.close();
    void created?.rt.replication?.stop();
    unlock();
    if ((e as { code?: string }).code === "EADDRINUSE") throw new ConfigError(`--port ${config.port} is in use by another program`);
    throw e;
  }
  const { app, rt, cluster } = created;
  const port = app.server?.port ?? config.port;
  // With --port 0 the real port is known only now; links must carry it unless a public URL was set.
  if (config.publicUrl === "http://localhost:0") rt.config.publicUrl = `http://localhost:${port}`;
  cluster?.start(port);
  const agent =
    cluster && config.clusterHaproxy
      ? startAgent({
          etcd: config.clusterEtcd as string[],
          name: cluster.name,
          secret: rt.secret,
          haproxy: config.clusterHaproxy,
          map: config.clusterHaproxyMap,
          ttl: config.clusterLeaseTtl,
          log: rt.log,
        })
      : null;
  const resume = setTimeout(() => {
    // The start's run-once code is done: requests get the normal JIT from here (src/platform/jit.ts).
    normalJitPolicy();
    resumeSimilarityChecks(rt);
  }, RESUME_AFTER_MS);
  startNotificationScheduler(rt, RESUME_AFTER_MS);
  startFileCollector(rt);
  return {
    app,
    rt,
    port,
    url: `http://localhost:${port}`,
    async stop() {
      clearTimeout(resume);
      await agent?.stop();
      await cluster?.stop();
      await stopSimilarityChecks(rt);
      await stopNotificationScheduler(rt);
      await stopFileCollector(rt);
      await app.stop(true);
      rt.close();
      await rt.replication?.stop();
      unlock();
    },
    /**
     * Graceful stop: from the signal on, every new request gets 503 SHUTTING_DOWN (connection: close)
     * while accepted ones finish (up to `drainMs`); then the listener and every connection close, and
     * every file is checkpointed and closed. The listener stays open while draining so that a late
     * client gets the 503 rather than a reset (Bun's stop() would drop idle keep-alive connections).
     */
    async shutdown(drainMs = DRAIN_MS) {
      rt.draining = true;
      const deadline = performance.now() + drainMs;
      while (rt.inFlight > 0 && performance.now() < deadline) await Bun.sleep(10);
      const drained = rt.inFlight <= 0;
      await app.server?.stop(true);
      clearTimeout(resume);
      await agent?.stop();
      await cluster?.stop();
      // A check still running finishes; queued ones stay PENDING and run at the next start.
      await stopSimilarityChecks(rt);
      await stopNotificationScheduler(rt);
      await stopFileCollector(rt);
      rt.log({ event: "shutdown", drained, unfinished: Math.max(0, rt.inFlight) });
      rt.close();
      // After the files are closed: Litestream ships their last frames as it stops.
      await rt.replication?.stop();
    },
  };
}
