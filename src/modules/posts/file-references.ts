import type { Db } from "../../platform/db/types";
import { postCommentFiles, postFiles } from "./tables";

/** The files posts and their comments attach: what the file collector must keep (docs/rules/storage.md#file-collector). */
export const postFileIds = (db: Db) =>
  [
    ...db.selectDistinct({ id: postFiles.fileId }).from(postFiles).all(),
    ...db.selectDistinct({ id: postCommentFiles.fileId }).from(postCommentFiles).all(),
  ].map((r) => r.id);
