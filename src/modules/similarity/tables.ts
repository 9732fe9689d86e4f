import { blob, index, integer, primaryKey, real, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { libraryContents } from "../../schema/library";

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
    /** The rowid: fingerprints and pairs key on it (integer keys made their writes ~3x cheaper and the file ~5x smaller than UUID text). Submit order. */
    seq: integer("seq").primaryKey(),
    submissionId: text("submission_id").notNull().unique(),
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
    index("similarity_checks_owner_idx").on(t.contentId, t.ownerId, t.seq),
  ],
);

/**
 * The comparison pool: the fingerprints of the latest checked revision of every owner, one row each,
 * as a blob of its distinct hashes sorted ascending (uint32, little-endian). One row per check instead
 * of one index entry per fingerprint (the first design, below): a check writes a few pages, not ~1,000
 * scattered ones (~4 MB of WAL). The similarity thread keeps the pool of recent contents in memory.
 */
export const similarityPrints = sqliteTable(
  "similarity_prints",
  {
    checkSeq: integer("check_seq")
      .primaryKey()
      .references(() => similarityChecks.seq, { onDelete: "cascade" }),
    contentId: text("content_id").notNull(),
    hashes: blob("hashes", { mode: "buffer" }).notNull(),
  },
  // a content's pool, read whole when the similarity thread has not got it in memory
  (t) => [index("similarity_prints_content_idx").on(t.contentId, t.checkSeq)],
);

/**
 * Superseded by similarity_prints: one row per fingerprint, from the first version. Rows left from it
 * are moved into similarity_prints when their content is next checked (compare.ts convertLegacy).
 */
export const similarityFingerprints = sqliteTable(
  "similarity_fingerprints",
  {
    hash: integer("hash").notNull(),
    checkSeq: integer("check_seq")
      .notNull()
      .references(() => similarityChecks.seq, { onDelete: "cascade" }),
  },
  (t) => [
    primaryKey({ columns: [t.hash, t.checkSeq] }),
    // removing a revision's fingerprints when its owner's next one is checked
    index("similarity_fingerprints_check_idx").on(t.checkSeq),
  ],
);

/**
 * `ratio` = % of `check_seq`'s fingerprints found in `other_seq` (asymmetric: both directions are
 * stored). copyRatio and the top-3 matches are read from here, so an earlier submission's figures
 * follow a later near-copy without rewriting it.
 */
export const similarityPairs = sqliteTable(
  "similarity_pairs",
  {
    checkSeq: integer("check_seq")
      .notNull()
      .references(() => similarityChecks.seq, { onDelete: "cascade" }),
    otherSeq: integer("other_seq")
      .notNull()
      .references(() => similarityChecks.seq, { onDelete: "cascade" }),
    ratio: real("ratio").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.checkSeq, t.otherSeq] }),
    // the reader's top matches per submission, and dropping pairs toward a superseded revision
    index("similarity_pairs_ratio_idx").on(t.checkSeq, t.ratio),
    index("similarity_pairs_other_idx").on(t.otherSeq),
  ],
);
