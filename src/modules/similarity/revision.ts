import type { SimilarityKind } from "./tables";

/** A submission revision as the check takes it, from a submit or from the back-fill of older ones. */
export type SimilarityRevision = {
  kind: SimilarityKind;
  contentId: string;
  submissionId: string;
  /** The submitter's profileId, or the groupId: its older revisions leave the comparison pool. */
  ownerId: string;
  /** Shown to managers in others' `matches`. */
  displayName: string | null;
  body: string | null;
  fileIds: readonly string[];
};

/** Revisions in id order (UUIDv7: submit order) after `afterId`, at most `limit`, with their submit time. */
export type RevisionSource = (
  db: import("../../platform/db/types").Db,
  afterId: string | null,
  limit: number,
) => (SimilarityRevision & { submittedAt: number })[];

const sources = new Map<SimilarityKind, RevisionSource>();

/**
 * A submitting feature hands the check where its revisions are (wired in src/app.ts), so the
 * similarity module imports no feature (docs/rules/submissions.md#similarity).
 */
export function registerRevisionSource(kind: SimilarityKind, source: RevisionSource) {
  sources.set(kind, source);
}

/** Every registered source, in registration order (the back-fill walks each). */
export const revisionSources = (): RevisionSource[] => [...sources.values()];
