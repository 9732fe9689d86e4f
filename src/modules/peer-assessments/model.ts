import { t } from "elysia";
import { Enum, Id, Int, Nullable, Timestamp } from "../../platform/http/schemas";
import { LinkFields, RefId } from "../group-assignments/model";
import { PEER_MAX_SCORE, PEER_SUBMIT_TYPES } from "./tables";

export const PeerParams = t.Object({ contentId: Id });
export const PeerTargetParams = t.Object({ contentId: Id, targetId: Id });

const SubmitType = Enum(PEER_SUBMIT_TYPES);

// ---- config ---------------------------------------------------------------------------------

export const PeerConfigBody = t.Object({
  spaceGroupSetId: t.Optional(
    Nullable(
      t.String({ minLength: 1, maxLength: 100, error: "must be a group set id", description: "A set of a space where you are ADMIN" }),
    ),
  ),
  allowDescriptiveAssessment: t.Optional(t.Boolean()),
  allowSelfAssessment: t.Optional(t.Boolean()),
  submitType: t.Optional(SubmitType),
  questions: t.Array(
    t.Object({
      id: t.Optional(t.String({ minLength: 1, maxLength: 100, error: "must be an id", description: "Absent = a new question" })),
      assessmentCriteria: t.Optional(
        t.String({ minLength: 1, maxLength: 500, error: "must be 1..500 characters", description: "Default empty" }),
      ),
      criteriaSubText: t.Optional(Nullable(t.String({ maxLength: 2000, error: "must be at most 2000 characters" }))),
    }),
    { minItems: 1, maxItems: 20, error: "must be 1..20 questions" },
  ),
});

/** A peer assessment question (docs/rules/group-work.md#peer-questions). */
export const PeerQuestion = t.Object({
  id: t.String(),
  index: Int({ description: "0-based position" }),
  assessmentCriteria: t.String(),
  criteriaSubText: Nullable(t.String()),
  maxScore: Int({ description: `Always ${PEER_MAX_SCORE}` }),
});

export const PeerConfigResult = t.Object({
  snapshot: t.Object({
    id: Nullable(t.String({ description: "Changes on every save; null before the first" })),
    spaceGroupSetId: Nullable(t.String()),
    allowDescriptiveAssessment: t.Boolean(),
    allowSelfAssessment: t.Boolean(),
    submitType: SubmitType,
  }),
  questions: t.Array(PeerQuestion),
  ...LinkFields,
  hasSubmitters: t.Boolean(),
  submitCount: Int({ description: "Members who have assessed at least one target" }),
});

// ---- results --------------------------------------------------------------------------------

export const PeerResults = t.Object({
  questions: t.Array(PeerQuestion),
  targets: t.Array(
    t.Object({
      targetId: t.String({ description: "GROUP_MEMBER: a profileId; INTER_GROUP: a group id" }),
      targetName: t.String(),
      groupId: t.String(),
      groupName: t.String(),
      receivedCount: Int({ description: "Assessments received" }),
      averages: t.Array(t.Object({ questionId: t.String(), average: Nullable(t.Number()) })),
      overallAverage: Nullable(t.Number({ description: "Mean of every score received, on the 0..5 scale" })),
      comments: t.Array(t.String()),
    }),
  ),
  expectedSubmitterCount: Int({ description: "Current members of the set's groups who have at least one target" }),
  submittedSubmitterCount: Int({ description: "Of those, the ones who have assessed every current target" }),
});

// ---- participant side -----------------------------------------------------------------------

export const MyPeerTargets = t.Object({
  submitType: SubmitType,
  allowDescriptiveAssessment: t.Boolean(),
  questions: t.Array(PeerQuestion),
  targets: t.Array(
    t.Object({
      targetId: t.String(),
      targetName: t.String(),
      groupId: t.String(),
      groupName: t.String(),
      submittedAt: Nullable(Timestamp),
    }),
  ),
});

export const PeerAnswersBody = t.Object({
  answers: t.Array(
    t.Object({
      questionId: RefId,
      score: Int({ minimum: 0, maximum: PEER_MAX_SCORE, error: `must be an integer 0..${PEER_MAX_SCORE}` }),
      comment: t.Optional(Nullable(t.String({ maxLength: 5000, error: "must be at most 5000 characters" }))),
    }),
    { maxItems: 20, error: "must be at most 20 answers" },
  ),
});

export const PeerAssessmentResult = t.Object({
  targetId: t.String(),
  answers: t.Array(t.Object({ questionId: t.String(), score: Int(), comment: Nullable(t.String()) })),
  submittedAt: Timestamp,
});
