import { t } from "elysia";
import { authPlugin } from "../../platform/auth/context";
import { apiModule, route } from "../../platform/http/route";
import type { Runtime } from "../../platform/runtime";
import { attachVideo, getContentInfo, setDocument, setLinkedVideo, setLiveSession } from "./info";
import {
  AttachVideoBody,
  ContentDetail,
  ContentInfo,
  ContentPage,
  ContentParams,
  CreateContentBody,
  CreateNodeBody,
  DocumentInfo,
  ListContentsQuery,
  LiveInfo,
  MoveNodeBody,
  Node,
  NodeList,
  NodeParams,
  RenameNodeBody,
  SetDocumentBody,
  SetLinkedVideoBody,
  SetLiveSessionBody,
  ShareContentBody,
  UpdateContentBody,
  UrlVideoInfo,
  VideoInfo,
} from "./model";
import { createNode, deleteNode, listNodes, moveNode, renameNode } from "./nodes";
import { createContent, deleteContent, getContent, listContents, shareContent, updateContent } from "./service";

const TAG = "library";
const UPLOAD = "permission:library:upload";

/** The content library: contents, their typed info and shares, and folder nodes. */
export function libraryModule(rt: Runtime) {
  return apiModule("module.library")
    .use(authPlugin(rt))
    .get("/library/contents", ({ actor, query }) => listContents(rt, actor, query), {
      ...route("listContents", TAG, "session", {
        summary: "List library contents",
        description: "The contents the caller can see, filtered by `nodeId`, `type` and `q` (title), a cursor page at a time.",
        errors: ["400 `VALIDATION_FAILED` naming `nodeId` when it is not a folder the caller can see"],
      }),
      query: ListContentsQuery,
      response: { 200: ContentPage },
    })
    .post(
      "/library/contents",
      ({ actor, body, set }) => {
        set.status = 201;
        return createContent(rt, actor, body);
      },
      {
        ...route("createContent", TAG, UPLOAD, {
          summary: "Create a library content",
          description:
            "Creates a content of a type (VIDEO, QUIZ, ASSIGNMENT, …), PRIVATE by default, in the tenant library or a folder; in a space's folder it needs ADMIN of that space. The caller is its author.",
          errors: [
            "400 `VALIDATION_FAILED` when `nodeId` or a file id names nothing usable",
            "403 `FORBIDDEN` for a space's folder the caller does not administer",
          ],
        }),
        body: CreateContentBody,
        response: { 201: ContentDetail },
      },
    )
    .get("/library/contents/:contentId", ({ actor, params }) => getContent(rt, actor, params.contentId), {
      ...route("getContent", TAG, "session", {
        summary: "Get a library content",
        description: "One content the caller can see, with `canManage`.",
        errors: ["404 `NOT_FOUND` for an unknown content or one the caller cannot see"],
      }),
      params: ContentParams,
      response: { 200: ContentDetail },
    })
    .patch("/library/contents/:contentId", ({ actor, params, body }) => updateContent(rt, actor, params.contentId, body), {
      ...route("updateContent", TAG, "contentManager", {
        summary: "Update a library content",
        description:
          "Changes title, description, visibility or files, or moves the content (`nodeId`) into another folder of its own space (of the tenant library for a library content) where you could create it; switching a space's draft from PRIVATE to SHARED publishes it to the space. Absent fields stay.",
        errors: [
          "400 `VALIDATION_FAILED` when a file id names no ready file, or `nodeId` is not a folder you see of the content's own space",
          "403 `FORBIDDEN` when you could not create a content in that folder (library:upload, ADMIN of its space)",
        ],
      }),
      params: ContentParams,
      body: UpdateContentBody,
      response: { 200: ContentDetail },
    })
    .delete(
      "/library/contents/:contentId",
      ({ actor, params, set }) => {
        deleteContent(actor, params.contentId);
        set.status = 204;
      },
      {
        ...route("deleteContent", TAG, "contentManager", {
          summary: "Delete a library content",
          description:
            "Deletes the content with its configs, submissions, attempts, responses and shares; challenge tasks pointing at it lose the link.",
        }),
        params: ContentParams,
        response: { 204: t.Void() },
      },
    )
    .put("/library/contents/:contentId/shares", ({ actor, params, body }) => shareContent(rt, actor, params.contentId, body), {
      ...route("shareContent", TAG, "contentManager", {
        summary: "Set a content's shares",
        description: "Replaces the list of members it is shared with (effective while visibility is SHARED). Answers the content.",
        errors: ["400 `VALIDATION_FAILED` when a `targetId` names no member"],
      }),
      params: ContentParams,
      body: ShareContentBody,
      response: { 200: ContentDetail },
    })
    .get("/library/contents/:contentId/info", ({ actor, params }) => getContentInfo(rt, actor, params.contentId), {
      ...route("getContentInfo", TAG, "contentViewer", {
        summary: "Get a content's typed info",
        description: "The VideoInfo, UrlVideoInfo, LiveInfo or DocumentInfo of the content (null until set).",
        errors: ["404 `NOT_FOUND` for a content of another type"],
      }),
      params: ContentParams,
      response: { 200: ContentInfo },
    })
    .put("/library/contents/:contentId/video", ({ actor, params, body }) => attachVideo(rt, actor, params.contentId, body.fileId), {
      ...route("attachVideo", TAG, "contentManager", {
        summary: "Attach a video file",
        description: "Sets the VIDEO content's file; `status` is `uploading` until the file is ready.",
        errors: ["400 `VALIDATION_FAILED` when `fileId` names no file of the caller", "404 `NOT_FOUND` for a content that is not a VIDEO"],
      }),
      params: ContentParams,
      body: AttachVideoBody,
      response: { 200: VideoInfo },
    })
    .put("/library/contents/:contentId/url-video", ({ actor, params, body }) => setLinkedVideo(rt, actor, params.contentId, body.url), {
      ...route("setLinkedVideo", TAG, "contentManager", {
        summary: "Set a linked video",
        description: "Sets the URL_VIDEO content's link.",
        errors: ["404 `NOT_FOUND` for a content that is not a URL_VIDEO"],
      }),
      params: ContentParams,
      body: SetLinkedVideoBody,
      response: { 200: UrlVideoInfo },
    })
    .put("/library/contents/:contentId/live", ({ actor, params, body }) => setLiveSession(rt, actor, params.contentId, body), {
      ...route("setLiveSession", TAG, "contentManager", {
        summary: "Set a live session",
        description: "Sets the LIVE content's join URL, provider and times; `status` follows the clock (SCHEDULED, LIVE, ENDED).",
        errors: ["400 `VALIDATION_FAILED` when `endAt` is not after `startAt`", "404 `NOT_FOUND` for a content that is not LIVE"],
      }),
      params: ContentParams,
      body: SetLiveSessionBody,
      response: { 200: LiveInfo },
    })
    .put("/library/contents/:contentId/document", ({ actor, params, body }) => setDocument(rt, actor, params.contentId, body), {
      ...route("setDocument", TAG, "contentManager", {
        summary: "Set a document file",
        description: "Sets the DOCUMENT content's file and page count.",
        errors: [
          "400 `VALIDATION_FAILED` when `fileId` names no file of the caller",
          "404 `NOT_FOUND` for a content that is not a DOCUMENT",
        ],
      }),
      params: ContentParams,
      body: SetDocumentBody,
      response: { 200: DocumentInfo },
    })
    .post(
      "/library/nodes",
      ({ actor, body, set }) => {
        set.status = 201;
        return createNode(actor, body);
      },
      {
        ...route("createNode", TAG, UPLOAD, {
          summary: "Create a library folder",
          description:
            "Adds a folder at the root, under `parentId`, or in a space's tree (`spaceId`, ADMINs of the space only), placed between `prevNodeId` and `nextNodeId` (last when neither).",
          errors: [
            "400 `VALIDATION_FAILED` when `parentId` or a neighbour is not usable, or `spaceId` differs from the parent's",
            "403 `FORBIDDEN` for a space the caller does not administer",
            "404 `NOT_FOUND` for a space the caller cannot see",
          ],
        }),
        body: CreateNodeBody,
        response: { 201: Node },
      },
    )
    .get("/library/nodes", ({ actor }) => listNodes(actor), {
      ...route("listNodes", TAG, "session", {
        summary: "List library folders",
        description: "Every folder the caller can see: the tenant library's and those of the caller's spaces.",
      }),
      response: { 200: NodeList },
    })
    .patch("/library/nodes/:nodeId", ({ actor, params, body }) => renameNode(actor, params.nodeId, body.title), {
      ...route("renameNode", TAG, UPLOAD, {
        summary: "Rename a library folder",
        description: "Renames a folder and answers it.",
        errors: ["403 `FORBIDDEN` for a space's folder the caller does not administer", "404 `NOT_FOUND` for an unknown folder"],
      }),
      params: NodeParams,
      body: RenameNodeBody,
      response: { 200: Node },
    })
    .post("/library/nodes/:nodeId/move", ({ actor, params, body }) => moveNode(actor, params.nodeId, body), {
      ...route("moveNode", TAG, UPLOAD, {
        summary: "Move a library folder",
        description:
          "Moves a folder under another parent of the same space (or the root) between two siblings; depths of the subtree follow.",
        errors: [
          "400 `VALIDATION_FAILED` for a parent in another space, the folder itself or a descendant, or neighbours that are not children of the parent",
          "403 `FORBIDDEN` for a space's folder the caller does not administer",
          "404 `NOT_FOUND` for an unknown folder",
        ],
      }),
      params: NodeParams,
      body: MoveNodeBody,
      response: { 200: Node },
    })
    .delete(
      "/library/nodes/:nodeId",
      ({ actor, params, set }) => {
        deleteNode(actor, params.nodeId);
        set.status = 204;
      },
      {
        ...route("deleteNode", TAG, UPLOAD, {
          summary: "Delete a library folder",
          description: "Deletes an empty folder.",
          errors: [
            "403 `FORBIDDEN` for a space's folder the caller does not administer",
            "404 `NOT_FOUND` for an unknown folder",
            "409 `IN_USE` while it holds folders or contents",
          ],
        }),
        params: NodeParams,
        response: { 204: t.Void() },
      },
    );
}
