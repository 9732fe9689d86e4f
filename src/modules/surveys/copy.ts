// A survey's config in a copy (docs/rules/next-year.md#copies): settings and questions with fresh
// ids, version 0, no window and no responses.
import { eq } from "drizzle-orm";
import type { Db } from "../../platform/db/types";
import type { CopyContext } from "../library/copy";
import { freshQuestionIds, setFileIds } from "../question-sets/edit";
import { surveyConfigFiles, surveyConfigs } from "./tables";

export function copySurveyConfig(tx: Db, from: string, to: string, ctx: CopyContext) {
  const row = tx.select().from(surveyConfigs).where(eq(surveyConfigs.contentId, from)).get();
  if (!row) return;
  const questions = freshQuestionIds(row.questions);
  tx.insert(surveyConfigs)
    .values({ ...row, contentId: to, questions, version: 0, opensAt: null, closesAt: null, updatedAt: ctx.now })
    .run();
  const fileIds = setFileIds(questions);
  if (fileIds.length)
    tx.insert(surveyConfigFiles)
      .values(fileIds.map((fileId) => ({ contentId: to, fileId })))
      .run();
}
