import type { Db } from "../../platform/db/types";
import { conversationMessageFiles } from "./tables";

/** The files messages attach: what the file collector must keep (docs/rules/storage.md#file-collector). */
export const messageFileIds = (db: Db) =>
  db
    .selectDistinct({ id: conversationMessageFiles.fileId })
    .from(conversationMessageFiles)
    .all()
    .map((r) => r.id);
