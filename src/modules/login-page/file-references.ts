import type { Db } from "../../platform/db/types";
import { loginPageSettings } from "./tables";

/** The logo and background of the live login page and of its draft: what the file collector must keep (docs/rules/storage.md#file-collector). */
export function loginPageFileIds(db: Db): string[] {
  const row = db.select().from(loginPageSettings).get();
  return [row?.live, row?.draft].flatMap((s) => [s?.logoImageFileId, s?.backgroundImageFileId].flatMap((id) => id ?? []));
}
