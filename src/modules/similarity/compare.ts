// The database side of one check, in short steps: the owner's older revisions leave the pool, this
// one's fingerprints go in, and the overlap with every other submission is counted by index probes.
// Each fingerprint write touches its own page of the (hash, check_seq) index, so the writes go in
// small transactions that the job interleaves with requests; every step may run twice safely.
import { and, eq, gt, inArray, ne, sql } from "drizzle-orm";
import { type Db, write } from "../../platform/db/types";
import { similarityChecks as c, similarityFingerprints as f, similarityPairs as p } from "./tables";

/** Fingerprints written or removed per transaction: a few milliseconds of a server's event loop. */
export const WRITE_CHUNK = 100;

export type CheckRow = { seq: number; contentId: string; ownerId: string };
type Overlap = { otherSeq: number; shared: number; total: number | null };

/**
 * Whether the check still has to run (PENDING), and whether its revision is its owner's latest:
 * only the latest joins the pool, and then the owner's older revisions (`older`) leave it.
 */
export function beginCheck(db: Db, job: CheckRow): { latest: boolean; older: number[] } | null {
  const row = db.select({ status: c.status }).from(c).where(eq(c.seq, job.seq)).get();
  if (row?.status !== "PENDING") return null;
  const mine = and(eq(c.contentId, job.contentId), eq(c.ownerId, job.ownerId));
  const newer = db
    .select({ seq: c.seq })
    .from(c)
    .where(and(mine, gt(c.seq, job.seq)))
    .limit(1)
    .get();
  if (newer) return { latest: false, older: [] };
  const older = db
    .select({ seq: c.seq })
    .from(c)
    .where(and(mine, ne(c.seq, job.seq)))
    .all()
    .map((r) => r.seq);
  return { latest: true, older };
}

/** Removes up to WRITE_CHUNK fingerprints of superseded revisions; the count removed (0 = done). */
export function dropFingerprints(db: Db, older: number[]): number {
  if (older.length === 0) return 0;
  return write(db, (tx) => {
    const chunk = tx.select({ hash: f.hash, checkSeq: f.checkSeq }).from(f).where(inArray(f.checkSeq, older)).limit(WRITE_CHUNK).all();
    for (const r of chunk)
      tx.delete(f)
        .where(and(eq(f.hash, r.hash), eq(f.checkSeq, r.checkSeq)))
        .run();
    return chunk.length;
  });
}

/** Adds a slice of this revision's fingerprints to the pool (sorted: neighbouring index pages). */
export function addFingerprints(db: Db, seq: number, hashes: number[]) {
  if (hashes.length === 0) return;
  write(db, (tx) =>
    tx
      .insert(f)
      .values(hashes.map((hash) => ({ hash, checkSeq: seq })))
      .onConflictDoNothing()
      .run(),
  );
}

/**
 * The fingerprints shared with each other submission of the content (other owners only).
 * Hash-driven on purpose (CROSS JOIN fixes the order): one (hash, check_seq) probe per
 * fingerprint, never a walk over every fingerprint of the content's other submissions.
 */
export function overlapOf(db: Db, job: CheckRow, hashes: number[]): Overlap[] {
  if (hashes.length === 0) return [];
  return db.all<Overlap>(sql`
    SELECT f.check_seq AS otherSeq, count(*) AS shared, c.fingerprint_count AS total
    FROM json_each(${JSON.stringify(hashes)}) j
    CROSS JOIN similarity_fingerprints f ON f.hash = j.value
    CROSS JOIN similarity_checks c ON c.seq = f.check_seq
    WHERE c.content_id = ${job.contentId} AND c.owner_id <> ${job.ownerId} AND c.status = 'COMPLETED'
    GROUP BY f.check_seq`);
}

/**
 * The figures, in one transaction: this revision's ratio toward each overlapping submission and,
 * when it joins the pool, theirs toward it (an earlier submission's copyRatio follows a later
 * near-copy); pairs toward the owner's superseded revisions go; status COMPLETED.
 */
export function finishCheck(db: Db, job: CheckRow, start: { latest: boolean; older: number[] }, count: number, overlap: Overlap[]) {
  write(db, (tx) => {
    if (start.older.length) tx.delete(p).where(inArray(p.otherSeq, start.older)).run();
    const pairs = overlap.flatMap((o) => {
      const mine = { checkSeq: job.seq, otherSeq: o.otherSeq, ratio: (o.shared / count) * 100 };
      const theirs = start.latest && o.total ? [{ checkSeq: o.otherSeq, otherSeq: job.seq, ratio: (o.shared / o.total) * 100 }] : [];
      return [mine, ...theirs];
    });
    for (let i = 0; i < pairs.length; i += 300) {
      tx.insert(p)
        .values(pairs.slice(i, i + 300))
        .onConflictDoUpdate({ target: [p.checkSeq, p.otherSeq], set: { ratio: sql`excluded.ratio` } })
        .run();
    }
    tx.update(c)
      .set({ status: "COMPLETED", fingerprintCount: count, body: null, checkedAt: Date.now() })
      .where(and(eq(c.seq, job.seq), eq(c.status, "PENDING")))
      .run();
  });
}

/** A check whose text could not be read: FAILED, with the reason in the log (never in the API). */
export function recordFailure(db: Db, submissionId: string, now = Date.now()) {
  write(db, (tx) =>
    tx
      .update(c)
      .set({ status: "FAILED", body: null, checkedAt: now })
      .where(and(eq(c.submissionId, submissionId), eq(c.status, "PENDING")))
      .run(),
  );
}
