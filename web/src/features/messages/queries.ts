import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, ok } from "../../api/client";
import { uploadFiles } from "../files/queries";

/** A space's private conversations (listSpaceConversations): every one for an admin, one's own for a participant. */
export function useConversations(spaceId: string) {
  return useQuery({
    queryKey: ["conversations", spaceId],
    queryFn: () => ok(api.GET("/api/v1/spaces/{spaceId}/conversations", { params: { path: { spaceId }, query: { limit: 100 } } })),
  });
}

/** One conversation's messages, newest first a page at a time (reading marks them read), and sending one. */
export function useConversation(spaceId: string, profileId: string) {
  const qc = useQueryClient();
  const path = { spaceId, profileId };
  const messages = useInfiniteQuery({
    queryKey: ["conversations", spaceId, profileId],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      ok(
        api.GET("/api/v1/spaces/{spaceId}/conversations/{profileId}/messages", {
          params: { path, query: { cursor: pageParam, limit: 50 } },
        }),
      ),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  const send = useMutation({
    mutationFn: async (v: { body: string; files: File[]; onProgress: (f: number) => void }) => {
      const fileIds = v.files.length ? await uploadFiles(v.files, v.onProgress) : [];
      return ok(
        api.POST("/api/v1/spaces/{spaceId}/conversations/{profileId}/messages", { params: { path }, body: { body: v.body, fileIds } }),
      );
    },
    onSuccess: () => void qc.invalidateQueries({ queryKey: ["conversations", spaceId] }),
  });
  return { messages, send };
}
