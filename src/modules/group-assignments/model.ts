import { t } from "elysia";
import { DateTimeInput, Enum, Id, Int, Nullable, PageFields, PageQuery, Timestamp } from "../../platform/http/schemas";
import { Similarity } from "../similarity/model";
import { SUBMISSION_STATUSES } from "../submissions/columns";
import { LINK_INVALID_REASONS, SUBMISSION_METHODS } from "./tables";

export const RefId = t.String({ minLength: 1, maxLength: 100, error: "must be an id" });

export const GroupAssignmentParams = t.Object({ contentId: Id });
export const GroupHistoryParams = t.Object({ contentId: Id, groupId: Id });
export const GroupSubmissionParams = t.Object({ contentId: Id, submissionId: Id });
export { ExtensionBody } from "../submissions/model";
export const GroupExtension = t.Object({ groupId: t.String(), dueAt: Nullable(Timestamp) });

/** The link part of both config results (group assignments and peer assessments). */
export const LinkFields = {
  spaceGroupSetName: Nullable(t.String({ description: "The linked set's name (its last name when deleted); null when not linked" })),
  isLinkValid: t.Boolean(),
  linkInvalidReason: Nullable(
    Enum(LINK_INVALID_REASONS, {
      description: "null while the link is valid; NOT_LINKED without a set; GROUP_SET_DELETED once the set is deleted",
    }),
  ),
};

// ---- config ---------------------------------------------------------------------------------

/** setGroupAssignmentConfig (PUT: full replace; absent fields take their defaults). */
export const GroupAssignmentConfigBody = t.Object({
  spaceGroupSetId: t.Optional(
    Nullable(
      t.String({ minLength: 1, maxLength: 100, error: "must be a group set id", description: "A set of a space where you are ADMIN" }),
    ),
  ),
  maxScore: t.Optional(Nullable(Int({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, error: "must be an integer >= 1 or null" }))),
  allowLateSubmit: t.Optional(t.Boolean()),
  submissionMethod: t.Optional(Enum(SUBMISSION_METHODS)),
  bodyRequired: t.Optional(t.Boolean()),
  fileRequired: t.Optional(t.Boolean()),
  dueAt: t.Optional(Nullable(DateTimeInput)),
});

export const GroupAssignmentConfig = t.Object({
  spaceGroupSetId: Nullable(t.String()),
  maxScore: Nullable(Int()),
  allowLateSubmit: t.Boolean(),
  submissionMethod: Enum(SUBMISSION_METHODS),
  bodyRequired: t.Boolean(),
  fileRequired: t.Boolean(),
  dueAt: Nullable(Timestamp),
});

export const GroupAssignmentConfigResult = t.Object({ config: GroupAssignmentConfig, ...LinkFields });

// ---- submissions ----------------------------------------------------------------------------

export const SubmissionAttachment = t.Object({ fileId: t.String(), fileName: t.String(), downloadUrl: t.String() });

export const GroupSubmission = t.Object({
  id: t.String(),
  groupId: t.String({ description: "A group of the linked space group set" }),
  groupName: t.String(),
  submitterUserId: t.String({ description: "Member.id of the member who submitted this revision" }),
  submitterName: t.String(),
  revision: Int({ description: "1, 2, … within the group's chain" }),
  body: t.String(),
  attachments: t.Array(SubmissionAttachment),
  status: Enum(SUBMISSION_STATUSES),
  submittedAt: Timestamp,
  dueAtAtSubmit: Nullable(Timestamp),
  isLate: t.Boolean(),
  score: Nullable(Int({ description: "Participants: null until RETURNED" })),
  feedback: Nullable(t.String({ description: "Participants: null until RETURNED" })),
  gradedAt: Nullable(Timestamp),
  returnedAt: Nullable(Timestamp),
  similarity: Nullable(Similarity),
});

export const GroupSubmissionsQuery = t.Object({ ...PageQuery, status: t.Optional(Enum(SUBMISSION_STATUSES)) });

export const GroupSubmissionPage = t.Object({
  ...PageFields,
  submissions: t.Array(GroupSubmission, { description: "One row per group: its latest revision, newest submittedAt first" }),
  pendingCount: Int({ description: "Groups whose latest revision is SUBMITTED" }),
  notSubmittedGroupCount: Int({
    description:
      "Groups of the linked set that have not submitted (ALL_MEMBERS: not every current member has); 0 while the link is invalid",
  }),
});

export const GroupSubmissionHistory = t.Object({
  latest: GroupSubmission,
  history: t.Array(GroupSubmission, { description: "Earlier revisions, newest first" }),
});

export const GradeBody = t.Object({
  score: t.Optional(Nullable(Int({ minimum: 0, maximum: 10000, error: "must be an integer 0..10000 or null" }))),
  feedback: t.Optional(Nullable(t.String({ maxLength: 10000, error: "must be at most 10000 characters" }))),
  rubric: t.Optional(
    t.Array(
      t.Object({
        criterionId: RefId,
        levelId: t.Optional(Nullable(RefId)),
        points: Int({ minimum: 0, maximum: 10000, error: "must be an integer 0..10000" }),
      }),
      { maxItems: 20, error: "must be at most 20 items", description: "Group assignments have no rubric: must be absent or empty" },
    ),
  ),
});

export const FeedbackBody = t.Object({
  feedback: t.Optional(Nullable(t.String({ maxLength: 10000, error: "must be at most 10000 characters" }))),
});

export const MemberScoresBody = t.Object({
  scores: t.Array(
    t.Object({
      profileId: RefId,
      score: Int({ minimum: 0, maximum: 10000, error: "must be an integer 0..10000" }),
    }),
    { maxItems: 100, error: "must be at most 100 items", description: "Replaces every override of this submission; [] clears them" },
  ),
});

export const MemberScoresResult = t.Object({
  groupScore: Nullable(Int()),
  members: t.Array(
    t.Object({
      profileId: t.String(),
      displayName: t.String(),
      effectiveScore: Nullable(Int({ description: "overrideScore, else groupScore" })),
      overrideScore: Nullable(Int()),
    }),
  ),
});

// ---- participant side -----------------------------------------------------------------------

export const SubmitGroupBody = t.Object({
  body: t.Optional(Nullable(t.String({ maxLength: 200000, error: "must be at most 200000 characters", description: "null means empty" }))),
  fileIds: t.Optional(t.Array(RefId, { maxItems: 20, error: "must be at most 20 file ids" })),
});

export const MyGroupSubmission = t.Object({
  config: GroupAssignmentConfig,
  group: Nullable(
    t.Object({
      id: t.String(),
      name: t.String(),
      members: t.Array(t.Object({ profileId: t.String(), displayName: t.String(), submitted: t.Boolean() })),
    }),
  ),
  latest: Nullable(GroupSubmission),
  history: t.Array(GroupSubmission),
});
