// The database side of one check: the owner's older revisions leave the pool, this one's
// fingerprints go in, and the overlap with every other submission is counted by index probes.
import { and, eq, gt, inArray, ne, sql } from "drizzle-orm";
import { type Db, inJsonList, write } from "../../platform/db/types";
import { similarityChecks as c, similarityFingerprints as f, similarityPairs as p } from "./tables";

/** Rows per INSERT: under SQLite's host-parameter limit with 3 columns. */
const INSERT_CHUNK = 300;

export type CheckInput = { submissionId: string; contentId: string; ownerId: string };

/**
 * Records one revision's figures in one transaction; false when it is no longer PENDING (checked by
 * another server or gone with its content). A revision already superseded by its owner's newer one
 * gets its own figures but stays out of the pool, so others are never compared with it.
 */
export function recordCheck(db: Db, job: CheckInput, prints: Set<number>, now = Date.now()): boolean {
  return write(db, (tx) => {
    const row = tx.select({ status: c.status }).from(c).where(eq(c.submissionId, job.submissionId)).get();
    if (row?.status !== "PENDING") return false;
    const mine = and(eq(c.contentId, job.contentId), eq(c.ownerId, job.ownerId));
    const newer = tx
      .select({ id: c.submissionId })
      .from(c)
      .where(and(mine, gt(c.submissionId, job.submissionId)))
      .limit(1)
      .get();
    if (!newer) {
      // this is the owner's latest: its older revisions leave the pool and others' matches with them
      const older = tx
        .select({ id: c.submissionId })
        .from(c)
        .where(and(mine, ne(c.submissionId, job.submissionId)))
        .all()
        .map((r) => r.id);
      if (older.length) {
        tx.delete(f).where(inArray(f.submissionId, older)).run();
        tx.delete(p).where(inArray(p.otherId, older)).run();
      }
    }
    const hashes = [...prints];
    const overlap = hashes.length
      ? tx
          .select({ otherId: f.submissionId, shared: sql<number>`count(*)`, total: c.fingerprintCount })
          .from(f)
          .innerJoin(c, eq(c.submissionId, f.submissionId))
          .where(and(eq(f.contentId, job.contentId), inJsonList(f.hash, hashes.map(String)), ne(c.ownerId, job.ownerId)))
          .groupBy(f.submissionId)
          .all()
      : [];
    const pairs = overlap.flatMap((o) => {
      const mineRatio = { submissionId: job.submissionId, otherId: o.otherId, ratio: (o.shared / hashes.length) * 100 };
      // the earlier submission's figure toward this one, when this one joins the pool
      const theirs = !newer && o.total ? [{ submissionId: o.otherId, otherId: job.submissionId, ratio: (o.shared / o.total) * 100 }] : [];
      return [mineRatio, ...theirs];
    });
    for (let i = 0; i < pairs.length; i += INSERT_CHUNK) {
      tx.insert(p)
        .values(pairs.slice(i, i + INSERT_CHUNK))
        .onConflictDoUpdate({ target: [p.submissionId, p.otherId], set: { ratio: sql`excluded.ratio` } })
        .run();
    }
    if (!newer) {
      const rows = hashes.map((hash) => ({ contentId: job.contentId, hash, submissionId: job.submissionId }));
      for (let i = 0; i < rows.length; i += INSERT_CHUNK)
        tx.insert(f)
          .values(rows.slice(i, i + INSERT_CHUNK))
          .onConflictDoNothing()
          .run();
    }
    tx.update(c)
      .set({ status: "COMPLETED", fingerprintCount: hashes.length, body: null, checkedAt: now })
      .where(eq(c.submissionId, job.submissionId))
      .run();
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
