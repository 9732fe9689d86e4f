import { mac, sameMac } from "../crypto";
import type { Runtime } from "../runtime";

/** Lifetimes of signed file URLs (docs/rules/files.md#file-urls). */
export const UPLOAD_TOKEN_MS = 15 * 60 * 1000;
export const DOWNLOAD_TOKEN_MS = 60 * 60 * 1000;

const MAC_PURPOSE = "file-url";

/**
 * What a signed file URL grants. An upload token is single-use through the file's own state
 * (pending → ready); a download token names its reader (member id) and the record that attaches
 * the file ("post:<id>", or "file" for the uploader's own view).
 */
export type FileTokenClaims =
  | { purpose: "upload"; tenantId: string; fileId: string; expiresAt: number }
  | { purpose: "download"; tenantId: string; fileId: string; expiresAt: number; readerId: string; attachedTo: string };

/** `<base64url(JSON array)>.<mac>`: opaque to clients, readable and checkable here without a lookup. */
export function signFileToken(secret: string, claims: FileTokenClaims): string {
  const fields =
    claims.purpose === "upload"
      ? ["u", claims.tenantId, claims.fileId, claims.expiresAt]
      : ["d", claims.tenantId, claims.fileId, claims.expiresAt, claims.readerId, claims.attachedTo];
  const payload = Buffer.from(JSON.stringify(fields)).toString("base64url");
  return `${payload}.${mac(secret, MAC_PURPOSE, payload)}`;
}

/** The claims of a well-signed, unexpired token, else null (a forged, malformed or expired token alike). */
export function verifyFileToken(secret: string, token: string | undefined | null, now = Date.now()): FileTokenClaims | null {
  if (!token || token.length > 2000) return null;
  const dot = token.indexOf(".");
  if (dot <= 0) return null;
  const payload = token.slice(0, dot);
  if (!sameMac(token.slice(dot + 1), mac(secret, MAC_PURPOSE, payload))) return null;
  let fields: unknown;
  try {
    fields = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  if (!Array.isArray(fields)) return null;
  const [kind, tenantId, fileId, expiresAt, readerId, attachedTo] = fields;
  if (typeof tenantId !== "string" || typeof fileId !== "string" || typeof expiresAt !== "number" || expiresAt <= now) return null;
  if (kind === "u" && fields.length === 4) return { purpose: "upload", tenantId, fileId, expiresAt };
  if (kind === "d" && fields.length === 6 && typeof readerId === "string" && typeof attachedTo === "string") {
    return { purpose: "download", tenantId, fileId, expiresAt, readerId, attachedTo };
  }
  return null;
}

const contentUrl = (rt: Runtime, tenantId: string, fileId: string, token: string) =>
  `${rt.schoolUrl({ id: tenantId })}/api/v1/files/${encodeURIComponent(fileId)}/content?token=${encodeURIComponent(token)}`;

/** The `uploadUrl` of requestUpload: the uploadFileContent URL with a 15-minute token. */
export function fileUploadUrl(rt: Runtime, f: { tenantId: string; fileId: string }, now = Date.now()): string {
  return contentUrl(rt, f.tenantId, f.fileId, signFileToken(rt.secret, { purpose: "upload", ...f, expiresAt: now + UPLOAD_TOKEN_MS }));
}

/**
 * What a download-time probe of the attaching record answers (docs/rules/files.md#download-rules): "ok" to stream,
 * "forbidden" (403) for a reader the record's download rule refuses, "gone" (404) when the record
 * no longer attaches the file or the reader can no longer see it.
 */
export type DownloadRule = "ok" | "forbidden" | "gone";

/**
 * The reader of a download token for a public record (the hosted login page's images): no member;
 * only the public rules of files/kinds.ts accept it. Member ids are never empty.
 */
export const ANONYMOUS_READER = "";

/** The reader a download token names, as the probes need it. */
export type DownloadReader = { memberId: string; profileId: string; permissions: readonly string[] };

/**
 * Every emitted file `url`/`downloadUrl`: the downloadFileContent URL with a 1-hour token bound to
 * the file, the reader (member id) and the attaching record (`"<prefix>:<id>"`, see files/kinds.ts).
 */
export function fileDownloadUrl(
  rt: Runtime,
  f: { tenantId: string; fileId: string; readerId: string; attachedTo: string },
  now = Date.now(),
): string {
  return contentUrl(rt, f.tenantId, f.fileId, signFileToken(rt.secret, { purpose: "download", ...f, expiresAt: now + DOWNLOAD_TOKEN_MS }));
}
