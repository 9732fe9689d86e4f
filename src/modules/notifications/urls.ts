// The console paths a notification opens (docs/rules/notifications.md#records).
const q = (params: Record<string, string>) => `/spaces?${new URLSearchParams(params).toString()}`;

export const consoleUrl = {
  post: (spaceId: string, postId: string) => q({ space: spaceId, tab: "stream", post: postId }),
  content: (spaceId: string, contentId: string) => q({ space: spaceId, content: contentId }),
  space: (spaceId: string, tab: string) => q({ space: spaceId, tab }),
  conversation: (spaceId: string, profileId: string) => q({ space: spaceId, tab: "messages", conversation: profileId }),
};
