// Assignment config and rubric: the manager's writes, the viewers' reads (docs/rules/submissions.md#assignment-config).
import { eq } from "drizzle-orm";
import type { Static } from "elysia";
import type { Actor } from "../../platform/auth/actor";
import { type Db, write } from "../../platform/db/types";
import { type FieldError, invalidMany, notFound } from "../../platform/http/errors";
import { iso, parseTime } from "../../platform/http/schemas";
import { contentForManager, contentForViewer } from "../library/access";
import { dueMomentsChanged } from "../notifications/due";
import { dueAtFor } from "./deadlines";
import type { AssignmentConfig, AssignmentConfigBody, Rubric, RubricBody } from "./model";
import { assignmentConfigs, assignmentRubrics, type StoredCriterion } from "./tables";

export const ASSIGNMENT = "ASSIGNMENT" as const;

export type ConfigRow = Omit<typeof assignmentConfigs.$inferSelect, "contentId" | "updatedAt">;
export type RubricRow = Omit<typeof assignmentRubrics.$inferSelect, "contentId" | "updatedAt">;

const DEFAULT_CONFIG: ConfigRow = {
  maxScore: null,
  allowLateSubmit: false,
  allowResubmit: false,
  bodyRequired: false,
  fileRequired: false,
  dueAt: null,
};
const DEFAULT_RUBRIC: RubricRow = { useLevel: false, visibility: "VISIBLE_ALL", criteria: [] };

/** The stored config of an assignment, or the defaults before the first save. */
export function loadAssignmentConfig(db: Db, contentId: string): ConfigRow {
  const row = db.select().from(assignmentConfigs).where(eq(assignmentConfigs.contentId, contentId)).get();
  if (!row) return { ...DEFAULT_CONFIG };
  const { contentId: _, updatedAt: __, ...cfg } = row;
  return cfg;
}

/** The stored rubric of an assignment, or the empty one (no criteria, VISIBLE_ALL) before the first save. */
export function loadAssignmentRubric(db: Db, contentId: string): RubricRow {
  const row = db.select().from(assignmentRubrics).where(eq(assignmentRubrics.contentId, contentId)).get();
  if (!row) return { ...DEFAULT_RUBRIC };
  return { useLevel: row.useLevel, visibility: row.visibility, criteria: row.criteria };
}

const toConfig = (c: ConfigRow): Static<typeof AssignmentConfig> => ({
  maxScore: c.maxScore,
  allowLateSubmit: c.allowLateSubmit,
  allowResubmit: c.allowResubmit,
  bodyRequired: c.bodyRequired,
  fileRequired: c.fileRequired,
  dueAt: iso(c.dueAt),
});

const toRubric = (r: RubricRow): Static<typeof Rubric> => ({
  useLevel: r.useLevel,
  visibility: r.visibility,
  criteria: r.criteria.map((c, index) => ({ ...c, index })),
  totalMaxPoints: r.criteria.reduce((sum, c) => sum + c.maxPoints, 0),
});

/** setAssignmentConfig: full replace; absent fields take their defaults. Submissions keep what they copied. */
export function setAssignmentConfig(actor: Actor, contentId: string, body: Static<typeof AssignmentConfigBody>, now = Date.now()) {
  return write(actor.db, (tx) => {
    contentForManager(actor, contentId, ASSIGNMENT, tx);
    const cfg: ConfigRow = {
      maxScore: body.maxScore ?? null,
      allowLateSubmit: body.allowLateSubmit ?? false,
      allowResubmit: body.allowResubmit ?? false,
      bodyRequired: body.bodyRequired ?? false,
      fileRequired: body.fileRequired ?? false,
      dueAt: body.dueAt == null ? null : parseTime(body.dueAt),
    };
    const row = { ...cfg, updatedAt: now };
    tx.insert(assignmentConfigs)
      .values({ contentId, ...row })
      .onConflictDoUpdate({ target: assignmentConfigs.contentId, set: row })
      .run();
    dueMomentsChanged(tx, actor, contentId, ASSIGNMENT);
    return toConfig(cfg);
  });
}

/** getAssignmentConfig: any viewer (participants need dueAt and the rules). */
export function getAssignmentConfig(actor: Actor, contentId: string) {
  const content = contentForViewer(actor, contentId, ASSIGNMENT);
  const cfg = loadAssignmentConfig(actor.db, contentId);
  // A participant with an extension sees their own deadline.
  return toConfig(content.canManage ? cfg : { ...cfg, dueAt: dueAtFor(actor.db, contentId, actor.profileId, cfg.dueAt) });
}

/**
 * Validates a rubric body against the stored rubric: ids must name a stored criterion (level of
 * that criterion) and appear once; a level's points at most its criterion's maxPoints; with
 * useLevel every criterion needs a level. 400 naming every bad field. An absent name is empty, an
 * absent maxPoints the largest level's points (0 without levels).
 */
function normalizeRubric(current: RubricRow, body: Static<typeof RubricBody>): RubricRow {
  const errors: FieldError[] = [];
  const err = (field: string, message: string) => errors.push({ in: "body", field, message });
  const stored = new Map(current.criteria.map((c) => [c.id, c]));
  const seen = new Set<string>();
  const criteria = body.criteria.map((c, i): StoredCriterion => {
    const at = `criteria[${i}]`;
    let old: StoredCriterion | undefined;
    if (c.id !== undefined) {
      old = stored.get(c.id);
      if (!old) err(`${at}.id`, "must be a criterion of this rubric");
      else if (seen.has(c.id)) err(`${at}.id`, "repeats an earlier criterion");
      seen.add(c.id);
    }
    const maxPoints = c.maxPoints ?? Math.max(0, ...(c.levels ?? []).map((l) => l.points));
    const oldLevels = new Set((old?.levels ?? []).map((l) => l.id));
    const seenLevels = new Set<string>();
    const levels = (c.levels ?? []).map((l, j) => {
      if (l.id !== undefined) {
        if (!oldLevels.has(l.id)) err(`${at}.levels[${j}].id`, "must be a level of this criterion");
        else if (seenLevels.has(l.id)) err(`${at}.levels[${j}].id`, "repeats an earlier level");
        seenLevels.add(l.id);
      }
      if (l.points > maxPoints) err(`${at}.levels[${j}].points`, "must be at most the criterion's maxPoints");
      return { id: l.id ?? Bun.randomUUIDv7(), name: l.name, description: l.description ?? null, points: l.points };
    });
    if (body.useLevel && levels.length === 0) err(`${at}.levels`, "must have at least one level when useLevel is true");
    return { id: c.id ?? Bun.randomUUIDv7(), name: c.name ?? "", description: c.description ?? null, maxPoints, levels };
  });
  if (errors.length) throw invalidMany(errors);
  return { useLevel: body.useLevel, visibility: body.visibility, criteria };
}

/** setAssignmentRubric: full replace. Existing grades keep the items and points they were given. */
export function setAssignmentRubric(actor: Actor, contentId: string, body: Static<typeof RubricBody>, now = Date.now()) {
  return write(actor.db, (tx) => {
    contentForManager(actor, contentId, ASSIGNMENT, tx);
    const next = normalizeRubric(loadAssignmentRubric(tx, contentId), body);
    const row = { ...next, updatedAt: now };
    tx.insert(assignmentRubrics)
      .values({ contentId, ...row })
      .onConflictDoUpdate({ target: assignmentRubrics.contentId, set: row })
      .run();
    return toRubric(next);
  });
}

/** getAssignmentRubric: managers always; other viewers only while it is VISIBLE_ALL, else 404. */
export function getAssignmentRubric(actor: Actor, contentId: string) {
  const content = contentForViewer(actor, contentId, ASSIGNMENT);
  const rubric = loadAssignmentRubric(actor.db, contentId);
  if (!content.canManage && rubric.visibility !== "VISIBLE_ALL") throw notFound();
  return toRubric(rubric);
}
