import { createApp } from "./app";
import type { Config } from "./config";
import { resumeSimilarityChecks, stopSimilarityChecks } from "./modules/similarity/jobs";

/** The largest upload (1 GiB) plus room: the runtime's own limit never answers before ours. */
const MAX_REQUEST_BODY = 1024 * 1024 * 1024 + 16 * 1024 * 1024;

export function startServer(config: Config) {
  const { app, rt } = createApp(config);
  app.listen({ port: config.port, reusePort: false, maxRequestBodySize: MAX_REQUEST_BODY });
  const port = app.server?.port ?? config.port;
  // With --port 0 the real port is known only now; links must carry it unless a public URL was set.
  if (config.publicUrl === "http://localhost:0") rt.config.publicUrl = `http://localhost:${port}`;
  resumeSimilarityChecks(rt);
  return {
    app,
    rt,
    port,
    url: `http://localhost:${port}`,
    async stop() {
      await stopSimilarityChecks(rt);
      await app.stop(true);
      rt.close();
    },
  };
}
