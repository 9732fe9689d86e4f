import { isNotNull } from "drizzle-orm";
import type { Db } from "../../platform/db/types";
import { spaces } from "../../schema/spaces";

/** Space thumbnails: what the file collector must keep (docs/rules/storage.md#file-collector). */
export const spaceThumbnailFileIds = (db: Db) =>
  db
    .select({ id: spaces.thumbnailFileId })
    .from(spaces)
    .where(isNotNull(spaces.thumbnailFileId))
    .all()
    .flatMap((r) => r.id ?? []);
