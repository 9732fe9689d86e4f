import { closeSync, fsyncSync, openSync } from "node:fs";
import { open } from "node:fs/promises";

/**
 * fsyncs a directory, so a file made or linked in it survives power loss with its name (what SQLite does
 * for a WAL it creates): the event loop waits.
 */
export function syncDirectorySync(path: string) {
  const fd = openSync(path, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** syncDirectorySync on a thread of the pool, the event loop free meanwhile. */
export async function syncDirectory(path: string) {
  const dir = await open(path, "r");
  try {
    await dir.sync();
  } finally {
    await dir.close();
  }
}
