import type { Db } from "../../platform/db/types";

/** The file ids one feature's records attach, read from a tenant's file. */
export type FileReferences = (db: Db) => Iterable<string>;

const sources = new Map<string, FileReferences>();

/**
 * A feature that attaches files says which, so the collector keeps them (docs/rules/storage.md#file-collector).
 * Wired in src/app.ts: the files module never imports the features.
 */
export function registerFileReferences(name: string, source: FileReferences) {
  sources.set(name, source);
}

/** Every file id any registered feature references in this tenant. */
export function referencedFileIds(db: Db): Set<string> {
  const out = new Set<string>();
  for (const source of sources.values()) for (const id of source(db)) out.add(id);
  return out;
}

/** The names registered (doctor prints them; a test checks every attaching feature is there). */
export const referenceSources = () => [...sources.keys()];
