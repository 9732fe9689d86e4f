import { chmodSync, existsSync, lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";

/**
 * Files this process creates are 0600 and folders 0700 (docs/rules/trust.md#files-on-disk): SQLite
 * creates its WAL and SHM files with the mode of the database file, so they follow too.
 */
export function privateFileModes() {
  process.umask(0o077);
}

/**
 * Brings everything under `dir` (and `dir` itself) to 0600 files / 0700 folders: a data dir made by
 * an older binary, or files copied in by restore or import. Links are left alone (never followed).
 */
export function tightenModes(dir: string) {
  if (!existsSync(dir)) return;
  const visit = (path: string, isDir: boolean) => {
    const want = isDir ? 0o700 : 0o600;
    if ((lstatSync(path).mode & 0o777) !== want) chmodSync(path, want);
    if (!isDir) return;
    for (const e of readdirSync(path, { withFileTypes: true })) {
      if (e.isDirectory() || e.isFile()) visit(join(path, e.name), e.isDirectory());
    }
  };
  visit(dir, lstatSync(dir).isDirectory());
}
