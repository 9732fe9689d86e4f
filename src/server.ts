import { createApp } from "./app";
import type { Config } from "./config";

/** The largest upload (1 GiB) plus room: the runtime's own limit never answers before ours. */
const MAX_REQUEST_BODY = 1024 * 1024 * 1024 + 16 * 1024 * 1024;

/** How long a shutdown waits for in-flight requests (DECISIONS §11). */
export const DRAIN_MS = 10_000;

export function startServer(config: Config) {
  const { app, rt } = createApp(config);
  app.listen({ port: config.port, reusePort: false, maxRequestBodySize: MAX_REQUEST_BODY });
  const port = app.server?.port ?? config.port;
  // With --port 0 the real port is known only now; links must carry it unless a public URL was set.
  if (config.publicUrl === "http://localhost:0") rt.config.publicUrl = `http://localhost:${port}`;
  return {
    app,
    rt,
    port,
    url: `http://localhost:${port}`,
    async stop() {
      await app.stop(true);
      rt.close();
    },
    /**
     * Graceful stop: no new connections, late requests on open ones get 503 SHUTTING_DOWN, in-flight
     * requests finish (up to `drainMs`), then every file is checkpointed and closed.
     */
    async shutdown(drainMs = DRAIN_MS) {
      rt.draining = true;
      const server = app.server;
      if (server) {
        const stopped = server.stop(false);
        const deadline = performance.now() + drainMs;
        while (server.pendingRequests > 0 && performance.now() < deadline) await Bun.sleep(10);
        const drained = server.pendingRequests === 0;
        if (!drained) await server.stop(true);
        else await Promise.race([stopped, Bun.sleep(Math.max(0, deadline - performance.now()))]);
        rt.log({ event: "shutdown", drained });
      }
      rt.close();
    },
  };
}
