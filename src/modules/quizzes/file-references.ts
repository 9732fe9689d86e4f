import type { Db } from "../../platform/db/types";
import { quizQuestionSetFiles } from "./tables";

/** The files quiz questions and options attach: what the file collector must keep (docs/rules/storage.md#file-collector). */
export const quizFileIds = (db: Db) =>
  db
    .selectDistinct({ id: quizQuestionSetFiles.fileId })
    .from(quizQuestionSetFiles)
    .all()
    .map((r) => r.id);
