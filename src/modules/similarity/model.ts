import { t } from "elysia";
import { Enum, Nullable } from "../../platform/http/schemas";
import { SIMILARITY_STATUSES } from "./tables";

const Percent = (description: string) => t.Number({ minimum: 0, maximum: 100, description });

export const SimilarityMatch = t.Object({
  submissionId: t.String({ description: "The other submission (its latest revision when the check ran)" }),
  displayName: Nullable(t.String({ description: "The other submitter, or the group's name" })),
  copyRatio: Percent("% of this submission's fingerprints found in that one"),
});

/** Submission.similarity and GroupSubmission.similarity (docs/rules/submissions.md#similarity): managers only, null for participants. */
export const Similarity = t.Object(
  {
    status: Enum(SIMILARITY_STATUSES, {
      description: "PENDING until the background check has run; FAILED when an attachment could not be read (the reason is logged)",
    }),
    copyRatio: Nullable(
      Percent(
        "% of this submission's winnowed fingerprints (character 13-grams of the normalised text) found in the single most similar other latest submission of the same content; 0 with nothing to compare; null unless COMPLETED",
      ),
    ),
    gptCopyRatio: t.Null({
      description: "Always null: no offline detector of generated text is trustworthy enough to accuse a student",
    }),
    matches: t.Array(SimilarityMatch, { maxItems: 3, description: "Up to 3 other submissions, most similar first" }),
  },
  {
    description:
      "Text = the body plus plain-text, Markdown, PDF and DOCX attachments (other types are skipped); checked after the response, so it starts PENDING",
  },
);
