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
      { ...route("createPostsInSpaces", TAG, "session"), body: CreatePostsInSpacesBody, response: { 201: CreatePostsInSpacesResult } },
    )
    .post(
      "/posts",
      ({ actor, body, set }) => {
        set.status = 201;
        return createPost(rt, actor, body);
      },
      { ...route("createPost", TAG, "spaceAdmin"), body: CreatePostBody, response: { 201: Post } },
    )
    .get("/posts", ({ actor, query }) => listPosts(rt, actor, query), {
      ...route("listPosts", TAG, "session"),
      query: ListPostsQuery,
      response: { 200: PostPage },
    })
    .get("/posts/:postId", ({ actor, params }) => getPost(rt, actor, params.postId), {
      ...route("getPost", TAG, "spaceMember"),
      params: PostParams,
      response: { 200: Post },
    })
    .patch("/posts/:postId", ({ actor, params, body }) => updatePost(rt, actor, params.postId, body), {
      ...route("updatePost", TAG, "spaceAdmin"),
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
      { ...route("deletePost", TAG, "spaceAdmin"), params: PostParams, response: { 204: t.Void() } },
    );
}
