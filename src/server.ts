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
      rt.log({ event: "shutdown", drained, unfinished: Math.max(0, rt.inFlight) });
      rt.close();
    },
  };
}
