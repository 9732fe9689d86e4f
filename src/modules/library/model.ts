import { t } from "elysia";
import { CursorQuery, DateTimeInput, Enum, HttpUrl, Id, Int, NextCursor, Nullable, Timestamp } from "../../platform/http/schemas";
import { CONTENT_TYPES, LIVE_PROVIDERS, VISIBILITIES } from "../../schema/library";
import { Attachment } from "../files/model";

const RefId = t.String({ minLength: 1, maxLength: 100, error: "must be an id" });
/** Linked-video and live URLs: an absolute http(s) URI (a player opens it; other schemes are refused). */
const PlayerUrl = HttpUrl(1000);

export const ContentParams = t.Object({ contentId: Id });
export const NodeParams = t.Object({ nodeId: Id });

export const ContentTypeSchema = Enum(CONTENT_TYPES);
export const VisibilitySchema = Enum(VISIBILITIES);
export const LiveProviderSchema = Enum(LIVE_PROVIDERS);

export const Node = t.Object({
  id: t.String(),
  scope: t.Literal("LIBRARY"),
  spaceId: Nullable(t.String()),
  parentId: Nullable(t.String()),
  title: t.String(),
  rank: t.String({ description: "Fractional rank: siblings sort by (rank, id) as plain strings" }),
  depth: Int({ description: "0 for a root node" }),
  childCount: Int(),
  contentCount: Int({ description: "Contents directly in this node that the caller can see" }),
});
export const NodeList = t.Object({ nodes: t.Array(Node) });

export const ContentSummary = t.Object({
  id: t.String(),
  type: ContentTypeSchema,
  title: t.String(),
  description: t.String(),
  visibility: VisibilitySchema,
  authorProfileId: t.String(),
  authorName: Nullable(t.String({ description: "null once the author's member record is deleted" })),
  ready: t.Boolean({ description: "VIDEO, URL_VIDEO, LIVE, DOCUMENT: its typed info is set; other types: always true" }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  canManage: t.Boolean(),
});
export const ContentShare = t.Object({
  targetType: t.Literal("USER"),
  targetId: t.String({ description: "Member.id" }),
  targetName: t.String(),
  level: t.Literal("VIEW"),
});
export const ContentDetail = t.Object({
  ...ContentSummary.properties,
  shares: t.Array(ContentShare, { description: "Shown to the content's managers; [] for other readers" }),
  attachments: t.Array(Attachment),
});
export const ContentPage = t.Object({ contents: t.Array(ContentSummary), nextCursor: NextCursor });

export const VideoInfo = t.Object({
  status: Enum(["uploading", "ready"], {
    description: "uploading until the video's file is ready, then ready (no transcoding step: the file is served as-is in renditions)",
  }),
  durationSec: Nullable(Int()),
  thumbnailUrl: Nullable(t.String()),
  hlsUrl: Nullable(t.String()),
  renditions: t.Array(t.Object({ rendition: t.String(), url: t.String() })),
});
export const UrlVideoInfo = t.Object({
  provider: t.Literal("video_host"),
  url: t.String(),
  videoKey: Nullable(t.String({ description: "The video id when the URL is of a known video host, else null" })),
});
export const LiveInfo = t.Object({
  provider: LiveProviderSchema,
  joinUrl: t.String(),
  startAt: Nullable(Timestamp),
  endAt: Nullable(Timestamp),
  status: Enum(["SCHEDULED", "LIVE", "ENDED"], {
    description: "By the clock: SCHEDULED before startAt (or while it is null), LIVE until endAt, ENDED after",
  }),
});
export const DocumentInfo = t.Object({
  fileId: t.String(),
  mimeType: t.String(),
  pageCount: Nullable(Int()),
  downloadUrl: Nullable(t.String()),
});
export const ContentInfo = t.Object({
  type: ContentTypeSchema,
  info: Nullable(t.Union([VideoInfo, UrlVideoInfo, LiveInfo, DocumentInfo])),
});

const Title = t.String({ minLength: 1, maxLength: 300, error: "must be 1..300 characters" });
const Description = t.String({ maxLength: 15000, error: "must be at most 15000 characters" });
const FileIds = t.Array(RefId, { maxItems: 20, error: "must be at most 20 file ids" });

export const CreateContentBody = t.Object({
  type: ContentTypeSchema,
  title: Title,
  description: t.Optional(Description),
  visibility: t.Optional(VisibilitySchema),
  nodeId: t.Optional(Nullable(RefId)),
  fileIds: t.Optional(FileIds),
});
export const UpdateContentBody = t.Object({
  title: t.Optional(Title),
  description: t.Optional(Description),
  visibility: t.Optional(VisibilitySchema),
  fileIds: t.Optional(FileIds),
  nodeId: t.Optional(
    t.String({
      minLength: 1,
      maxLength: 100,
      error: "must be a folder id",
      description: "Moves the content into this folder of the same space (or of the tenant library for a library content)",
    }),
  ),
});
export const ListContentsQuery = t.Object({
  nodeId: t.Optional(RefId),
  type: t.Optional(ContentTypeSchema),
  q: t.Optional(t.String()),
  ...CursorQuery,
});

export const AttachVideoBody = t.Object({ fileId: RefId });
export const SetLinkedVideoBody = t.Object({ url: PlayerUrl });
export const SetLiveSessionBody = t.Object({
  joinUrl: PlayerUrl,
  provider: t.Optional(LiveProviderSchema),
  startAt: t.Optional(Nullable(DateTimeInput)),
  endAt: t.Optional(Nullable(DateTimeInput)),
});
export const SetDocumentBody = t.Object({
  fileId: RefId,
  pageCount: t.Optional(Int({ minimum: 1, maximum: 9007199254740991, error: "must be an integer greater than 0" })),
});
export const ShareContentBody = t.Object({
  shares: t.Array(t.Object({ targetType: Enum(["USER"]), targetId: RefId, level: Enum(["VIEW"]) }), {
    maxItems: 500,
    error: "must be at most 500 shares",
  }),
});

const NodeTitle = t.String({ minLength: 1, maxLength: 200, error: "must be 1..200 characters" });
export const CreateNodeBody = t.Object({
  title: NodeTitle,
  spaceId: t.Optional(Nullable(RefId)),
  parentId: t.Optional(Nullable(RefId)),
  prevNodeId: t.Optional(Nullable(RefId)),
  nextNodeId: t.Optional(Nullable(RefId)),
});
export const RenameNodeBody = t.Object({ title: NodeTitle });
export const MoveNodeBody = t.Object({
  parentId: t.Optional(Nullable(RefId)),
  prevNodeId: t.Optional(Nullable(RefId)),
  nextNodeId: t.Optional(Nullable(RefId)),
});
