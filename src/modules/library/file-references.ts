import { isNotNull } from "drizzle-orm";
import type { Db } from "../../platform/db/types";
import { libraryContentFiles, libraryContents } from "../../schema/library";

/** The files contents attach and their VIDEO/DOCUMENT info files: what the file collector must keep (docs/rules/storage.md#file-collector). */
export function contentFileIds(db: Db): string[] {
  const attached = db.selectDistinct({ id: libraryContentFiles.fileId }).from(libraryContentFiles).all();
  const info = db.select({ id: libraryContents.infoFileId }).from(libraryContents).where(isNotNull(libraryContents.infoFileId)).all();
  return [...attached, ...info].flatMap((r) => r.id ?? []);
}
