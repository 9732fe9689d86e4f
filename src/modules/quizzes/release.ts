// What quizzes tell the notifications module when results reach their takers (docs/rules/notifications.md#kinds).
import { and, eq, isNotNull, isNull } from "drizzle-orm";
import type { Db } from "../../platform/db/types";
import { gradeReturned } from "../library/notify";
import type { Scope } from "../notifications/hooks";
import { quizAttempts } from "./tables";

/**
 * GRADE_RETURNED to everyone with a submitted, fully scored attempt that counts: a quiz's results
 * turned from STATUS_ONLY to a level that shows them.
 */
export function quizResultsReleased(tx: Db, scope: Scope & { memberId: string }, contentId: string, now: number) {
  const takers = tx
    .selectDistinct({ profileId: quizAttempts.profileId })
    .from(quizAttempts)
    .where(and(eq(quizAttempts.contentId, contentId), isNotNull(quizAttempts.scoringCompletedAt), isNull(quizAttempts.voidedAt)))
    .all();
  gradeReturned(
    tx,
    scope,
    contentId,
    takers.map((t) => t.profileId),
    now,
  );
}
