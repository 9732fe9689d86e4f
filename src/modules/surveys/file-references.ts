import type { Db } from "../../platform/db/types";
import { surveyConfigFiles } from "./tables";

/** The files survey questions and options attach: what the file collector must keep (docs/rules/storage.md#file-collector). */
export const surveyFileIds = (db: Db) =>
  db
    .selectDistinct({ id: surveyConfigFiles.fileId })
    .from(surveyConfigFiles)
    .all()
    .map((r) => r.id);
