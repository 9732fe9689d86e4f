// The attachments of questions and options: rendered for one reader, and the download rule of their URLs.
import type { Actor } from "../../platform/auth/actor";
import type { Db } from "../../platform/db/types";
import type { DownloadRule } from "../../platform/files/tokens";
import type { Runtime } from "../../platform/runtime";
import type { ContentType } from "../../schema/library";
import { fileDownloadUrl, questionFileIds, readyFilesByIds } from "../files/attachments";
import { contentVisibleTo } from "../library/access";

type Questions = Parameters<typeof questionFileIds>[0];

/** Renders `[{fileId, url}]` for one reader: ready files only (one query), URLs signed for `attachedTo` ("quiz:<id>"). */
export function questionAttachments(rt: Runtime, actor: Actor, db: Db, attachedTo: string, questions: Questions) {
  const ready = readyFilesByIds(db, questionFileIds(questions));
  return (ids: string[]) =>
    ids
      .filter((id) => ready.has(id))
      .map((fileId) => ({
        fileId,
        url: fileDownloadUrl(rt, { tenantId: actor.tenantId, fileId, readerId: actor.memberId, attachedTo }),
      }));
}

/**
 * downloadFileContent of a URL emitted for `<type>:<contentId>` (docs/rules/files.md#download-rules): the reader can
 * still see the content, and one of its question sets (`sets`, read only then) still attaches the file.
 */
export function questionFileDownload(
  db: Db,
  content: { id: string; type: ContentType },
  fileId: string,
  reader: Pick<Actor, "memberId" | "profileId">,
  sets: () => Questions[],
): DownloadRule {
  if (!contentVisibleTo(db, content.id, reader, content.type)) return "gone";
  return sets().some((questions) => questionFileIds(questions).includes(fileId)) ? "ok" : "gone";
}
