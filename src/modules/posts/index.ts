import { t } from "elysia";
import { authPlugin } from "../../platform/auth/context";
import { apiModule, route } from "../../platform/http/route";
import type { Runtime } from "../../platform/runtime";
import { createPostComment, deletePostComment, listPostComments, markPostAnswer, updatePostComment } from "./comments";
import {
  Comment,
  CommentPage,
  CommentParams,
  CreateCommentBody,
  CreatePostBody,
  CreatePostsInSpacesBody,
  CreatePostsInSpacesResult,
  ListCommentsQuery,
  ListPostsQuery,
  MarkAnswerBody,
  Post,
  PostPage,
  PostParams,
  UpdateCommentBody,
  UpdatePostBody,
} from "./model";
import { createPost, createPostsInSpaces, deletePost, getPost, listPosts, updatePost } from "./service";

const TAG = "posts";

/** Posts of spaces, their comments and answers. */
export function postsModule(rt: Runtime) {
  return apiModule("module.posts")
    .use(authPlugin(rt))
    .post(
      "/posts/bulk-create",
      ({ actor, body, set }) => {
        set.status = 201;
        return createPostsInSpaces(rt, actor, body);
      },
      {
        ...route("createPostsInSpaces", TAG, "session", {
          summary: "Post to many spaces",
          description:
            "Creates the same post in up to 500 spaces; each space where the caller is not ADMIN, or that the caller cannot see, is `skipped` (`FORBIDDEN`, `NOT_FOUND`). A future `publishAt` schedules it. Answers 201 even when every space was skipped.",
        }),
        body: CreatePostsInSpacesBody,
        response: { 201: CreatePostsInSpacesResult },
      },
    )
    .post(
      "/posts",
      ({ actor, body, set }) => {
        set.status = 201;
        return createPost(rt, actor, body);
      },
      {
        ...route("createPost", TAG, "spaceAdmin", {
          summary: "Create a post",
          description:
            "Creates a post in `spaceId`: PUBLISHED now, or SCHEDULED until a future `publishAt`. An ADMIN of the space posts anything; " +
            "while the space's enabledMenus has `community`, a PARTICIPANT may post too: GENERAL or QUESTION only (an absent type is NOTICE), " +
            "published at once.",
          errors: [
            "400 `VALIDATION_FAILED` when a file id names no ready file of the caller",
            "403 `FORBIDDEN` for a participant without `community`, or sending NOTICE, `isEmergency`, `isPinned` or `publishAt`",
            "404 `NOT_FOUND` for a space the caller cannot see",
            "409 `INVALID_STATE` for a participant in an archived space",
            "429 `RATE_LIMITED` for a participant past `LEARNSPACE_COMMUNITY_RATE_LIMIT` writes a minute (with `Retry-After`)",
          ],
        }),
        body: CreatePostBody,
        response: { 201: Post },
      },
    )
    .get("/posts", ({ actor, query }) => listPosts(rt, actor, query), {
      ...route("listPosts", TAG, "session", {
        summary: "List posts",
        description:
          "Posts of the spaces the caller is enrolled in (PUBLISHED ones, and every status where the caller is ADMIN), pinned first, then newest, " +
          "filtered by `search`, `spaceId`, `status`, `type`, and `answered` (QUESTION posts with or without an answer), a cursor page at a time.",
        errors: ["404 `NOT_FOUND` when `spaceId` names a space the caller cannot see"],
      }),
      query: ListPostsQuery,
      response: { 200: PostPage },
    })
    .get("/posts/:postId", ({ actor, params }) => getPost(rt, actor, params.postId), {
      ...route("getPost", TAG, "spaceMember", {
        summary: "Get a post",
        description: "One post with its attachments (download URLs are null for non-ADMINs while downloads are off).",
      }),
      params: PostParams,
      response: { 200: Post },
    })
    .patch("/posts/:postId", ({ actor, params, body }) => updatePost(rt, actor, params.postId, body), {
      ...route("updatePost", TAG, "spaceAdmin", {
        summary: "Update a post",
        description:
          "Changes a post's fields, or its `status` (SCHEDULED, PUBLISHED, ARCHIVED). Absent fields stay. An ADMIN of the space changes " +
          "any post; a participant their own, within what they may create.",
        errors: [
          "403 `FORBIDDEN` for someone else's post (not ADMIN), or a participant sending NOTICE, `isEmergency`, `isPinned`, `publishAt` or `status`",
          "409 `INVALID_STATE` for a participant in an archived space",
        ],
      }),
      params: PostParams,
      body: UpdatePostBody,
      response: { 200: Post },
    })
    .delete(
      "/posts/:postId",
      ({ actor, params, set }) => {
        deletePost(actor, params.postId);
        set.status = 204;
      },
      {
        ...route("deletePost", TAG, "spaceAdmin", {
          summary: "Delete a post",
          description:
            "Deletes a post for good with its comments; its files stay while another record attaches them. An ADMIN of the space deletes " +
            "any post, a participant their own.",
          errors: ["403 `FORBIDDEN` for someone else's post (not ADMIN)", "409 `INVALID_STATE` for a participant in an archived space"],
        }),
        params: PostParams,
        response: { 204: t.Void() },
      },
    )
    .get("/posts/:postId/comments", ({ actor, params, query }) => listPostComments(rt, actor, params.postId, query), {
      ...route("listPostComments", TAG, "spaceMember", {
        summary: "List the comments of a post",
        description: "Oldest first, for anyone who can see the post. `isAnswer` marks the QUESTION post's answer.",
        errors: ["404 `NOT_FOUND` for a post the caller cannot see"],
      }),
      params: PostParams,
      query: ListCommentsQuery,
      response: { 200: CommentPage },
    })
    .post(
      "/posts/:postId/comments",
      ({ actor, params, body, set }) => {
        set.status = 201;
        return createPostComment(rt, actor, params.postId, body);
      },
      {
        ...route("createPostComment", TAG, "spaceMember", {
          summary: "Comment on a post",
          description:
            "Any member enrolled in the post's space while its `community` menu is on, else its ADMINs only. Up to 5 files. " +
            "Notifies the post's author and everyone who commented before (COMMENT).",
          errors: [
            "403 `FORBIDDEN` for a participant while the space's `community` menu is off",
            "404 `NOT_FOUND` for a post the caller cannot see",
            "409 `INVALID_STATE` in an archived space, or on an ARCHIVED post",
            "429 `RATE_LIMITED` past `LEARNSPACE_COMMUNITY_RATE_LIMIT` comments and messages a minute (with `Retry-After`)",
          ],
        }),
        params: PostParams,
        body: CreateCommentBody,
        response: { 201: Comment },
      },
    )
    .patch("/posts/:postId/comments/:commentId", ({ actor, params, body }) => updatePostComment(rt, actor, params, body), {
      ...route("updatePostComment", TAG, "spaceMember", {
        summary: "Edit a comment",
        description: "Changes the comment's body; the comment's author only. An absent body changes nothing.",
        errors: [
          "403 `FORBIDDEN` for anyone but the author, ADMINs included",
          "404 `NOT_FOUND` for a post the caller cannot see, or a comment that is not the post's",
          "409 `INVALID_STATE` in an archived space, or on an ARCHIVED post",
        ],
      }),
      params: CommentParams,
      body: UpdateCommentBody,
      response: { 200: Comment },
    })
    .delete(
      "/posts/:postId/comments/:commentId",
      ({ actor, params, set }) => {
        deletePostComment(actor, params);
        set.status = 204;
      },
      {
        ...route("deletePostComment", TAG, "spaceMember", {
          summary: "Delete a comment",
          description: "Its author or an ADMIN of the space. Deleting the answer leaves the question unanswered.",
          errors: [
            "403 `FORBIDDEN` for anyone but the author and the space's ADMINs",
            "404 `NOT_FOUND` for a post the caller cannot see, or a comment that is not the post's",
            "409 `INVALID_STATE` in an archived space, or on an ARCHIVED post",
          ],
        }),
        params: CommentParams,
        response: { 204: t.Void() },
      },
    )
    .put("/posts/:postId/answer", ({ actor, params, body }) => markPostAnswer(rt, actor, params.postId, body), {
      ...route("markPostAnswer", TAG, "spaceMember", {
        summary: "Mark the answer of a question",
        description:
          "The QUESTION post's author or an ADMIN of its space sets `commentId` (a comment of this post) as the answer, " +
          "or clears it with null or no `commentId`. `listPosts?answered=` filters on it.",
        errors: [
          "400 `VALIDATION_FAILED` when `commentId` is not a comment of this post",
          "403 `FORBIDDEN` for anyone but the post's author and the space's ADMINs",
          "404 `NOT_FOUND` for a post the caller cannot see",
          "409 `INVALID_STATE` for a post that is not a QUESTION, in an archived space, or on an ARCHIVED post",
        ],
      }),
      params: PostParams,
      body: MarkAnswerBody,
      response: { 200: Post },
    });
}
