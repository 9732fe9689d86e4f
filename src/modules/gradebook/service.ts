// The space gradebook and a participant's own grades (docs/rules/next-year.md#gradebook; manual columns,
// weights and totals: docs/rules/next-year.md#gradebook). A fixed number of queries per gradebook,
// whatever its size: each area hands over all its cells at once.
import { eq } from "drizzle-orm";
import type { Static } from "elysia";
import type { Actor } from "../../platform/auth/actor";
import type { Db } from "../../platform/db/types";
import { members } from "../../schema/members";
import { GRADABLE_TYPES, type GradableType, gradableContents } from "../library/access";
import { requireSpaceAdmin, requireSpaceMember } from "../spaces/access";
import { activeParticipants, type GradebookEntry, gradebookRoster } from "../spaces/roster";
import { type GradeCell, gradeSource } from "./cells";
import { contentWeights, manualColumns, manualScores } from "./columns";
import type { Gradebook, GradebookColumn, GradebookRow, MyGrades } from "./model";

type Column = Static<typeof GradebookColumn>;
type Cell = Static<typeof GradebookRow>["cells"][number];
/** Managers see every score; a participant only released ones (docs/rules/submissions.md#returned-grades). */
type View = "manager" | "participant";

const keyOf = (c: { contentId: string | null; columnId?: string }) => (c.contentId ?? c.columnId) as string;

/** The columns (contents, then manual ones) and every cell of the space (of one profile when given), keyed by column then profile. */
function gradesOf(db: Db, spaceId: string, profileId: string | null) {
  const contents = gradableContents(db, spaceId);
  const ids = (type: GradableType) => contents.filter((c) => c.type === type).map((c) => c.id);
  const grades = new Map(GRADABLE_TYPES.flatMap((type) => [...(gradeSource(type)?.(db, ids(type), profileId) ?? [])]));
  const weights = contentWeights(
    db,
    contents.map((c) => c.id),
  );
  const cells = new Map<string, Map<string, GradeCell>>([...grades].map(([id, g]) => [id, g.cells]));
  const columns: Column[] = contents.map((c) => ({
    contentId: c.id,
    type: c.type,
    title: c.title,
    maxScore: grades.get(c.id)?.maxScore ?? null,
    weight: weights.get(c.id) ?? 1,
  }));
  const manual = manualColumns(db, spaceId);
  const scores = manualScores(
    db,
    manual.map((m) => m.id),
    profileId,
  );
  const manualCells = new Map<string, Map<string, GradeCell>>(manual.map((m) => [m.id, new Map()]));
  for (const [key, score] of scores) {
    const [columnId = "", who = ""] = key.split(":");
    manualCells.get(columnId)?.set(who, { score, status: "GRADED", released: true });
  }
  for (const m of manual) {
    columns.push({ contentId: null, columnId: m.id, type: "MANUAL", title: m.title, maxScore: m.maxScore, weight: m.weight });
    cells.set(m.id, manualCells.get(m.id) as Map<string, GradeCell>);
  }
  return { columns, cells };
}

/** Σ(weight × score ÷ maxScore) ÷ Σ(weight of the columns with a score) × 100; null without any score (docs/rules/next-year.md#total). */
export function totalOf(columns: Column[], cells: Cell[]): number | null {
  let sum = 0;
  let weights = 0;
  let any = false;
  columns.forEach((c, i) => {
    const score = cells[i]?.score ?? null;
    if (score === null || c.maxScore === null || c.maxScore <= 0) return;
    any = true;
    sum += (c.weight * score) / c.maxScore;
    weights += c.weight;
  });
  if (!any) return null;
  return weights === 0 ? 0 : (sum / weights) * 100;
}

function rowOf(
  who: GradebookEntry,
  columns: Column[],
  cells: Map<string, Map<string, GradeCell>>,
  view: View,
): Static<typeof GradebookRow> {
  const row: Cell[] = columns.map((c) => {
    const cell = cells.get(keyOf(c))?.get(who.profileId);
    // A content column's cell keeps the shape it always had; a manual column's names its column.
    const id = c.columnId ? { contentId: null, columnId: c.columnId } : { contentId: c.contentId };
    if (!cell) return { ...id, score: null, status: "NOT_SUBMITTED" };
    return {
      ...id,
      score: view === "manager" || cell.released ? cell.score : null,
      status: cell.status,
    };
  });
  return {
    profileId: who.profileId,
    displayName: who.displayName,
    userId: who.userId,
    isActive: who.isActive,
    cells: row,
    total: totalOf(columns, row),
  };
}

/** getSpaceGradebook: one row per active PARTICIPANT, and with includeInactive those who left or were deactivated (spaceAdmin). */
export function getSpaceGradebook(actor: Actor, spaceId: string, opts: { includeInactive?: boolean } = {}): Static<typeof Gradebook> {
  requireSpaceAdmin(actor, spaceId);
  const { columns, cells } = gradesOf(actor.db, spaceId, null);
  const roster: GradebookEntry[] = opts.includeInactive
    ? gradebookRoster(actor.db, spaceId, [...new Set([...cells.values()].flatMap((m) => [...m.keys()]))])
    : activeParticipants(actor.db, spaceId).map((p) => ({ ...p, isActive: true }));
  return { columns, rows: roster.map((p) => rowOf(p, columns, cells, "manager")) };
}

/** getMyGrades: the caller's own row (any enrolled member), released scores only. */
export function getMyGrades(actor: Actor, spaceId: string): Static<typeof MyGrades> {
  requireSpaceMember(actor, spaceId);
  const me = actor.db
    .select({ displayName: members.displayName, userId: members.userId })
    .from(members)
    .where(eq(members.id, actor.memberId))
    .get();
  const who = {
    memberId: actor.memberId,
    profileId: actor.profileId,
    displayName: me?.displayName ?? "",
    userId: me?.userId ?? null,
    isActive: true,
  };
  return studentGrades(actor.db, spaceId, who);
}

/**
 * What getMyGrades shows `who` in the space (released scores only), for a reader whose right to
 * see it is checked by the caller: the student, or a guardian (docs/rules/members.md#overview).
 */
export function studentGrades(db: Db, spaceId: string, who: GradebookEntry): Static<typeof MyGrades> {
  const { columns, cells } = gradesOf(db, spaceId, who.profileId);
  return { columns, row: rowOf(who, columns, cells, "participant") };
}
