// The similarity hook: the one place both submit operations tell the similarity check about a new
// revision, and where its result enters the manager's view (DECISIONS §9.2 submitAssignment).
import type { Db } from "../../platform/db/types";
import type { View } from "./view";

export type SubmittedRevision = {
  kind: "assignment" | "group-assignment";
  submissionId: string;
  contentId: string;
  body: string | null;
  fileIds: string[];
};

/** Called inside the submit transaction after the revision is stored. No checker runs yet. */
export function onRevisionSubmitted(_tx: Db, _revision: SubmittedRevision): void {}

/** The similarity block of a record: managers only; every revision stays PENDING until a checker runs. */
export function similarityView(view: View) {
  return view === "manager" ? { status: "PENDING" as const, copyRatio: null, gptCopyRatio: null } : null;
}
