import { eq } from "drizzle-orm";
import type { Db } from "../../platform/db/types";
import { files } from "./tables";

/** Ids of the files whose bytes are stored (ready): what a backup copies and doctor expects on disk. */
export function readyFileIds(db: Db): string[] {
  return db
    .select({ id: files.id })
    .from(files)
    .where(eq(files.status, "ready"))
    .all()
    .map((r) => r.id);
}

/** Ids of every file record, pending or ready: a stored file named by none of them is an orphan. */
export function knownFileIds(db: Db): Set<string> {
  return new Set(
    db
      .select({ id: files.id })
      .from(files)
      .all()
      .map((r) => r.id),
  );
}
