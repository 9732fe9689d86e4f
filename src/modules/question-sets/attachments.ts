// The attachments of questions and options, rendered for one reader.
import type { Actor } from "../../platform/auth/actor";
import type { Db } from "../../platform/db/types";
import type { Runtime } from "../../platform/runtime";
import { fileDownloadUrl, questionFileIds, readyFilesByIds } from "../files/attachments";

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
