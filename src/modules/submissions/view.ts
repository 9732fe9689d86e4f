// What a reader sees of a revision: the fields both submission records share, the grade hidden
// from the participant until the revision is RETURNED (docs/rules/submissions.md#returned-grades).

import { iso, isoRequired } from "../../platform/http/schemas";
import type { Runtime } from "../../platform/runtime";
import { fileDownloadUrl, type ReadyFile } from "../files/attachments";
import type { SubmissionStatus } from "./columns";

/** Managers see everything; a participant sees the grade only once RETURNED and never the similarity. */
export type View = "manager" | "participant";

export type RevisionRow = {
  revision: number;
  status: SubmissionStatus;
  submittedAt: number;
  dueAtAtSubmit: number | null;
  isLate: boolean;
  score: number | null;
  feedback: string | null;
  gradedAt: number | null;
  returnedAt: number | null;
};

export const isReleased = (view: View, status: SubmissionStatus) => view === "manager" || status === "RETURNED";

/** The shared fields of a submission record for one view. */
export function revisionFields(row: RevisionRow, view: View) {
  const released = isReleased(view, row.status);
  return {
    revision: row.revision,
    status: row.status,
    submittedAt: isoRequired(row.submittedAt),
    dueAtAtSubmit: iso(row.dueAtAtSubmit),
    isLate: row.isLate,
    score: released ? row.score : null,
    feedback: released ? row.feedback : null,
    gradedAt: iso(row.gradedAt),
    returnedAt: iso(row.returnedAt),
  };
}

/** The attachments of a revision that are still ready, with download URLs signed for the reader. */
export function revisionAttachments(
  rt: Runtime,
  reader: { tenantId: string; memberId: string },
  ready: Map<string, ReadyFile>,
  fileIds: string[],
  attachedTo: string,
) {
  return fileIds.flatMap((fileId) => {
    const f = ready.get(fileId);
    if (!f) return [];
    const downloadUrl = fileDownloadUrl(rt, { tenantId: reader.tenantId, fileId, readerId: reader.memberId, attachedTo });
    return [{ fileId, fileName: f.fileName, downloadUrl }];
  });
}
