import { queryOptions, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, type Init, ok } from "../../api/client";

/** The library's cache keys: `allContents` covers every folder's content list. */
export const libraryKeys = {
  nodes: ["library-nodes"] as const,
  allContents: ["library-contents"] as const,
  contents: (nodeId: string) => ["library-contents", nodeId] as const,
  content: (contentId: string) => ["content", contentId] as const,
  info: (contentId: string) => ["content-info", contentId] as const,
};

/** listNodes: every folder the member can see (the tenant library's and their spaces'), sorted by rank. */
export function useNodes() {
  return useQuery({ queryKey: libraryKeys.nodes, queryFn: () => ok(api.GET("/api/v1/library/nodes")) });
}

/** Refetches the folders and the contents of each (a move, rename or delete changes both). */
export function useRefreshLibrary() {
  const qc = useQueryClient();
  return () => {
    void qc.invalidateQueries({ queryKey: libraryKeys.nodes });
    void qc.invalidateQueries({ queryKey: libraryKeys.allContents });
  };
}

/** A folder's contents. */
export const contentsQuery = (nodeId: string) =>
  queryOptions({
    queryKey: libraryKeys.contents(nodeId),
    queryFn: () => ok(api.GET("/api/v1/library/contents", { params: { query: { nodeId } } })),
  });

/** Every content of one folder, each page of listContents read in turn (a folder copy copies them all). */
export async function everyContentOf(nodeId: string) {
  const all: { id: string }[] = [];
  let cursor: string | undefined;
  do {
    const page = await ok(api.GET("/api/v1/library/contents", { params: { query: { nodeId, limit: 100, cursor } } }));
    all.push(...page.contents);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return all;
}

export const contentQuery = (contentId: string) =>
  queryOptions({
    queryKey: libraryKeys.content(contentId),
    queryFn: () => ok(api.GET("/api/v1/library/contents/{contentId}", { params: { path: { contentId } } })),
  });

/** getContentInfo: the playable part of a video, linked video, live session or document (its URLs are signed per reader). */
export function useContentInfo(contentId: string) {
  return useQuery({
    queryKey: libraryKeys.info(contentId),
    queryFn: () => ok(api.GET("/api/v1/library/contents/{contentId}/info", { params: { path: { contentId } } })),
    // A video stays "uploading" until its file is stored: look again shortly.
    refetchInterval: (q) => {
      const info = q.state.data?.info as { status?: string } | null | undefined;
      return info?.status === "uploading" ? 2000 : false;
    },
  });
}

// The area's writes, one function per operation (named by its operationId).
export const copyContent = (init: Init<"/api/v1/library/contents/{contentId}/copy", "post">) =>
  ok(api.POST("/api/v1/library/contents/{contentId}/copy", init));
export const createContent = (init: Init<"/api/v1/library/contents", "post">) => ok(api.POST("/api/v1/library/contents", init));
export const deleteContent = (init: Init<"/api/v1/library/contents/{contentId}", "delete">) =>
  ok(api.DELETE("/api/v1/library/contents/{contentId}", init));
export const attachVideo = (init: Init<"/api/v1/library/contents/{contentId}/video", "put">) =>
  ok(api.PUT("/api/v1/library/contents/{contentId}/video", init));
export const createNode = (init: Init<"/api/v1/library/nodes", "post">) => ok(api.POST("/api/v1/library/nodes", init));
export const deleteNode = (init: Init<"/api/v1/library/nodes/{nodeId}", "delete">) =>
  ok(api.DELETE("/api/v1/library/nodes/{nodeId}", init));
export const moveNode = (init: Init<"/api/v1/library/nodes/{nodeId}/move", "post">) =>
  ok(api.POST("/api/v1/library/nodes/{nodeId}/move", init));
export const renameNode = (init: Init<"/api/v1/library/nodes/{nodeId}", "patch">) => ok(api.PATCH("/api/v1/library/nodes/{nodeId}", init));
export const setDocument = (init: Init<"/api/v1/library/contents/{contentId}/document", "put">) =>
  ok(api.PUT("/api/v1/library/contents/{contentId}/document", init));
export const setLinkedVideo = (init: Init<"/api/v1/library/contents/{contentId}/url-video", "put">) =>
  ok(api.PUT("/api/v1/library/contents/{contentId}/url-video", init));
export const setLiveSession = (init: Init<"/api/v1/library/contents/{contentId}/live", "put">) =>
  ok(api.PUT("/api/v1/library/contents/{contentId}/live", init));
export const shareContent = (init: Init<"/api/v1/library/contents/{contentId}/shares", "put">) =>
  ok(api.PUT("/api/v1/library/contents/{contentId}/shares", init));
export const updateContent = (init: Init<"/api/v1/library/contents/{contentId}", "patch">) =>
  ok(api.PATCH("/api/v1/library/contents/{contentId}", init));
