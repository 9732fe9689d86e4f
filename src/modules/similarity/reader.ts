// What manager views show of the check: one query for the statuses, one for the top matches.
import { inArray, sql } from "drizzle-orm";
import type { Static } from "elysia";
import type { Db } from "../../platform/db/types";
import type { Similarity } from "./model";
import { similarityChecks as c } from "./tables";

type Record = Static<typeof Similarity>;

/** Before a row exists (a submission from before the check shipped) it reads as not yet checked. */
const PENDING: Record = { status: "PENDING", copyRatio: null, gptCopyRatio: null, matches: [] };

/** The `similarity` of each submission id (either kind), for a manager's view. */
export function similarityOf(db: Db, submissionIds: readonly string[]): (submissionId: string) => Record {
  if (submissionIds.length === 0) return () => PENDING;
  const ids = [...new Set(submissionIds)];
  const statuses = new Map(
    db
      .select({ id: c.submissionId, status: c.status })
      .from(c)
      .where(inArray(c.submissionId, ids))
      .all()
      .map((r) => [r.id, r.status]),
  );
  // the 3 best pairs of each submission, walked down the (submission_id, ratio) index
  const top = db.all<{ submissionId: string; otherId: string; ratio: number; displayName: string | null }>(sql`
    SELECT mc.submission_id AS submissionId, oc.submission_id AS otherId, p.ratio AS ratio, oc.display_name AS displayName
    FROM similarity_checks mc
    JOIN similarity_pairs p ON p.rowid IN (
      SELECT rowid FROM similarity_pairs WHERE check_seq = mc.seq ORDER BY ratio DESC, other_seq LIMIT 3)
    JOIN similarity_checks oc ON oc.seq = p.other_seq
    WHERE mc.submission_id IN (SELECT value FROM json_each(${JSON.stringify(ids)}))
    ORDER BY mc.seq, p.ratio DESC, p.other_seq`);
  const matches = new Map<string, Record["matches"]>();
  for (const m of top) {
    const list = matches.get(m.submissionId) ?? [];
    list.push({ submissionId: m.otherId, displayName: m.displayName, copyRatio: m.ratio });
    matches.set(m.submissionId, list);
  }
  return (id) => {
    const status = statuses.get(id);
    if (!status || status === "PENDING") return PENDING;
    if (status === "FAILED") return { status, copyRatio: null, gptCopyRatio: null, matches: [] };
    const list = matches.get(id) ?? [];
    return { status, copyRatio: list[0]?.copyRatio ?? 0, gptCopyRatio: null, matches: list };
  };
}
