// A quiz's config in a copy (docs/rules/next-year.md#copies): settings and a new question set with
// fresh ids; no window, attempts or overrides.
import { eq } from "drizzle-orm";
import type { Db } from "../../platform/db/types";
import type { CopyContext } from "../library/copy";
import { freshQuestionIds, setFileIds } from "../question-sets/edit";
import { quizConfigs, quizQuestionSetFiles, quizQuestionSets } from "./tables";

export function copyQuizConfig(tx: Db, from: string, to: string, ctx: CopyContext) {
  const row = tx.select().from(quizConfigs).where(eq(quizConfigs.contentId, from)).get();
  if (!row) return;
  const set = tx
    .select({ questions: quizQuestionSets.questions })
    .from(quizQuestionSets)
    .where(eq(quizQuestionSets.id, row.questionSetId))
    .get();
  const questions = freshQuestionIds(set?.questions ?? []);
  const setId = Bun.randomUUIDv7();
  tx.insert(quizQuestionSets).values({ id: setId, contentId: to, questions, createdAt: ctx.now }).run();
  const fileIds = setFileIds(questions);
  if (fileIds.length)
    tx.insert(quizQuestionSetFiles)
      .values(fileIds.map((fileId) => ({ questionSetId: setId, fileId })))
      .run();
  tx.insert(quizConfigs)
    .values({ ...row, contentId: to, questionSetId: setId, opensAt: null, closesAt: null, updatedAt: ctx.now })
    .run();
}
