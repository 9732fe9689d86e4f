// An assignment's config and rubric in a copy (docs/rules/next-year.md#copies): no deadline, no
// submissions or extensions; the rubric's criteria and levels get fresh ids.
import { eq } from "drizzle-orm";
import type { Db } from "../../platform/db/types";
import type { CopyContext } from "../library/copy";
import { assignmentConfigs, assignmentRubrics } from "./tables";

export function copyAssignmentConfig(tx: Db, from: string, to: string, ctx: CopyContext) {
  const cfg = tx.select().from(assignmentConfigs).where(eq(assignmentConfigs.contentId, from)).get();
  if (cfg)
    tx.insert(assignmentConfigs)
      .values({ ...cfg, contentId: to, dueAt: null, updatedAt: ctx.now })
      .run();
  const rubric = tx.select().from(assignmentRubrics).where(eq(assignmentRubrics.contentId, from)).get();
  if (!rubric) return;
  const criteria = rubric.criteria.map((c) => ({
    ...c,
    id: Bun.randomUUIDv7(),
    levels: c.levels.map((l) => ({ ...l, id: Bun.randomUUIDv7() })),
  }));
  tx.insert(assignmentRubrics)
    .values({ ...rubric, contentId: to, criteria, updatedAt: ctx.now })
    .run();
}
