import { t } from "elysia";
import {
  Chars,
  CursorQuery,
  DateTimeInput,
  Email,
  Enum,
  Id,
  Int,
  NextCursor,
  Nullable,
  QueryBool,
  Timestamp,
} from "../../platform/http/schemas";
import { Attachment } from "../files/model";
import { CHALLENGE_STATES, TASK_TYPES } from "./tables";

const RefId = t.String({ minLength: 1, maxLength: 100, error: "must be an id" });

export const SpaceParams = t.Object({ spaceId: Id });
export const ChallengeParams = t.Object({ spaceId: Id, challengeId: Id });
export const TaskParams = t.Object({ spaceId: Id, challengeId: Id, taskId: Id });
export const MemberParams = t.Object({ spaceId: Id, challengeId: Id, userPkId: Id });

const Title = Chars(1, 30);

// ---- requests --------------------------------------------------------------------------------

export const TaskInput = t.Object({
  id: t.Optional(RefId),
  title: Title,
  guide: t.Optional(Nullable(t.String())),
  type: t.Optional(Enum(TASK_TYPES)),
  index: t.Optional(Int({ error: "must be an integer", description: "Sort key; stored as the 0-based position" })),
  startedAt: DateTimeInput,
  deadline: t.Optional(Nullable(DateTimeInput)),
  targetContentId: t.Optional(Nullable(RefId)),
  defaultTags: t.Optional(t.Array(t.String())),
});

/** createChallenge and updateChallenge (PUT: full replace; absent optional fields take their defaults). */
export const ChallengeBody = t.Object({
  title: Title,
  emoji: Chars(1, 16),
  body: t.Optional(Nullable(t.String({ maxLength: 15000, error: "must be at most 15000 characters" }))),
  includeAuthor: t.Optional(t.Boolean()),
  tasks: t.Array(TaskInput, { minItems: 1, maxItems: 100, error: "must be 1..100 tasks" }),
  fileIds: t.Optional(t.Array(RefId, { maxItems: 20, error: "must be at most 20 file ids" })),
  reminderMinutes: t.Optional(
    t.Array(Int({ exclusiveMinimum: 0, maximum: 43200, error: "must be an integer greater than 0 and at most 43200" }), {
      maxItems: 5,
      error: "must be at most 5 reminders",
    }),
  ),
});

export const AddTaskBody = t.Object({ title: Title, startedAt: DateTimeInput });

export const ListChallengesQuery = t.Object({
  joined: t.Optional(QueryBool),
  state: t.Optional(Enum(CHALLENGE_STATES)),
});

export const MembersQuery = t.Object({ ...CursorQuery });
/** addChallengeMembers: `userIds` required, non-empty strings, no count bound (docs/rules/challenges.md#members). */
export const AddMembersBody = t.Object({
  userIds: t.Array(RefId, { minItems: 1, error: "must be at least one member id" }),
});
/** addChallengeMembersFromCandidates: `userIds` 1..500, non-empty (docs/rules/challenges.md#members). */
export const AddCandidatesBody = t.Object({
  userIds: t.Array(RefId, { minItems: 1, maxItems: 500, error: "must be 1..500 member ids" }),
});
export const CandidatesQuery = t.Object({
  keyword: t.Optional(t.String({ maxLength: 50, error: "must be at most 50 characters" })),
  ...CursorQuery,
});
export const TaskStatusQuery = t.Object({
  status: t.Optional(Enum(["ALL", "COMPLETED", "INCOMPLETE"] as const)),
  ...CursorQuery,
});

export const EmailCountBody = t.Object({ email: Email });
export const EmailCountResult = t.Object({ email: t.String(), count: Int() });

// ---- records ---------------------------------------------------------------------------------

export const ChallengeTask = t.Object({
  id: t.String(),
  title: t.String(),
  guide: Nullable(t.String()),
  type: Enum(TASK_TYPES),
  index: Int({ description: "0-based position in the challenge" }),
  startedAt: Timestamp,
  deadline: Nullable(Timestamp),
  defaultTags: t.Array(t.String()),
  targetContentId: Nullable(t.String({ description: "null when unset or when the content was deleted" })),
  done: t.Boolean({ description: "The member's (in getChallenge: the caller's) completion" }),
  completedAt: Nullable(Timestamp),
});

const summaryFields = {
  id: t.String(),
  spaceId: t.String(),
  title: t.String(),
  emoji: t.String(),
  authorName: Nullable(t.String()),
  isWrittenByAdmin: t.Boolean({ description: "The author was an ADMIN of the space when creating it" }),
  startedAt: Timestamp,
  endedAt: Nullable(Timestamp),
  state: Enum(CHALLENGE_STATES),
  memberCount: Int(),
  totalTaskCount: Int(),
  joined: t.Boolean({ description: "The caller is a member" }),
  progress: t.Number({ description: "The caller's: 100 × done ÷ total tasks (0 when not a member)" }),
  totalProgress: t.Number({ description: "The members' average progress (0 without members)" }),
  createdAt: Timestamp,
};

export const ChallengeSummary = t.Object(summaryFields);
export const ChallengeDetail = t.Object({
  ...summaryFields,
  body: t.String(),
  doneTaskCount: Int({ description: "The caller's" }),
  tasks: t.Array(ChallengeTask),
  reminderMinutes: t.Array(Int()),
  attachments: t.Array(Attachment),
});
export const ChallengeList = t.Object({ challenges: t.Array(ChallengeSummary) });

export const ChallengeMember = t.Object({
  userId: t.String({ description: "Member.id" }),
  displayName: t.String(),
  progress: t.Number(),
  joinedAt: Timestamp,
});
export const ChallengeMemberPage = t.Object({ members: t.Array(ChallengeMember), nextCursor: NextCursor });

export const CandidatePage = t.Object({
  candidates: t.Array(t.Object({ userId: t.String({ description: "Member.id" }), displayName: t.String() })),
  nextCursor: NextCursor,
});

export const MemberProgress = t.Object({
  userId: t.String({ description: "Member.id" }),
  displayName: t.String(),
  doneTaskCount: Int(),
  totalTaskCount: Int(),
  progress: t.Number(),
  tasks: t.Array(ChallengeTask),
});

export const TaskStatus = t.Object({
  allMemberCount: Int(),
  completedMemberCount: Int(),
  incompleteMemberCount: Int(),
  members: t.Array(
    t.Object({
      userId: t.String({ description: "Member.id" }),
      displayName: t.String(),
      done: t.Boolean(),
      completedAt: Nullable(Timestamp),
    }),
  ),
  nextCursor: NextCursor,
});
