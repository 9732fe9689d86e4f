import type { Db } from "../../platform/db/types";
import { assignmentSubmissionFiles } from "./tables";

/** The files submission revisions attach: what the file collector must keep (docs/rules/storage.md#file-collector). */
export const submissionFileIds = (db: Db) =>
  db
    .selectDistinct({ id: assignmentSubmissionFiles.fileId })
    .from(assignmentSubmissionFiles)
    .all()
    .map((r) => r.id);
