import { eq } from "drizzle-orm";
import type { Db } from "../../platform/db/types";
import { similarityChecks } from "./tables";

/** The files a PENDING check will read: what the file collector must keep until it ran (docs/rules/storage.md#file-collector). */
export const pendingCheckFileIds = (db: Db) =>
  db
    .select({ ids: similarityChecks.fileIds })
    .from(similarityChecks)
    .where(eq(similarityChecks.status, "PENDING"))
    .all()
    .flatMap((r) => r.ids);
