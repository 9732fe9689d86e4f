import { Elysia, t } from "elysia";
import { authPlugin } from "../../platform/auth/context";
import { route } from "../../platform/http/route";
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
  return new Elysia({ name: "module.library" })
    .use(authPlugin(rt))
    .get("/library/contents", ({ actor, query }) => listContents(rt, actor, query), {
      ...route("listContents", TAG, "session"),
      query: ListContentsQuery,
      response: { 200: ContentPage },
    })
    .post(
      "/library/contents",
      ({ actor, body, set }) => {
        set.status = 201;
        return createContent(rt, actor, body);
      },
      { ...route("createContent", TAG, UPLOAD), body: CreateContentBody, response: { 201: ContentDetail } },
    )
    .get("/library/contents/:contentId", ({ actor, params }) => getContent(rt, actor, params.contentId), {
      ...route("getContent", TAG, "session"),
      params: ContentParams,
      response: { 200: ContentDetail },
    })
    .patch("/library/contents/:contentId", ({ actor, params, body }) => updateContent(rt, actor, params.contentId, body), {
      ...route("updateContent", TAG, "contentManager"),
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
      { ...route("deleteContent", TAG, "contentManager"), params: ContentParams, response: { 204: t.Void() } },
    )
    .put("/library/contents/:contentId/shares", ({ actor, params, body }) => shareContent(rt, actor, params.contentId, body), {
      ...route("shareContent", TAG, "contentManager"),
      params: ContentParams,
      body: ShareContentBody,
      response: { 200: ContentDetail },
    })
    .get("/library/contents/:contentId/info", ({ actor, params }) => getContentInfo(rt, actor, params.contentId), {
      ...route("getContentInfo", TAG, "contentViewer"),
      params: ContentParams,
      response: { 200: ContentInfo },
    })
    .put("/library/contents/:contentId/video", ({ actor, params, body }) => attachVideo(rt, actor, params.contentId, body.fileId), {
      ...route("attachVideo", TAG, "contentManager"),
      params: ContentParams,
      body: AttachVideoBody,
      response: { 200: VideoInfo },
    })
    .put("/library/contents/:contentId/url-video", ({ actor, params, body }) => setLinkedVideo(rt, actor, params.contentId, body.url), {
      ...route("setLinkedVideo", TAG, "contentManager"),
      params: ContentParams,
      body: SetLinkedVideoBody,
      response: { 200: UrlVideoInfo },
    })
    .put("/library/contents/:contentId/live", ({ actor, params, body }) => setLiveSession(rt, actor, params.contentId, body), {
      ...route("setLiveSession", TAG, "contentManager"),
      params: ContentParams,
      body: SetLiveSessionBody,
      response: { 200: LiveInfo },
    })
    .put("/library/contents/:contentId/document", ({ actor, params, body }) => setDocument(rt, actor, params.contentId, body), {
      ...route("setDocument", TAG, "contentManager"),
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
      { ...route("createNode", TAG, UPLOAD), body: CreateNodeBody, response: { 201: Node } },
    )
    .get("/library/nodes", ({ actor }) => listNodes(actor), {
      ...route("listNodes", TAG, "session"),
      response: { 200: NodeList },
    })
    .patch("/library/nodes/:nodeId", ({ actor, params, body }) => renameNode(actor, params.nodeId, body.title), {
      ...route("renameNode", TAG, UPLOAD),
      params: NodeParams,
      body: RenameNodeBody,
      response: { 200: Node },
    })
    .post("/library/nodes/:nodeId/move", ({ actor, params, body }) => moveNode(actor, params.nodeId, body), {
      ...route("moveNode", TAG, UPLOAD),
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
      { ...route("deleteNode", TAG, UPLOAD), params: NodeParams, response: { 204: t.Void() } },
    );
}
