import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { libraryContents } from "../../schema/library";

export const PEER_SUBMIT_TYPES = ["GROUP_MEMBER", "INTER_GROUP"] as const;
export type PeerSubmitType = (typeof PEER_SUBMIT_TYPES)[number];
/** Every question's maximum score (docs/rules/group-work.md#peer-questions: fixed, not settable). */
export const PEER_MAX_SCORE = 5;

export type StoredPeerQuestion = { id: string; assessmentCriteria: string; criteriaSubText: string | null };

/**
 * One row per GROUP_PEER_ASSESSMENT content (absent = the defaults, not linked). The link columns
 * work as in group_assignment_configs (no foreign key; GROUP_SET_DELETED kept with the set's name).
 * `snapshot_id` changes on every save. The questions are one JSON document, always read whole.
 */
export const peerAssessmentConfigs = sqliteTable(
  "peer_assessment_configs",
  {
    contentId: text("content_id")
      .primaryKey()
      .references(() => libraryContents.id, { onDelete: "cascade" }),
    snapshotId: text("snapshot_id").notNull(),
    spaceGroupSetId: text("space_group_set_id"),
    spaceGroupSetName: text("space_group_set_name"),
    linkInvalidReason: text("link_invalid_reason", { enum: ["GROUP_SET_DELETED"] }),
    allowDescriptiveAssessment: integer("allow_descriptive_assessment", { mode: "boolean" }).notNull().default(false),
    allowSelfAssessment: integer("allow_self_assessment", { mode: "boolean" }).notNull().default(false),
    submitType: text("submit_type", { enum: PEER_SUBMIT_TYPES }).notNull().default("GROUP_MEMBER"),
    questions: text("questions", { mode: "json" }).$type<StoredPeerQuestion[]>().notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  // the group-set delete hook finds the configs linked to a set
  (t) => [index("peer_assessment_configs_set_idx").on(t.spaceGroupSetId)],
);

/**
 * One assessment per (content, assessor, target); a later PUT replaces it. `target_id` is a
 * profileId (GROUP_MEMBER) or a group id (INTER_GROUP); the target's and group's names are copies
 * so results keep targets that have since left the set.
 */
export const peerAssessments = sqliteTable(
  "peer_assessments",
  {
    id: text("id").primaryKey(),
    contentId: text("content_id")
      .notNull()
      .references(() => libraryContents.id, { onDelete: "cascade" }),
    assessorProfileId: text("assessor_profile_id").notNull(),
    targetId: text("target_id").notNull(),
    targetName: text("target_name").notNull(),
    groupId: text("group_id").notNull(),
    groupName: text("group_name").notNull(),
    submittedAt: integer("submitted_at").notNull(),
  },
  (t) => [
    uniqueIndex("peer_assessments_assessor_idx").on(t.contentId, t.assessorProfileId, t.targetId),
    index("peer_assessments_target_idx").on(t.contentId, t.targetId),
  ],
);

/** The scores (and comments) of an assessment, one per question; results aggregate them by target and question. */
export const peerAnswers = sqliteTable(
  "peer_answers",
  {
    assessmentId: text("assessment_id")
      .notNull()
      .references(() => peerAssessments.id, { onDelete: "cascade" }),
    contentId: text("content_id").notNull(),
    targetId: text("target_id").notNull(),
    questionId: text("question_id").notNull(),
    score: integer("score").notNull(),
    comment: text("comment"),
  },
  (t) => [
    primaryKey({ columns: [t.assessmentId, t.questionId] }),
    index("peer_answers_target_idx").on(t.contentId, t.targetId, t.questionId),
    // dropping the answers of a removed question
    index("peer_answers_question_idx").on(t.contentId, t.questionId),
  ],
);
