// Download-time checks of emitted file URLs (DECISIONS §9.1: a URL is signed over the file, the
// reader and the record that attaches it). One probe per `attachedTo` prefix, each exported by the
// module owning the record: "ok" streams, "forbidden" is 403, "gone" (and an unknown prefix) is 404.
import type { Db } from "../../platform/db/types";
import type { DownloadReader, DownloadRule } from "../../platform/files/tokens";
import { submissionFileDownload } from "../assignments/submissions";
import { challengeFileDownload } from "../challenges/hooks";
import { groupSubmissionFileDownload } from "../group-assignments/submissions";
import { contentFileDownload } from "../library/access";
import { postFileDownload } from "../posts/access";
import { quizFileDownload } from "../quizzes/config";
import { spaceThumbnailDownload } from "../spaces/access";
import { surveyFileDownload } from "../surveys/config";

type Probe = (db: Db, recordId: string, fileId: string, reader: DownloadReader) => DownloadRule;

const probes: Record<string, Probe> = {
  post: (db, postId, fileId, reader) => postFileDownload(db, postId, fileId, reader.memberId),
  content: contentFileDownload,
  challenge: challengeFileDownload,
  space: spaceThumbnailDownload,
  quiz: quizFileDownload,
  survey: surveyFileDownload,
  "assignment-submission": submissionFileDownload,
  "group-submission": groupSubmissionFileDownload,
};

/** The rule for one download token's `attachedTo` ("<prefix>:<record id>"). */
export function downloadRule(db: Db, attachedTo: string, fileId: string, reader: DownloadReader): DownloadRule {
  const at = attachedTo.indexOf(":");
  const prefix = attachedTo.slice(0, Math.max(at, 0));
  const probe = at > 0 && Object.hasOwn(probes, prefix) ? probes[prefix] : undefined;
  return probe ? probe(db, attachedTo.slice(at + 1), fileId, reader) : "gone";
}
