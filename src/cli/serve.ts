import type { Config } from "../config";
import type { Runtime } from "../platform/runtime";
import { startServer } from "../server";
import { backup, rotateBackups } from "./backup";

/** Backups every `backupEveryMs` into `backupDir`, keeping the newest `backupKeep`; each run logged. */
export function scheduleBackups(config: Config, rt: Runtime) {
  const dir = config.backupDir;
  if (!dir) return { stop: async () => {} };
  let running: Promise<void> | null = null;
  const run = async () => {
    const t0 = performance.now();
    try {
      const { folder, manifest } = await backup(config, { out: dir });
      const removed = rotateBackups(dir, config.backupKeep);
      rt.log({ event: "backup.done", folder, tenants: manifest.tenants.length, ms: Math.round(performance.now() - t0), removed });
    } catch (e) {
      rt.log({ level: "error", event: "backup.failed", error: (e as Error).message });
    }
  };
  const timer = setInterval(() => {
    if (!running) running = run().finally(() => (running = null));
  }, config.backupEveryMs);
  rt.log({ event: "backup.scheduled", dir, everyMs: config.backupEveryMs, keep: config.backupKeep });
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}

/** `learnspace serve`: the server, scheduled backups, and a graceful stop on SIGTERM/SIGINT (exit 0); returns the server. */
export function serveCommand(config: Config) {
  const server = startServer(config);
  console.log(`learnspace listening on ${server.url} (public URL ${server.rt.config.publicUrl}), data dir ${config.dataDir}`);
  if (config.devCodes) {
    console.warn(
      "WARNING: dev codes are ON: one-time codes are returned in API responses. Anyone can sign in as anyone. Never use this in production.",
    );
  }
  const backups = scheduleBackups(config, server.rt);
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: finishing in-flight requests, then closing every file`);
    const drained = server.shutdown();
    await backups.stop();
    await drained;
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  return server;
}
