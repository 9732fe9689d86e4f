import { authPlugin } from "../../platform/auth/context";
import { apiModule, route } from "../../platform/http/route";
import type { Runtime } from "../../platform/runtime";
import { ConversationPage, ConversationParams, ListQuery, Message, MessagePage, SendMessageBody, SpaceParams } from "./model";
import { listConversationMessages, listSpaceConversations, sendConversationMessage } from "./service";

/** The catalog puts conversations under spaces. */
const TAG = "spaces";

/** Private conversations between each participant of a space and its ADMINs. */
export function messagesModule(rt: Runtime) {
  return apiModule("module.messages")
    .use(authPlugin(rt))
    .get("/spaces/:spaceId/conversations", ({ actor, params, query }) => listSpaceConversations(rt, actor, params.spaceId, query), {
      ...route("listSpaceConversations", TAG, "spaceMember", {
        summary: "List a space's private conversations",
        description:
          "An ADMIN gets every participant's conversation that has a message, newest message first, each with its preview and " +
          "the caller's unread count; a PARTICIPANT gets exactly their own (lastMessageAt null before the first message).",
        errors: ["403 `FORBIDDEN` for a visible space the caller is not enrolled in", "404 `NOT_FOUND` for a space the caller cannot see"],
      }),
      params: SpaceParams,
      query: ListQuery,
      response: { 200: ConversationPage },
    })
    .get(
      "/spaces/:spaceId/conversations/:profileId/messages",
      ({ actor, params, query }) => listConversationMessages(rt, actor, params, query),
      {
        ...route("listConversationMessages", TAG, "spaceMember", {
          summary: "Read a private conversation",
          description:
            "Newest first. The participant whose profile the path names, or any ADMIN of the space; anyone else is 404. " +
            "Reading marks the messages shown as read for the reader. Works while messages are off.",
          errors: ["404 `NOT_FOUND` for anyone but the participant and the space's ADMINs, or a profile that is not a PARTICIPANT there"],
        }),
        params: ConversationParams,
        query: ListQuery,
        response: { 200: MessagePage },
      },
    )
    .post(
      "/spaces/:spaceId/conversations/:profileId/messages",
      ({ actor, params, body, set }) => {
        set.status = 201;
        return sendConversationMessage(rt, actor, params, body);
      },
      {
        ...route("sendConversationMessage", TAG, "spaceMember", {
          summary: "Send a private message",
          description:
            "The participant or an ADMIN of the space; the first message starts the conversation. Up to 5 files. " +
            "Notifies the other side (MESSAGE): the participant, or every ADMIN of the space.",
          errors: [
            "404 `NOT_FOUND` for anyone but the participant and the space's ADMINs, or a profile that is not a PARTICIPANT there",
            "409 `INVALID_STATE` while the space's `messageEnabled` is false, or the space is archived",
            "429 `RATE_LIMITED` past `LEARNSPACE_COMMUNITY_RATE_LIMIT` comments and messages a minute (with `Retry-After`)",
          ],
        }),
        params: ConversationParams,
        body: SendMessageBody,
        response: { 201: Message },
      },
    );
}
