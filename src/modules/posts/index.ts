import { Elysia, t } from "elysia";
import { authPlugin } from "../../platform/auth/context";
import { route } from "../../platform/http/route";
import type { Runtime } from "../../platform/runtime";
import {
  CreatePostBody,
  CreatePostsInSpacesBody,
  CreatePostsInSpacesResult,
  ListPostsQuery,
  Post,
  PostPage,
  PostParams,
  UpdatePostBody,
} from "./model";
import { createPost, createPostsInSpaces, deletePost, getPost, listPosts, updatePost } from "./service";

const TAG = "posts";

/** Announcement posts of spaces. */
export function postsModule(rt: Runtime) {
  return new Elysia({ name: "module.posts" })
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
            "Creates a post in `spaceId`: PUBLISHED now, or SCHEDULED until a future `publishAt`. While the space's `community` menu is on, a PARTICIPANT may post GENERAL or QUESTION posts.",
          errors: [
            "400 `VALIDATION_FAILED` when a file id names no ready file of the caller",
            "403 `FORBIDDEN` for a participant outside the community rules",
            "404 `NOT_FOUND` for a space the caller cannot see",
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
          "Posts of the spaces the caller is enrolled in (PUBLISHED ones, and every status where the caller is ADMIN), newest first, filtered by `search`, `spaceId`, `status`, `type`, a cursor page at a time.",
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
        description: "Changes a post's fields, or its `status` (SCHEDULED, PUBLISHED, ARCHIVED). Absent fields stay.",
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
          description: "Deletes a post for good; its files stay while another record attaches them.",
        }),
        params: PostParams,
        response: { 204: t.Void() },
      },
    );
}
