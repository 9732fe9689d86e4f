// The similarity hook: the one place both submit operations hand a new revision to the similarity
// check (docs/rules/submissions.md#similarity), and where its result enters the manager's view.
import type { Db } from "../../platform/db/types";
import type { Runtime } from "../../platform/runtime";
import { enqueueSimilarity, type SimilarityJobInput } from "../similarity/jobs";
import { similarityOf } from "../similarity/reader";
import type { View } from "./view";

/**
 * Called inside the submit transaction after the revision is stored: its PENDING check commits with
 * it, and the check itself runs after the commit, off the request.
 */
export function onRevisionSubmitted(rt: Runtime, tenant: { tenantId: string }, tx: Db, revision: SimilarityJobInput): void {
  enqueueSimilarity(rt, tenant, tx, revision);
}

/** The similarity block of each of these revisions: managers only, null for participants (docs/rules/submissions.md#returned-grades). */
export function similarityView(db: Db, view: View, submissionIds: readonly string[]) {
  if (view !== "manager") return (_id: string) => null;
  return similarityOf(db, submissionIds);
}
