// A peer assessment's config in a copy (docs/rules/next-year.md#copies): questions with fresh ids,
// the group-set link as the copy context maps it, no assessments.
import { eq } from "drizzle-orm";
import type { Db } from "../../platform/db/types";
import { type CopyContext, copiedGroupSetLink } from "../library/copy";
import { peerAssessmentConfigs } from "./tables";

export function copyPeerAssessmentConfig(tx: Db, from: string, to: string, ctx: CopyContext) {
  const cfg = tx.select().from(peerAssessmentConfigs).where(eq(peerAssessmentConfigs.contentId, from)).get();
  if (!cfg) return;
  tx.insert(peerAssessmentConfigs)
    .values({
      ...cfg,
      contentId: to,
      snapshotId: Bun.randomUUIDv7(),
      ...copiedGroupSetLink(cfg, ctx),
      questions: cfg.questions.map((q) => ({ ...q, id: Bun.randomUUIDv7() })),
      updatedAt: ctx.now,
    })
    .run();
}
