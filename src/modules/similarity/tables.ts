import { index, integer, primaryKey, real, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { libraryContents } from "../library/tables";

export const SIMILARITY_KINDS = ["ASSIGNMENT", "GROUP_ASSIGNMENT"] as const;
export type SimilarityKind = (typeof SIMILARITY_KINDS)[number];
export const SIMILARITY_STATUSES = ["PENDING", "COMPLETED", "FAILED"] as const;

/**
 * One row per submission revision (either assignment kind), written in the submit transaction, so
 * a job lost with the process is found again by its PENDING status at the next start. `body` and
 * `file_ids` are the job's input, copied so the check never reads another module's tables; the body
 * is cleared once checked. `owner_id` is the submitter's profile (or the group): its older revisions
 * leave the comparison pool when a newer one is checked.
 */
export const similarityChecks = sqliteTable(
  "similarity_checks",
  {
    submissionId: text("submission_id").primaryKey(),
    kind: text("kind", { enum: SIMILARITY_KINDS }).notNull(),
    contentId: text("content_id")
      .notNull()
      .references(() => libraryContents.id, { onDelete: "cascade" }),
    ownerId: text("owner_id").notNull(),
    displayName: text("display_name"),
    status: text("status", { enum: SIMILARITY_STATUSES }).notNull(),
    body: text("body"),
    fileIds: text("file_ids", { mode: "json" }).$type<string[]>().notNull(),
    fingerprintCount: integer("fingerprint_count"),
    createdAt: integer("created_at").notNull(),
    checkedAt: integer("checked_at"),
  },
  (t) => [
    // the startup scan for jobs lost with the process
    index("similarity_checks_status_idx").on(t.status),
    // an owner's revisions of one content (which ones leave the pool; is this one still the latest)
    index("similarity_checks_owner_idx").on(t.contentId, t.ownerId, t.submissionId),
  ],
);

/**
 * The winnowed fingerprints of the latest checked revision of every owner, per content: a new
 * submission finds every other one sharing a hash with index probes, never re-reading their texts.
 */
export const similarityFingerprints = sqliteTable(
  "similarity_fingerprints",
  {
    contentId: text("content_id").notNull(),
    hash: integer("hash").notNull(),
    submissionId: text("submission_id")
      .notNull()
      .references(() => similarityChecks.submissionId, { onDelete: "cascade" }),
  },
  (t) => [
    primaryKey({ columns: [t.contentId, t.hash, t.submissionId] }),
    // removing a revision's fingerprints when its owner's next one is checked
    index("similarity_fingerprints_submission_idx").on(t.submissionId),
  ],
);

/**
 * `ratio` = % of `submission_id`'s fingerprints found in `other_id` (asymmetric: both directions are
 * stored). copyRatio and the top-3 matches are read from here, so an earlier submission's figures
 * follow a later near-copy without rewriting it.
 */
export const similarityPairs = sqliteTable(
  "similarity_pairs",
  {
    submissionId: text("submission_id")
      .notNull()
      .references(() => similarityChecks.submissionId, { onDelete: "cascade" }),
    otherId: text("other_id")
      .notNull()
      .references(() => similarityChecks.submissionId, { onDelete: "cascade" }),
    ratio: real("ratio").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.submissionId, t.otherId] }),
    // the reader's top matches per submission, and dropping pairs toward a superseded revision
    index("similarity_pairs_ratio_idx").on(t.submissionId, t.ratio),
    index("similarity_pairs_other_idx").on(t.otherId),
  ],
);
