import { and, eq, sql } from "drizzle-orm";
import type { Static } from "elysia";
import type { Actor } from "../../platform/auth/actor";
import { preparedQuery } from "../../platform/db/sqlite";
import { TenantFileMissingError, type TenantHandle } from "../../platform/db/tenant-store";
import { write } from "../../platform/db/types";
import { attachmentDisposition, MAX_UPLOAD_BYTES, safeFileName, UploadSizeError } from "../../platform/files/storage";
import { ANONYMOUS_READER, type DownloadRule, fileUploadUrl, verifyFileToken } from "../../platform/files/tokens";
import { conflict, forbidden, invalid, notFound, unauthenticated } from "../../platform/http/errors";
import { isoRequired } from "../../platform/http/schemas";
import type { Runtime } from "../../platform/runtime";
import { canSeeAttachedFile, downloadRule, publicDownloadRule } from "./kinds";
import type { FileRecord, RequestUploadBody, UploadTicket } from "./model";
import { files } from "./tables";

export type FileRow = typeof files.$inferSelect;

export function toFileRecord(row: FileRow): Static<typeof FileRecord> {
  return {
    fileId: row.id,
    fileName: row.fileName,
    contentType: row.contentType,
    size: row.size,
    status: row.status,
    createdAt: isoRequired(row.createdAt),
  };
}

function fileById(handle: TenantHandle, fileId: string): FileRow | undefined {
  return preparedQuery(handle.db, "files.byId", (base) =>
    base
      .select()
      .from(files)
      .where(eq(files.id, sql.placeholder("id")))
      .prepare(),
  ).get({ id: fileId });
}

/** A pending file record and its one-use upload URL (docs/rules/files.md#upload). */
export function requestUpload(
  rt: Runtime,
  actor: Actor,
  input: Static<typeof RequestUploadBody>,
  now = Date.now(),
): Static<typeof UploadTicket> {
  const fileId = Bun.randomUUIDv7();
  write(actor.db, (tx) =>
    tx
      .insert(files)
      .values({
        id: fileId,
        uploaderMemberId: actor.memberId,
        fileName: safeFileName(input.fileName),
        contentType: input.contentType,
        size: input.size ?? null,
        status: "pending",
        createdAt: now,
      })
      .run(),
  );
  return { fileId, uploadUrl: fileUploadUrl(rt, { tenantId: actor.tenantId, fileId }, now), contentType: input.contentType };
}

/**
 * Visible to the uploader, or to a caller who can see a record attaching the file
 * (docs/rules/files.md#getfile): each record kind registers its probe (kinds.ts); else 404.
 */
export function getFile(actor: Actor, fileId: string) {
  const row = fileById(actor.handle, fileId);
  if (!row) throw notFound();
  if (row.uploaderMemberId !== actor.memberId && !canSeeAttachedFile(actor.db, actor, fileId)) throw notFound();
  return toFileRecord(row);
}

/** Runs a short synchronous step in the tenant a verified token names; a removed tenant is 404. */
function inTenant<T>(rt: Runtime, tenantId: string, fn: (handle: TenantHandle) => T): T {
  try {
    return rt.tenants.use(tenantId, fn);
  } catch (e) {
    if (e instanceof TenantFileMissingError) throw notFound();
    throw e;
  }
}

const sameMediaType = (sent: string | null, declared: string) =>
  sent !== null && sent.trim().toLowerCase() === declared.trim().toLowerCase();

/**
 * uploadFileContent (docs/rules/files.md#upload): the token is the authorization; the bytes stream to disk
 * and must match the declared size and type. One use: the pending → ready change happens once,
 * in the same transaction that publishes the file, so of two racing uploads one gets 409.
 */
export async function uploadFileContent(
  rt: Runtime,
  fileId: string,
  token: string | undefined,
  request: Request,
  contentType: string | null,
): Promise<Static<typeof FileRecord>> {
  const claims = verifyFileToken(rt.secret, token);
  if (claims?.purpose !== "upload" || claims.fileId !== fileId) throw unauthenticated();
  const { tenantId } = claims;
  const row = inTenant(rt, tenantId, (h) => fileById(h, fileId));
  if (!row) throw notFound();
  if (!sameMediaType(contentType, row.contentType)) throw invalid("Content-Type", "must equal the contentType declared in requestUpload");
  const sizeMessage =
    row.size === null ? `must be at most ${MAX_UPLOAD_BYTES} bytes` : "must have exactly the size declared in requestUpload";
  const length = request.headers.get("content-length");
  if (length !== null && (row.size === null ? Number(length) > MAX_UPLOAD_BYTES : Number(length) !== row.size)) {
    throw invalid("body", sizeMessage);
  }
  const claim = `${tenantId}/${fileId}`;
  if (row.status !== "pending" || uploading.has(claim)) throw conflict("INVALID_STATE", "This file has already been uploaded.");

  // One upload per file at a time: the S3 driver writes under the final name (docs/rules/storage.md#uploads).
  uploading.add(claim);
  const bound = row.size === null ? { max: MAX_UPLOAD_BYTES } : { max: row.size, exact: row.size };
  const received = await rt.files.receive(tenantId, fileId, request.body, bound, rt.config.requestTimeout * 1000).catch((e) => {
    uploading.delete(claim);
    throw e instanceof UploadSizeError ? invalid("body", sizeMessage) : e;
  });
  try {
    const ready = inTenant(rt, tenantId, (h) =>
      write(h.db, (tx) => {
        const updated = tx
          .update(files)
          .set({ status: "ready", size: received.size, readyAt: Date.now() })
          .where(and(eq(files.id, fileId), eq(files.status, "pending")))
          .returning()
          .get();
        if (!updated) throw conflict("INVALID_STATE", "This file has already been uploaded.");
        received.publish();
        return updated;
      }),
    );
    return toFileRecord(ready);
  } finally {
    uploading.delete(claim);
    await received.discard();
  }
}

/** `tenantId/fileId` of the uploads being received now. */
const uploading = new Set<string>();

/** An upload of this `tenantId/fileId` is streaming now (the file collector leaves it alone). */
export const isUploading = (claim: string) => uploading.has(claim);

/** `bytes=a-b`, `bytes=a-`, `bytes=-n` (one range, RFC 9110 §14.1.2) of `size` bytes: [start, end) or "unsatisfiable"; null = the whole file. */
export function byteRange(header: string | null, size: number): { start: number; end: number } | "unsatisfiable" | null {
  const m = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!m || (m[1] === "" && m[2] === "")) return null; // absent, several ranges or another unit: the whole file
  if (m[1] === "") {
    const n = Math.min(Number(m[2]), size);
    return n > 0 ? { start: size - n, end: size } : "unsatisfiable";
  }
  const start = Number(m[1]);
  const end = m[2] === "" ? size : Math.min(Number(m[2]) + 1, size);
  return start < size && start < end ? { start, end } : "unsatisfiable";
}

/**
 * downloadFileContent (docs/rules/files.md#download-rules): streams a ready file to the reader the token names, as an
 * attachment, while the record the token names still attaches the file and the reader can still see
 * it (kinds.ts; e.g. a post's allowFileDownload → 403 for non-ADMIN readers).
 */
export async function downloadFileContent(rt: Runtime, fileId: string, token: string | undefined, range: string | null): Promise<Response> {
  const claims = verifyFileToken(rt.secret, token);
  if (claims?.purpose !== "download" || claims.fileId !== fileId) throw unauthenticated();
  const row = inTenant(rt, claims.tenantId, (h) => {
    let rule: DownloadRule;
    if (claims.readerId === ANONYMOUS_READER) rule = publicDownloadRule(h.db, claims.attachedTo, fileId);
    else {
      const reader = rt.resolveMember(h, claims.readerId);
      if (!reader?.isActive) throw unauthenticated();
      rule = downloadRule(h.db, claims.attachedTo, fileId, reader);
    }
    if (rule === "forbidden") throw forbidden();
    if (rule === "gone") throw notFound();
    return fileById(h, fileId);
  });
  if (row?.status !== "ready") throw notFound();
  const size = await rt.files.size(claims.tenantId, fileId);
  if (size === null) throw notFound();
  const part = byteRange(range, size);
  if (part === "unsatisfiable") return new Response(null, { status: 416, headers: { "content-range": `bytes */${size}` } });
  const { start, end } = part ?? { start: 0, end: size };
  return new Response(rt.files.body(claims.tenantId, fileId, start, end), {
    status: part ? 206 : 200,
    headers: {
      "content-type": row.contentType,
      "content-length": String(end - start),
      "accept-ranges": "bytes",
      ...(part ? { "content-range": `bytes ${start}-${end - 1}/${size}` } : {}),
      "content-disposition": attachmentDisposition(row.fileName),
      // The type is the uploader's word: never sniff it, never render it as our origin's page.
      "x-content-type-options": "nosniff",
      "content-security-policy": "sandbox",
      "cache-control": "private, no-cache",
    },
  });
}
