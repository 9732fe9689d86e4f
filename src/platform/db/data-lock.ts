import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { ConfigError } from "../../config";

/** Data dirs locked by this process (a second server in the same process is refused too). */
const held = new Set<string>();

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as { code?: string }).code === "EPERM";
  }
};

/**
 * Takes `<dataDir>/server.lock` (the holder's pid) for the life of the process: a second server on
 * the same data dir is refused while the holder runs; a lock left by a killed process is taken over,
 * and `crashed` says so (the last run ended without closing: indexes may lag their files).
 */
export function lockDataDir(dataDir: string): { release: () => void; crashed: boolean } {
  const dir = resolve(dataDir);
  const path = join(dir, "server.lock");
  mkdirSync(dir, { recursive: true });
  if (held.has(dir)) throw new ConfigError(`data dir ${dir} is in use by this process`);
  let crashed = false;
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(path, `${process.pid}\n`, { flag: "wx", mode: 0o600 });
      break;
    } catch (e) {
      if ((e as { code?: string }).code !== "EEXIST" || attempt > 0) throw e;
      const pid = Number(readFileSync(path, "utf8").trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) {
        throw new ConfigError(`data dir ${dir} is in use by another learnspace server (pid ${pid}, ${path})`);
      }
      rmSync(path, { force: true });
      crashed = true;
    }
  }
  held.add(dir);
  const release = () => {
    if (!held.delete(dir)) return;
    try {
      if (Number(readFileSync(path, "utf8").trim()) === process.pid) rmSync(path, { force: true });
    } catch {}
  };
  process.once("exit", release);
  return { release, crashed };
}
