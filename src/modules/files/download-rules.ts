// Download-time checks of emitted file URLs (docs/rules/files.md#file-urls: a URL is signed over the file, the
// reader and the record that attaches it). One probe per `attachedTo` prefix, each exported by the
// module owning the record: "ok" streams, "forbidden" is 403, "gone" (and an unknown prefix) is 404.
import type { Db } from "../../platform/db/types";
import type { DownloadReader, DownloadRule } from "../../platform/files/tokens";
import { submissionFileDownload } from "../assignments/submissions";
import { challengeFileDownload } from "../challenges/hooks";
import { groupSubmissionFileDownload } from "../group-assignments/submissions";
import { contentFileDownload } from "../library/access";
import { loginPageImageDownload } from "../login-page/service";
import { messageFileDownload } from "../messages/access";
import { commentFileDownload, postFileDownload } from "../posts/access";
import { quizFileDownload } from "../quizzes/config";
import { spaceThumbnailDownload } from "../spaces/access";
import { surveyFileDownload } from "../surveys/config";

type Probe = (db: Db, recordId: string, fileId: string, reader: DownloadReader) => DownloadRule;

const probes: Record<string, Probe> = {
  post: (db, postId, fileId, reader) => postFileDownload(db, postId, fileId, reader.memberId),
  message: (db, messageId, fileId, reader) => messageFileDownload(db, messageId, fileId, reader.memberId),
  comment: (db, commentId, fileId, reader) => commentFileDownload(db, commentId, fileId, reader.memberId),
  content: contentFileDownload,
  challenge: challengeFileDownload,
  space: spaceThumbnailDownload,
  quiz: quizFileDownload,
  survey: surveyFileDownload,
  "assignment-submission": submissionFileDownload,
  "group-submission": groupSubmissionFileDownload,
};

/** Public records: their URLs name no reader (ANONYMOUS_READER); anyone holding one may download while the record still shows the file. */
const publicProbes: Record<string, (db: Db, recordId: string, fileId: string) => DownloadRule> = {
  "login-page": loginPageImageDownload,
};

function split(attachedTo: string): [prefix: string, recordId: string] {
  const at = attachedTo.indexOf(":");
  return at > 0 ? [attachedTo.slice(0, at), attachedTo.slice(at + 1)] : ["", ""];
}

/** The rule for one download token's `attachedTo` ("<prefix>:<record id>"). */
export function downloadRule(db: Db, attachedTo: string, fileId: string, reader: DownloadReader): DownloadRule {
  const [prefix, recordId] = split(attachedTo);
  const probe = Object.hasOwn(probes, prefix) ? probes[prefix] : undefined;
  return probe ? probe(db, recordId, fileId, reader) : "gone";
}

/** The rule for a token with no reader: only public records' files, else "gone". */
export function publicDownloadRule(db: Db, attachedTo: string, fileId: string): DownloadRule {
  const [prefix, recordId] = split(attachedTo);
  const probe = Object.hasOwn(publicProbes, prefix) ? publicProbes[prefix] : undefined;
  return probe ? probe(db, recordId, fileId) : "gone";
}
