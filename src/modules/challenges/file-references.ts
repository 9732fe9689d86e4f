import type { Db } from "../../platform/db/types";
import { challengeFiles } from "./tables";

/** The files challenges attach: what the file collector must keep (docs/rules/storage.md#file-collector). */
export const challengeFileIds = (db: Db) =>
  db
    .selectDistinct({ id: challengeFiles.fileId })
    .from(challengeFiles)
    .all()
    .map((r) => r.id);
