import type { Db } from "../../platform/db/types";
import { groupSubmissionFiles } from "./tables";

/** The files group submission revisions attach: what the file collector must keep (docs/rules/storage.md#file-collector). */
export const groupSubmissionFileIds = (db: Db) =>
  db
    .selectDistinct({ id: groupSubmissionFiles.fileId })
    .from(groupSubmissionFiles)
    .all()
    .map((r) => r.id);
