// The database side of one check, run on the similarity thread: the pool of a content is one blob
// of sorted fingerprints per submission, compared in memory (pool.ts); a check writes its blob, its
// pair rows and its status in one short transaction. Every step may run twice safely.
import { and, eq, gt, inArray, ne, or, sql } from "drizzle-orm";
import { type Db, write } from "../../platform/db/types";
import { similarityChecks as c, similarityFingerprints as f, similarityPairs as p, similarityPrints as prints } from "./tables";

export type CheckRow = { seq: number; contentId: string; ownerId: string; createdAt: number };
/** One submission of the pool: its owner (its own revisions are never compared), its sorted hashes, when it was checked. */
export type Member = { seq: number; ownerId: string; hashes: Uint32Array; checkedAt: number };
export type Overlap = { otherSeq: number; shared: number; total: number };
export type Start = { latest: boolean; older: number[] };

/** Sorted uint32 hashes ⇄ the stored blob (little-endian, as on every platform the binary ships for). */
export const toBlob = (hashes: Uint32Array) => Buffer.from(hashes.buffer, hashes.byteOffset, hashes.byteLength);
function fromBlob(bytes: Uint8Array): Uint32Array {
  // a copy: the blob's offset need not be 4-aligned
  const out = new Uint32Array(bytes.byteLength >>> 2);
  new Uint8Array(out.buffer).set(bytes.subarray(0, out.byteLength));
  return out;
}

/**
 * Whether the check still has to run (PENDING), and whether its revision is its owner's latest:
 * only the latest joins the pool, and then the owner's older revisions (`older`) leave it. Revision
 * order is created_at, then seq: a back-filled revision (created_at = its submit time) gets a seq
 * after the owner's later ones.
 */
export function beginCheck(db: Db, job: CheckRow): Start | null {
  const row = db.select({ status: c.status }).from(c).where(eq(c.seq, job.seq)).get();
  if (row?.status !== "PENDING") return null;
  const mine = and(eq(c.contentId, job.contentId), eq(c.ownerId, job.ownerId));
  const later = or(gt(c.createdAt, job.createdAt), and(eq(c.createdAt, job.createdAt), gt(c.seq, job.seq)));
  const newer = db.select({ seq: c.seq }).from(c).where(and(mine, later)).limit(1).get();
  if (newer) return { latest: false, older: [] };
  const older = db
    .select({ seq: c.seq })
    .from(c)
    .where(and(mine, ne(c.seq, job.seq)))
    .all()
    .map((r) => r.seq);
  return { latest: true, older };
}

/** What identifies a pool: it changes with every blob added or removed (pool.ts computes the same from memory). */
export const stampOf = (n: number, seqs: number, checkedAts: number) => `${n}:${seqs}:${checkedAts}`;

/** The stamp of a content's pool as stored. */
export function poolStamp(db: Db, contentId: string): string {
  const [r] = db.all<{ n: number; s: number; t: number }>(sql`
    SELECT count(*) AS n, total(p.check_seq) AS s, total(c.checked_at) AS t
    FROM similarity_prints p JOIN similarity_checks c ON c.seq = p.check_seq
    WHERE p.content_id = ${contentId}`);
  return stampOf(r?.n ?? 0, r?.s ?? 0, r?.t ?? 0);
}

/** A content's whole pool, read from its blobs. */
export function loadPool(db: Db, contentId: string): Member[] {
  return db
    .select({ seq: prints.checkSeq, ownerId: c.ownerId, hashes: prints.hashes, checkedAt: c.checkedAt })
    .from(prints)
    .innerJoin(c, eq(c.seq, prints.checkSeq))
    .where(eq(prints.contentId, contentId))
    .all()
    .map((r) => ({ seq: r.seq, ownerId: r.ownerId, hashes: fromBlob(r.hashes), checkedAt: r.checkedAt ?? 0 }));
}

/**
 * Moves the rows of the first version (one per fingerprint) into blobs, once per tenant file, in one
 * transaction; the emptied table stays (migrations are additive). The count of pool members moved.
 */
export function convertLegacy(db: Db): number {
  if (!db.get(sql`SELECT 1 FROM similarity_fingerprints LIMIT 1`)) return 0;
  return write(db, (tx) => {
    const bySeq = new Map<number, number[]>();
    for (const r of tx.select({ hash: f.hash, seq: f.checkSeq }).from(f).all()) {
      const list = bySeq.get(r.seq) ?? [];
      list.push(r.hash >>> 0);
      bySeq.set(r.seq, list);
    }
    const owners = tx
      .select({ seq: c.seq, contentId: c.contentId })
      .from(c)
      .where(inArray(c.seq, [...bySeq.keys()]))
      .all();
    for (const o of owners) {
      const hashes = Uint32Array.from(bySeq.get(o.seq) as number[]).sort();
      tx.insert(prints)
        .values({ checkSeq: o.seq, contentId: o.contentId, hashes: toBlob(hashes) })
        .onConflictDoNothing()
        .run();
    }
    tx.delete(f).run();
    return owners.length;
  });
}

/** How many values two ascending arrays share (a merge walk). */
function sharedCount(a: Uint32Array, b: Uint32Array): number {
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] as number;
    const y = b[j] as number;
    if (x === y) {
      n++;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return n;
}

/** The fingerprints shared with each other owner's submission in the pool (none shared: left out). */
export function overlapOf(pool: Iterable<Member>, job: CheckRow, hashes: Uint32Array): Overlap[] {
  const out: Overlap[] = [];
  if (hashes.length === 0) return out;
  for (const m of pool) {
    if (m.ownerId === job.ownerId) continue;
    const shared = sharedCount(hashes, m.hashes);
    if (shared > 0) out.push({ otherSeq: m.seq, shared, total: m.hashes.length });
  }
  return out;
}

/**
 * The whole check, in one transaction: the owner's superseded revisions leave the pool (their blob
 * and the pairs toward them), this one's blob joins it when it is the latest, its ratio toward each
 * overlapping submission and (when it joins) theirs toward it are stored, and its status → COMPLETED.
 * False when it was no longer PENDING (nothing written).
 */
export function finishCheck(db: Db, job: CheckRow, start: Start, hashes: Uint32Array, overlap: Overlap[], now: number): boolean {
  const count = hashes.length;
  return write(db, (tx) => {
    const done = tx
      .update(c)
      .set({ status: "COMPLETED", fingerprintCount: count, body: null, checkedAt: now })
      .where(and(eq(c.seq, job.seq), eq(c.status, "PENDING")))
      .returning({ seq: c.seq })
      .get();
    if (!done) return false;
    if (start.older.length) {
      tx.delete(prints).where(inArray(prints.checkSeq, start.older)).run();
      tx.delete(p).where(inArray(p.otherSeq, start.older)).run();
    }
    if (start.latest)
      tx.insert(prints)
        .values({ checkSeq: job.seq, contentId: job.contentId, hashes: toBlob(hashes) })
        .run();
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
