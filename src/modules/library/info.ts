// The typed info of playable contents: attachVideo, setLinkedVideo, setLiveSession, setDocument
// and getContentInfo. Stored as the minimal facts (file id, URL, …); URLs are signed on each read.
import { eq } from "drizzle-orm";
import type { Static } from "elysia";
import type { Actor } from "../../platform/auth/actor";
import { type Db, write } from "../../platform/db/types";
import { invalid } from "../../platform/http/errors";
import { iso } from "../../platform/http/schemas";
import { timeWindow, windowPhase } from "../../platform/http/time-window";
import type { Runtime } from "../../platform/runtime";
import { type LIVE_PROVIDERS, libraryContents, MEDIA_TYPES, type StoredInfo } from "../../schema/library";
import { fileDownloadUrl, readyFilesByIds, requireReadyFiles } from "../files/attachments";
import { type ContentRow, contentForManager, contentForViewer } from "./access";
import type { ContentInfo, DocumentInfo, LiveInfo, UrlVideoInfo, VideoInfo } from "./model";

type InfoRecord = NonNullable<Static<typeof ContentInfo>["info"]>;

const LIVE_STATUS = { BEFORE: "SCHEDULED", OPEN: "LIVE", AFTER: "ENDED" } as const;

/** The typed info of a content for this reader, or null until its set operation ran. */
export function renderInfo(rt: Runtime, actor: Actor, db: Db, content: Pick<ContentRow, "id" | "info">): InfoRecord | null {
  const info = content.info;
  if (!info) return null;
  const url = (fileId: string) =>
    fileDownloadUrl(rt, { tenantId: actor.tenantId, fileId, readerId: actor.memberId, attachedTo: `content:${content.id}` });
  switch (info.kind) {
    case "VIDEO": {
      const file = readyFilesByIds(db, [info.fileId]).get(info.fileId);
      // No transcoder: the uploaded file is the one rendition, served as-is, once its bytes are in.
      return {
        status: file ? "ready" : "uploading",
        durationSec: null,
        thumbnailUrl: null,
        hlsUrl: null,
        renditions: file ? [{ rendition: "original", url: url(file.id) }] : [],
      } satisfies Static<typeof VideoInfo>;
    }
    case "URL_VIDEO":
      return { provider: "video_host", url: info.url, videoKey: info.videoKey } satisfies Static<typeof UrlVideoInfo>;
    case "LIVE": {
      const window = { start: info.startAt ?? null, end: info.endAt ?? null };
      const phase = window.start === null ? "BEFORE" : windowPhase(window, Date.now());
      return {
        provider: info.provider,
        joinUrl: info.joinUrl,
        startAt: iso(window.start),
        endAt: iso(window.end),
        status: LIVE_STATUS[phase],
      } satisfies Static<typeof LiveInfo>;
    }
    case "DOCUMENT": {
      const file = readyFilesByIds(db, [info.fileId]).get(info.fileId);
      return {
        fileId: info.fileId,
        mimeType: file?.contentType ?? "application/octet-stream",
        pageCount: info.pageCount,
        downloadUrl: file ? url(file.id) : null,
      } satisfies Static<typeof DocumentInfo>;
    }
  }
}

/** The id of a video on a known host (YouTube, Vimeo), else null. */
export function videoKeyOf(raw: string): string | null {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return null;
  }
  const host = u.hostname.toLowerCase().replace(/^(www\.|m\.|music\.)/, "");
  const parts = u.pathname.split("/").filter(Boolean);
  const youtubeId = (v: string | null | undefined) => (v && /^[A-Za-z0-9_-]{11}$/.test(v) ? v : null);
  if (host === "youtu.be") return youtubeId(parts[0]);
  if (host === "youtube.com" || host === "youtube-nocookie.com") {
    if (parts[0] === "watch") return youtubeId(u.searchParams.get("v"));
    if (["embed", "shorts", "live", "v"].includes(parts[0] ?? "")) return youtubeId(parts[1]);
    return null;
  }
  if (host === "vimeo.com") return parts.find((p) => /^\d+$/.test(p)) ?? null;
  if (host === "player.vimeo.com" && parts[0] === "video") return /^\d+$/.test(parts[1] ?? "") ? (parts[1] as string) : null;
  return null;
}

/** A file newly named by a set operation must be the caller's own ready upload (400 naming fileId). */
function requireFile(tx: Db, actor: Actor, fileId: string) {
  try {
    requireReadyFiles(tx, actor, [fileId], "fileId");
  } catch {
    throw invalid("fileId", "must be one of your own uploaded (ready) files");
  }
}

const storedFileId = (info: StoredInfo | null) => (info && (info.kind === "VIDEO" || info.kind === "DOCUMENT") ? info.fileId : null);

function setInfo(
  rt: Runtime,
  actor: Actor,
  contentId: string,
  type: StoredInfo["kind"],
  build: (tx: Db, current: StoredInfo | null) => StoredInfo,
) {
  return write(actor.db, (tx) => {
    const content = contentForManager(actor, contentId, type, tx);
    const info = build(tx, content.info);
    tx.update(libraryContents)
      .set({ info, infoFileId: storedFileId(info), updatedAt: Date.now() })
      .where(eq(libraryContents.id, contentId))
      .run();
    return renderInfo(rt, actor, tx, { id: contentId, info });
  });
}

/** Keeps the stored file when the same id is sent again (it may be another manager's upload). */
function fileInfo(tx: Db, actor: Actor, current: StoredInfo | null, fileId: string) {
  if (storedFileId(current) !== fileId) requireFile(tx, actor, fileId);
}

export function attachVideo(rt: Runtime, actor: Actor, contentId: string, fileId: string) {
  return setInfo(rt, actor, contentId, "VIDEO", (tx, current) => {
    fileInfo(tx, actor, current, fileId);
    return { kind: "VIDEO", fileId };
  }) as Static<typeof VideoInfo>;
}

export function setLinkedVideo(rt: Runtime, actor: Actor, contentId: string, url: string) {
  return setInfo(rt, actor, contentId, "URL_VIDEO", () => ({ kind: "URL_VIDEO", url, videoKey: videoKeyOf(url) })) as Static<
    typeof UrlVideoInfo
  >;
}

export function setLiveSession(
  rt: Runtime,
  actor: Actor,
  contentId: string,
  input: { joinUrl: string; provider?: (typeof LIVE_PROVIDERS)[number]; startAt?: string | null; endAt?: string | null },
) {
  const window = timeWindow(input.startAt, input.endAt, "endAt", "startAt");
  return setInfo(rt, actor, contentId, "LIVE", () => ({
    kind: "LIVE",
    joinUrl: input.joinUrl,
    provider: input.provider ?? "other",
    startAt: window.start,
    endAt: window.end,
  })) as Static<typeof LiveInfo>;
}

export function setDocument(rt: Runtime, actor: Actor, contentId: string, input: { fileId: string; pageCount?: number }) {
  return setInfo(rt, actor, contentId, "DOCUMENT", (tx, current) => {
    fileInfo(tx, actor, current, input.fileId);
    return { kind: "DOCUMENT", fileId: input.fileId, pageCount: input.pageCount ?? null };
  }) as Static<typeof DocumentInfo>;
}

/** getContentInfo: any viewer of a VIDEO, URL_VIDEO, LIVE or DOCUMENT content; other types 404. */
export function getContentInfo(rt: Runtime, actor: Actor, contentId: string): Static<typeof ContentInfo> {
  const content = contentForViewer(actor, contentId, MEDIA_TYPES);
  return { type: content.type, info: renderInfo(rt, actor, actor.db, content) };
}
