import { Elysia, t } from "elysia";
import { authPlugin } from "../../platform/auth/context";
import { route } from "../../platform/http/route";
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
  return new Elysia({ name: "module.posts" })
    .use(authPlugin(rt))
    .post(
      "/posts/bulk-create",
      ({ actor, body, set }) => {
        set.status = 201;
        return createPostsInSpaces(rt, actor, body);
      },
      { ...route("createPostsInSpaces", TAG, "session"), body: CreatePostsInSpacesBody, response: { 201: CreatePostsInSpacesResult } },
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
            "An ADMIN of the space posts anything. While the space's enabledMenus has `community`, a PARTICIPANT may post too: " +
            "type GENERAL or QUESTION only (an absent type is NOTICE), no isEmergency, isPinned or publishAt (403 FORBIDDEN); " +
            "409 INVALID_STATE in an archived space; 429 past `LEARNSPACE_COMMUNITY_RATE_LIMIT` writes a minute.",
        }),
        body: CreatePostBody,
        response: { 201: Post },
      },
    )
    .get("/posts", ({ actor, query }) => listPosts(rt, actor, query), {
      ...route("listPosts", TAG, "session", {
        summary: "List posts",
        description: "Pinned first, then newest. `answered` lists QUESTION posts with (true) or without (false) an answered comment.",
      }),
      query: ListPostsQuery,
      response: { 200: PostPage },
    })
    .get("/posts/:postId", ({ actor, params }) => getPost(rt, actor, params.postId), {
      ...route("getPost", TAG, "spaceMember"),
      params: PostParams,
      response: { 200: Post },
    })
    .patch("/posts/:postId", ({ actor, params, body }) => updatePost(rt, actor, params.postId, body), {
      ...route("updatePost", TAG, "spaceAdmin", {
        summary: "Update a post",
        description:
          "An ADMIN of the space changes any post; a participant their own, as they may create it (no NOTICE, isEmergency, " +
          "isPinned, publishAt or status: 403), not in an archived space (409). Anyone else: 403.",
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
            "An ADMIN of the space deletes any post; a participant their own (409 in an archived space). Its comments go with it.",
        }),
        params: PostParams,
        response: { 204: t.Void() },
      },
    )
    .get("/posts/:postId/comments", ({ actor, params, query }) => listPostComments(rt, actor, params.postId, query), {
      ...route("listPostComments", TAG, "spaceMember", {
        summary: "List the comments of a post",
        description: "Oldest first, for anyone who can see the post (else 404). `isAnswer` marks the QUESTION post's answer.",
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
            "Any member enrolled in the post's space while its `community` menu is on, else its ADMINs only (403). " +
            "An archived space, or an ARCHIVED post, is 409 INVALID_STATE. Each member may write `LEARNSPACE_COMMUNITY_RATE_LIMIT` " +
            "comments and messages a minute (429 RATE_LIMITED with Retry-After). Notifies the post's author and earlier commenters.",
        }),
        params: PostParams,
        body: CreateCommentBody,
        response: { 201: Comment },
      },
    )
    .patch("/posts/:postId/comments/:commentId", ({ actor, params, body }) => updatePostComment(rt, actor, params, body), {
      ...route("updatePostComment", TAG, "spaceMember", {
        summary: "Edit a comment",
        description: "The comment's author only (403 for anyone else, ADMINs included); 409 in an archived space or on an ARCHIVED post.",
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
        }),
        params: CommentParams,
        response: { 204: t.Void() },
      },
    )
    .put("/posts/:postId/answer", ({ actor, params, body }) => markPostAnswer(rt, actor, params.postId, body), {
      ...route("markPostAnswer", TAG, "spaceMember", {
        summary: "Mark the answer of a question",
        description:
          "The QUESTION post's author or an ADMIN of its space sets `commentId` (a comment of this post, else 400) as the answer, " +
          "or clears it with null. Another type of post is 409 INVALID_STATE. `listPosts?answered=` filters on it.",
      }),
      params: PostParams,
      body: MarkAnswerBody,
      response: { 200: Post },
    });
}
