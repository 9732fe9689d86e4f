import { api, cursorPages, type Init, ok } from "../../api/client";

/** The stream's cache keys: `all` covers every space's stream, `space` one space's (each status). */
export const postKeys = {
  all: ["posts"] as const,
  space: (spaceId: string) => ["posts", spaceId] as const,
  list: (spaceId: string, status: string) => ["posts", spaceId, status] as const,
};

/** A space's posts of one status, 20 at a time, pinned then newest first. */
export const postsQuery = (spaceId: string, status: "PUBLISHED" | "SCHEDULED" | "ARCHIVED") =>
  cursorPages(postKeys.list(spaceId, status), (cursor) =>
    ok(api.GET("/api/v1/posts", { params: { query: { spaceId, status, cursor, limit: 20 } } })),
  );

// The area's writes, one function per operation (named by its operationId).
export const createPost = (init: Init<"/api/v1/posts", "post">) => ok(api.POST("/api/v1/posts", init));
export const createPostsInSpaces = (init: Init<"/api/v1/posts/bulk-create", "post">) => ok(api.POST("/api/v1/posts/bulk-create", init));
export const deletePost = (init: Init<"/api/v1/posts/{postId}", "delete">) => ok(api.DELETE("/api/v1/posts/{postId}", init));
export const updatePost = (init: Init<"/api/v1/posts/{postId}", "patch">) => ok(api.PATCH("/api/v1/posts/{postId}", init));
