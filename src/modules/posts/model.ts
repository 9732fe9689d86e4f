import { type Static, t } from "elysia";
import { Chars, CursorQuery, DateTimeInput, Enum, Id, Int, NextCursor, Nullable, QueryBool, Timestamp } from "../../platform/http/schemas";
import { Attachment } from "../files/model";
import { POST_STATUSES, POST_TYPES } from "./tables";

export const PostParams = t.Object({ postId: Id });

export const PostTypeSchema = Enum(POST_TYPES);
export const PostStatusSchema = Enum(POST_STATUSES);

export const Post = t.Object({
  id: t.String(),
  spaceId: t.String(),
  spaceName: t.String(),
  index: Int(),
  title: t.String(),
  content: t.String(),
  type: PostTypeSchema,
  tags: t.Array(t.String()),
  isEmergency: t.Boolean(),
  isPinned: t.Boolean(),
  allowFileDownload: t.Boolean(),
  status: PostStatusSchema,
  publishAt: Timestamp,
  /** The author's Member.id; null once that member is gone. */
  authorId: Nullable(t.String()),
  authorName: Nullable(t.String()),
  attachments: t.Array(Attachment),
  commentCount: Int(),
  /** The comment marked as the answer of a QUESTION post. */
  answeredCommentId: Nullable(t.String()),
  createdAt: Timestamp,
});

// Bounds (openapi.json): title 1..300, content max 200000, 50 tags of at most 50 characters, 20 files.
const Title = t.String({ minLength: 1, maxLength: 300, error: "must be 1..300 characters" });
const Content = t.String({ maxLength: 200000, error: "must be at most 200000 characters" });
const Tags = t.Array(t.String({ maxLength: 50, error: "must be at most 50 characters" }), {
  maxItems: 50,
  error: "must be at most 50 tags",
});
const FileIds = t.Array(t.String({ minLength: 1, maxLength: 100, error: "must be a file id" }), {
  maxItems: 20,
  error: "must be at most 20 files",
});
const PublishAt = Nullable(DateTimeInput);

const postFields = {
  title: Title,
  content: t.Optional(Content),
  type: t.Optional(PostTypeSchema),
  tags: t.Optional(Tags),
  isEmergency: t.Optional(t.Boolean()),
  isPinned: t.Optional(t.Boolean()),
  allowFileDownload: t.Optional(t.Boolean()),
  publishAt: t.Optional(PublishAt),
  fileIds: t.Optional(FileIds),
};

export const CreatePostBody = t.Object({
  spaceId: t.String({ minLength: 1, maxLength: 100, error: "must be a non-empty space id" }),
  ...postFields,
});

export const CreatePostsInSpacesBody = t.Object({
  spaceIds: t.Array(t.String({ minLength: 1, maxLength: 100, error: "must be a non-empty space id" }), {
    minItems: 1,
    maxItems: 500,
    error: "must be 1..500 space ids",
  }),
  ...postFields,
});

/** The fields a post takes, shared by the single and the multi-space create. */
export type PostInput = Omit<Static<typeof CreatePostBody>, "spaceId">;

export const CreatePostsInSpacesResult = t.Object({
  created: Int(),
  skipped: t.Array(t.Object({ spaceId: t.String(), reason: Enum(["NOT_FOUND", "FORBIDDEN"]) })),
  posts: t.Array(Post),
});

export const UpdatePostBody = t.Object({
  title: t.Optional(Title),
  content: t.Optional(Content),
  type: t.Optional(PostTypeSchema),
  tags: t.Optional(Tags),
  isEmergency: t.Optional(t.Boolean()),
  isPinned: t.Optional(t.Boolean()),
  allowFileDownload: t.Optional(t.Boolean()),
  publishAt: t.Optional(PublishAt),
  status: t.Optional(PostStatusSchema),
  fileIds: t.Optional(FileIds),
});

export const ListPostsQuery = t.Object({
  search: t.Optional(t.String({ minLength: 1, maxLength: 255, error: "must be 1..255 characters" })),
  spaceId: t.Optional(t.String({ minLength: 1, maxLength: 100, error: "must be a non-empty space id" })),
  status: t.Optional(PostStatusSchema),
  type: t.Optional(PostTypeSchema),
  answered: t.Optional(QueryBool),
  ...CursorQuery,
});

export const PostPage = t.Object({ posts: t.Array(Post), total: Int(), nextCursor: NextCursor });

export const CommentParams = t.Object({ postId: Id, commentId: Id });

export const Comment = t.Object({
  id: t.String(),
  postId: t.String(),
  /** The author's Member.id; null once that member is gone. */
  authorId: Nullable(t.String()),
  authorName: Nullable(t.String()),
  body: t.String(),
  attachments: t.Array(Attachment),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  /** This comment is the post's answer (markPostAnswer). */
  isAnswer: t.Boolean(),
});

export const CommentPage = t.Object({ comments: t.Array(Comment), nextCursor: NextCursor });

// docs/rules/community.md#comments: 1..5000 characters, at most 5 files.
const CommentText = Chars(1, 5000);

export const CreateCommentBody = t.Object({
  body: CommentText,
  fileIds: t.Optional(
    t.Array(t.String({ minLength: 1, maxLength: 100, error: "must be a file id" }), { maxItems: 5, error: "must be at most 5 files" }),
  ),
});

export const UpdateCommentBody = t.Object({ body: t.Optional(CommentText) });

export const ListCommentsQuery = t.Object({ ...CursorQuery });

export const MarkAnswerBody = t.Object({
  commentId: t.Optional(Nullable(t.String({ minLength: 1, maxLength: 100, error: "must be a comment id or null" }))),
});
