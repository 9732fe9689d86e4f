// The record kinds that attach files, each registered by the module that owns the record (wired
// once in src/app.ts), so the files base imports no feature (docs/architecture.md#registrations).
// A kind is the `<kind>` of the `<kind>:<record id>` a download URL is signed for
// (docs/rules/files.md#file-urls), says who sees its files (docs/rules/files.md#getfile) and which
// files its records attach, so the collector keeps them (docs/rules/storage.md#file-collector).
import type { Actor } from "../../platform/auth/actor";
import type { Db } from "../../platform/db/types";
import type { DownloadReader, DownloadRule } from "../../platform/files/tokens";

export type FileKind = {
  /** getFile: whether the caller can see a record of this kind that attaches the file. */
  canSee?: (db: Db, actor: Actor, fileId: string) => boolean;
  /** downloadFileContent of a URL emitted for `<kind>:<recordId>`: "ok" streams, "forbidden" is 403, "gone" 404. */
  download?: (db: Db, recordId: string, fileId: string, reader: DownloadReader) => DownloadRule;
  /** Public records: their URLs name no reader (ANONYMOUS_READER); anyone holding one may download while the record still shows the file. */
  publicDownload?: (db: Db, recordId: string, fileId: string) => DownloadRule;
  /** The file ids this kind's records attach in a tenant's file (the collector keeps them). */
  references?: (db: Db) => Iterable<string>;
};

const kinds = new Map<string, FileKind>();

/** Registers (or replaces: tests start many servers) the rules of one record kind. */
export function registerFileKind(kind: string, rules: FileKind) {
  kinds.set(kind, rules);
}

/** The kinds registered, in registration order (a test checks each emitted prefix is one). */
export const fileKinds = () => [...kinds.keys()];

/** getFile: a record of some registered kind that the caller can see attaches the file. */
export function canSeeAttachedFile(db: Db, actor: Actor, fileId: string): boolean {
  for (const kind of kinds.values()) if (kind.canSee?.(db, actor, fileId)) return true;
  return false;
}

function split(attachedTo: string): [kind: string, recordId: string] {
  const at = attachedTo.indexOf(":");
  return at > 0 ? [attachedTo.slice(0, at), attachedTo.slice(at + 1)] : ["", ""];
}

/** The rule for one download token's `attachedTo` ("<kind>:<record id>"); an unknown kind is "gone". */
export function downloadRule(db: Db, attachedTo: string, fileId: string, reader: DownloadReader): DownloadRule {
  const [kind, recordId] = split(attachedTo);
  const probe = kinds.get(kind)?.download;
  return probe ? probe(db, recordId, fileId, reader) : "gone";
}

/** The rule for a token with no reader: only public records' files, else "gone". */
export function publicDownloadRule(db: Db, attachedTo: string, fileId: string): DownloadRule {
  const [kind, recordId] = split(attachedTo);
  const probe = kinds.get(kind)?.publicDownload;
  return probe ? probe(db, recordId, fileId) : "gone";
}

/** Every file id a record of any registered kind attaches in this tenant. */
export function referencedFileIds(db: Db): Set<string> {
  const out = new Set<string>();
  for (const kind of kinds.values()) if (kind.references) for (const id of kind.references(db)) out.add(id);
  return out;
}

/** The kinds that name their files' references (doctor prints them; a test checks every attaching feature is there). */
export const referencingKinds = () => [...kinds].filter(([, k]) => k.references).map(([name]) => name);
