import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { api, type Init, ok } from "../../api/client";
import type { paths } from "../../api/schema";
import { uploadFiles } from "../files/queries";

export type Post = paths["/api/v1/posts/{postId}"]["get"]["responses"]["200"]["content"]["application/json"];
export type Comment =
  paths["/api/v1/posts/{postId}/comments"]["get"]["responses"]["200"]["content"]["application/json"]["comments"][number];
type ListQuery = NonNullable<paths["/api/v1/posts"]["get"]["parameters"]["query"]>;

/** The stream's cache keys: `all` covers every space's stream, `space` one space's (each status, and the comments). */
export const postKeys = {
  all: ["posts"] as const,
  space: (spaceId: string) => ["posts", spaceId] as const,
  list: (spaceId: string, query: object) => ["posts", spaceId, query] as const,
  comments: (spaceId: string, postId: string) => ["posts", spaceId, "comments", postId] as const,
};

/** A space's posts a page at a time (listPosts), under the ["posts", spaceId] key every post change invalidates. */
export function usePosts(spaceId: string, query: Omit<ListQuery, "spaceId" | "cursor" | "limit">) {
  return useInfiniteQuery({
    queryKey: postKeys.list(spaceId, query),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => ok(api.GET("/api/v1/posts", { params: { query: { spaceId, ...query, cursor: pageParam, limit: 20 } } })),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/** A post's comments, oldest first (listPostComments), with writing, editing, deleting and marking the answer. */
export function useComments(post: Post, enabled: boolean) {
  const qc = useQueryClient();
  const postId = post.id;
  const path = { params: { path: { postId } } };
  const list = useInfiniteQuery({
    queryKey: postKeys.comments(post.spaceId, postId),
    enabled,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      ok(api.GET("/api/v1/posts/{postId}/comments", { params: { path: { postId }, query: { cursor: pageParam, limit: 50 } } })),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  // The post's commentCount and answer change with its comments: the space's posts are read again.
  const done = () => void qc.invalidateQueries({ queryKey: postKeys.space(post.spaceId) });
  const create = useMutation({
    mutationFn: async (v: { body: string; files: File[]; onProgress: (f: number) => void }) => {
      const fileIds = v.files.length ? await uploadFiles(v.files, v.onProgress) : [];
      return ok(api.POST("/api/v1/posts/{postId}/comments", { ...path, body: { body: v.body, fileIds } }));
    },
    onSuccess: done,
  });
  const update = useMutation({
    mutationFn: (v: { commentId: string; body: string }) =>
      ok(
        api.PATCH("/api/v1/posts/{postId}/comments/{commentId}", {
          params: { path: { postId, commentId: v.commentId } },
          body: { body: v.body },
        }),
      ),
    onSuccess: done,
  });
  const remove = useMutation({
    mutationFn: (commentId: string) =>
      ok(api.DELETE("/api/v1/posts/{postId}/comments/{commentId}", { params: { path: { postId, commentId } } })),
    onSuccess: done,
  });
  const markAnswer = useMutation({
    mutationFn: (commentId: string | null) => ok(api.PUT("/api/v1/posts/{postId}/answer", { ...path, body: { commentId } })),
    onSuccess: done,
  });
  return { list, create, update, remove, markAnswer };
}

// The area's writes, one function per operation (named by its operationId).
export const createPost = (init: Init<"/api/v1/posts", "post">) => ok(api.POST("/api/v1/posts", init));
export const createPostsInSpaces = (init: Init<"/api/v1/posts/bulk-create", "post">) => ok(api.POST("/api/v1/posts/bulk-create", init));
export const deletePost = (init: Init<"/api/v1/posts/{postId}", "delete">) => ok(api.DELETE("/api/v1/posts/{postId}", init));
export const updatePost = (init: Init<"/api/v1/posts/{postId}", "patch">) => ok(api.PATCH("/api/v1/posts/{postId}", init));
