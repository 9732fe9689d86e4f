// What the modules that attach files (posts, challenges, library, submissions, quizzes, surveys)
// use: check the ids a caller sends, load the rows of stored ids, and render Attachments.
import { and, eq, inArray } from "drizzle-orm";
import type { Static } from "elysia";
import type { Db } from "../../platform/db/types";
import { fileDownloadUrl } from "../../platform/files/tokens";
import { type FieldError, invalidMany, Problem } from "../../platform/http/errors";
import type { Runtime } from "../../platform/runtime";
import type { Attachment } from "./model";
import { files } from "./tables";

export { fileDownloadUrl } from "../../platform/files/tokens";

export type ReadyFile = { id: string; fileName: string; contentType: string; size: number };

const readyColumns = { id: files.id, fileName: files.fileName, contentType: files.contentType, size: files.size };

/**
 * Body references (docs/rules/files.md#attachments): every id must be the caller's own `ready` upload, listed once,
 * else 400 VALIDATION_FAILED naming each bad item (`fileIds[2]`). Returns the rows in the order
 * given, from one query. A record that keeps files attached by someone else (an edit by another
 * admin) should pass only the ids it newly attaches.
 */
export function requireReadyFiles(db: Db, actor: { memberId: string }, fileIds: readonly string[], field = "fileIds"): ReadyFile[] {
  if (fileIds.length === 0) return [];
  const rows = db
    .select(readyColumns)
    .from(files)
    .where(and(inArray(files.id, [...new Set(fileIds)]), eq(files.uploaderMemberId, actor.memberId), eq(files.status, "ready")))
    .all();
  const byId = new Map(rows.map((r) => [r.id, { ...r, size: r.size ?? 0 }]));
  const seen = new Set<string>();
  const errors: FieldError[] = [];
  fileIds.forEach((id, i) => {
    if (seen.has(id)) errors.push({ in: "body", field: `${field}[${i}]`, message: "repeats an earlier file" });
    else if (!byId.has(id)) errors.push({ in: "body", field: `${field}[${i}]`, message: "must be one of your own uploaded (ready) files" });
    seen.add(id);
  });
  if (errors.length) throw invalidMany(errors);
  return fileIds.map((id) => byId.get(id) as ReadyFile);
}

/** The file ids that questions and their options attach (quizzes, surveys), in order. */
export function questionFileIds(questions: readonly { fileIds: readonly string[]; options: readonly { fileIds: readonly string[] }[] }[]) {
  return questions.flatMap((q) => [...q.fileIds, ...q.options.flatMap((o) => o.fileIds)]);
}

/**
 * The file ids of a body that attaches files under one or more fields. Each list names a file once
 * (else `repeats an earlier file` on that item); ids the record does not attach yet (`kept` = those it
 * does, which may be another manager's) must be the caller's own ready uploads, checked by `check` in
 * one query and reported on the first field naming them. Errors go to `err` as they are found.
 */
export function attachableFiles(kept: ReadonlySet<string>, err: (field: string, message: string) => void) {
  const fresh = new Map<string, string>(); // file id → first field naming it
  return {
    /** The list without repeats, noting what must be checked. */
    take(ids: readonly string[] | null | undefined, field: string): string[] {
      const seen = new Set<string>();
      (ids ?? []).forEach((id, k) => {
        if (seen.has(id)) err(`${field}[${k}]`, "repeats an earlier file");
        else if (!kept.has(id) && !fresh.has(id)) fresh.set(id, `${field}[${k}]`);
        seen.add(id);
      });
      return [...seen];
    },
    check(db: Db, actor: { memberId: string }) {
      if (fresh.size === 0) return;
      const ids = [...fresh.keys()];
      try {
        requireReadyFiles(db, actor, ids, "files");
      } catch (e) {
        if (!(e instanceof Problem) || !e.errors) throw e;
        for (const fe of e.errors) {
          const k = Number(/\[(\d+)\]$/.exec(fe.field)?.[1]);
          err(fresh.get(ids[k] as string) as string, fe.message);
        }
      }
    },
  };
}

/**
 * fileIds of a create or update of a record that attaches files: each listed once; ids the record
 * does not attach yet (`kept` = those it does) must be the caller's own ready uploads, while kept
 * ones may be another manager's. Errors name the position sent (`fileIds[2]`).
 */
export function requireAttachableFiles(
  db: Db,
  actor: { memberId: string },
  fileIds: readonly string[],
  kept: ReadonlySet<string>,
  field = "fileIds",
) {
  const errors: FieldError[] = [];
  const list = attachableFiles(kept, (at, message) => errors.push({ in: "body", field: at, message }));
  list.take(fileIds, field);
  list.check(db, actor);
  if (errors.length) throw invalidMany(errors.sort((a, b) => a.field.localeCompare(b.field, "en", { numeric: true })));
}

/** The ready files among stored ids (no owner check: for rendering records that attach them), in one query. */
export function readyFilesByIds(db: Db, fileIds: readonly string[]): Map<string, ReadyFile> {
  if (fileIds.length === 0) return new Map();
  const rows = db
    .select(readyColumns)
    .from(files)
    .where(and(inArray(files.id, [...new Set(fileIds)]), eq(files.status, "ready")))
    .all();
  return new Map(rows.map((r) => [r.id, { ...r, size: r.size ?? 0 }]));
}

/**
 * An Attachment for one reader: `url` is a 1-hour download URL bound to the file, the
 * reader and the attaching record (`attachedTo`, e.g. "post:<id>"). Callers that must hide the URL
 * (a post with allowFileDownload false, for non-ADMIN readers) set `url: null` on the result.
 */
export function attachmentOf(
  rt: Runtime,
  actor: { tenantId: string; memberId: string },
  row: ReadyFile,
  attachedTo: string,
): Static<typeof Attachment> {
  return {
    fileId: row.id,
    name: row.fileName,
    contentType: row.contentType,
    size: row.size,
    url: fileDownloadUrl(rt, { tenantId: actor.tenantId, fileId: row.id, readerId: actor.memberId, attachedTo }),
    preview: { status: "none", pdfUrl: null, pageCount: null, reason: null },
  };
}

/**
 * The attachments of a page of records from their link rows (in position order), one query for
 * the files: each record's ready files in link order, each URL bound to `<prefix>:<recordId>`.
 */
export function attachmentsByRecord(
  rt: Runtime,
  actor: { tenantId: string; memberId: string },
  db: Db,
  links: readonly { recordId: string; fileId: string }[],
  prefix: string,
): Map<string, Static<typeof Attachment>[]> {
  const ready = readyFilesByIds(
    db,
    links.map((l) => l.fileId),
  );
  const out = new Map<string, Static<typeof Attachment>[]>();
  for (const { recordId, fileId } of links) {
    const f = ready.get(fileId);
    if (f) out.set(recordId, [...(out.get(recordId) ?? []), attachmentOf(rt, actor, f, `${prefix}:${recordId}`)]);
  }
  return out;
}
