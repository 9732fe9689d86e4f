// A group assignment's config in a copy (docs/rules/next-year.md#copies): no deadline, the group-set
// link as the copy context maps it, no submissions or extensions.
import { eq } from "drizzle-orm";
import type { Db } from "../../platform/db/types";
import { type CopyContext, copiedGroupSetLink } from "../library/copy";
import { groupAssignmentConfigs } from "./tables";

export function copyGroupAssignmentConfig(tx: Db, from: string, to: string, ctx: CopyContext) {
  const cfg = tx.select().from(groupAssignmentConfigs).where(eq(groupAssignmentConfigs.contentId, from)).get();
  if (!cfg) return;
  tx.insert(groupAssignmentConfigs)
    .values({
      ...cfg,
      contentId: to,
      ...copiedGroupSetLink(cfg, ctx),
      dueAt: null,
      updatedAt: ctx.now,
    })
    .run();
}
