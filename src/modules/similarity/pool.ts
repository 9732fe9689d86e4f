// The similarity thread's memory of recent contents' pools: a check compares its sorted hashes
// with every other submission's by a merge walk (300 essays × ~1,000 hashes ≈ 1 ms), so only a
// pool's blobs are needed, ~4 KB per submission. An LRU bounded in bytes; an entry is used only
// while it matches the stored pool's stamp (another writer, a restore, a deleted content).
import type { Db } from "../../platform/db/types";
import { loadPool, type Member, poolStamp, stampOf } from "./compare";

/** Per-member overhead beyond its hashes (object, map entry), for the budget's arithmetic. */
const MEMBER_OVERHEAD = 96;

type Pool = { members: Map<number, Member>; bytes: number };

const pools = new Map<string, Pool>();
let budgetBytes = 8 * 1024 * 1024;

export function setPoolBudget(bytes: number) {
  budgetBytes = bytes;
}

function stampInMemory(pool: Pool) {
  let seqs = 0;
  let checkedAts = 0;
  for (const m of pool.members.values()) {
    seqs += m.seq;
    checkedAts += m.checkedAt;
  }
  return stampOf(pool.members.size, seqs, checkedAts);
}

function sized(members: Map<number, Member>): Pool {
  let bytes = 0;
  for (const m of members.values()) bytes += m.hashes.byteLength + MEMBER_OVERHEAD;
  return { members, bytes };
}

/** Drops the least recently used pools beyond the budget (the one in use stays). */
function trim(keep: string) {
  let total = 0;
  for (const p of pools.values()) total += p.bytes;
  for (const [key, p] of pools) {
    if (total <= budgetBytes) break;
    if (key === keep) continue;
    pools.delete(key);
    total -= p.bytes;
  }
}

/** The pool of a content of a tenant file, from memory when still current, else read from its blobs. */
export function poolOf(db: Db, path: string, contentId: string): Iterable<Member> {
  const key = `${path}\n${contentId}`;
  let pool = pools.get(key);
  pools.delete(key);
  if (!pool || stampInMemory(pool) !== poolStamp(db, contentId)) pool = sized(new Map(loadPool(db, contentId).map((m) => [m.seq, m])));
  pools.set(key, pool);
  trim(key);
  return pool.members.values();
}

/** After a check committed: the same change in memory (older revisions out, this one in); dropped when that does not match the file. */
export function updatePool(db: Db, path: string, contentId: string, leave: number[], join: Member | null) {
  const key = `${path}\n${contentId}`;
  const pool = pools.get(key);
  if (!pool) return;
  for (const seq of leave) pool.members.delete(seq);
  if (join) pool.members.set(join.seq, join);
  const next = sized(pool.members);
  if (stampInMemory(next) === poolStamp(db, contentId)) pools.set(key, next);
  else pools.delete(key);
  trim(key);
}

/** Forgets every pool of a tenant file (it was removed). */
export function forgetPools(path: string) {
  for (const key of pools.keys()) if (key.startsWith(`${path}\n`)) pools.delete(key);
}
