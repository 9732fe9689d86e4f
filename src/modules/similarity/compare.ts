// The database side of one check: the owner's older revisions leave the pool, this one's
// fingerprints go in, and the overlap with every other submission is counted by index probes.
import { and, eq, gt, inArray, ne, sql } from "drizzle-orm";
import { type Db, write } from "../../platform/db/types";
import { similarityChecks as c, similarityFingerprints as f, similarityPairs as p } from "./tables";

/** Rows per INSERT: under SQLite's host-parameter limit. */
const INSERT_CHUNK = 400;

export type CheckInput = { seq: number; contentId: string; ownerId: string };

/**
 * Records one revision's figures in one transaction; false when it is no longer PENDING (checked by
 * another server or gone with its content). A revision already superseded by its owner's newer one
 * gets its own figures but stays out of the pool, so others are never compared with it.
 */
export function recordCheck(db: Db, job: CheckInput, prints: Set<number>, now = Date.now()): boolean {
  return write(db, (tx) => {
    const row = tx.select({ status: c.status }).from(c).where(eq(c.seq, job.seq)).get();
    if (row?.status !== "PENDING") return false;
    const mine = and(eq(c.contentId, job.contentId), eq(c.ownerId, job.ownerId));
    const newer = tx
      .select({ seq: c.seq })
      .from(c)
      .where(and(mine, gt(c.seq, job.seq)))
      .limit(1)
      .get();
    if (!newer) {
      // this is the owner's latest: its older revisions leave the pool and others' matches with them
      const older = tx
        .select({ seq: c.seq })
        .from(c)
        .where(and(mine, ne(c.seq, job.seq)))
        .all()
        .map((r) => r.seq);
      if (older.length) {
        tx.delete(f).where(inArray(f.checkSeq, older)).run();
        tx.delete(p).where(inArray(p.otherSeq, older)).run();
      }
    }
    const hashes = [...prints];
    // one bound JSON list of integers (inJsonList binds text): the (hash, check_seq) key is probed per hash
    const overlap = hashes.length
      ? tx
          .select({ otherSeq: f.checkSeq, shared: sql<number>`count(*)`, total: c.fingerprintCount })
          .from(f)
          .innerJoin(c, eq(c.seq, f.checkSeq))
          .where(
            and(
              sql`${f.hash} IN (SELECT value FROM json_each(${JSON.stringify(hashes)}))`,
              eq(c.contentId, job.contentId),
              ne(c.ownerId, job.ownerId),
            ),
          )
          .groupBy(f.checkSeq)
          .all()
      : [];
    const pairs = overlap.flatMap((o) => {
      const mineRatio = { checkSeq: job.seq, otherSeq: o.otherSeq, ratio: (o.shared / hashes.length) * 100 };
      // the earlier submission's figure toward this one, when this one joins the pool
      const theirs = !newer && o.total ? [{ checkSeq: o.otherSeq, otherSeq: job.seq, ratio: (o.shared / o.total) * 100 }] : [];
      return [mineRatio, ...theirs];
    });
    for (let i = 0; i < pairs.length; i += INSERT_CHUNK) {
      tx.insert(p)
        .values(pairs.slice(i, i + INSERT_CHUNK))
        .onConflictDoUpdate({ target: [p.checkSeq, p.otherSeq], set: { ratio: sql`excluded.ratio` } })
        .run();
    }
    if (!newer) {
      // sorted: appends to the (hash, check_seq) b-tree in key order
      const rows = hashes.sort((a, b) => a - b).map((hash) => ({ hash, checkSeq: job.seq }));
      for (let i = 0; i < rows.length; i += INSERT_CHUNK)
        tx.insert(f)
          .values(rows.slice(i, i + INSERT_CHUNK))
          .onConflictDoNothing()
          .run();
    }
    tx.update(c).set({ status: "COMPLETED", fingerprintCount: hashes.length, body: null, checkedAt: now }).where(eq(c.seq, job.seq)).run();
    return true;
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
