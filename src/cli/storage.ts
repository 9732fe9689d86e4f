import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type Config, flag } from "../config";
import { openFileStore } from "../platform/files/open-store";
import { parseS3Url } from "../platform/files/s3-url";
import type { FileStore } from "../platform/files/store";
import { readTenants } from "./backup";
import { CommandError, sha256Blob, storedFilesOf } from "./snapshot";

export const STORAGE_USAGE = "learnspace storage migrate --to s3://BUCKET?endpoint=…|local [--data-dir DIR]";

/** A stream that hashes what passes through it. */
function hashing() {
  const hasher = new Bun.CryptoHasher("sha256");
  const stream = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      hasher.update(chunk);
      controller.enqueue(chunk);
    },
  });
  return { stream, digest: () => hasher.digest("hex") };
}

/**
 * Copies every stored file of every tenant from the store in use to `to`, each verified by reading
 * it back and comparing sha256 (docs/rules/storage.md#migrate). Resumable: a journal in the data
 * dir lists the files already verified at that target, which a second run skips.
 */
export async function migrateStorage(config: Config, to: string, log: (line: string) => void = console.log) {
  const from = openFileStore(config.dataDir, config.storageUrl);
  const target: FileStore = openFileStore(config.dataDir, to === "local" ? null : to);
  if (from.label === target.label) throw new CommandError(`the files are already in ${target.label}`);
  const journal = join(
    config.dataDir,
    `storage-migrate.${new Bun.CryptoHasher("sha256").update(target.label).digest("hex").slice(0, 12)}.log`,
  );
  const done = new Set(
    existsSync(journal)
      ? readFileSync(journal, "utf8")
          .split("\n")
          .filter(Boolean)
          .map((l) => l.split(" ")[0])
      : [],
  );
  let copied = 0;
  let skipped = 0;
  let bytes = 0;
  const missing: string[] = [];
  for (const t of readTenants(join(config.dataDir, "platform.sqlite"), null)) {
    for (const id of storedFilesOf(join(config.dataDir, "tenants", `${t.id}.sqlite`))) {
      const name = `${t.id}/${id}`;
      if (done.has(name)) {
        skipped++;
        continue;
      }
      if ((await from.size(t.id, id)) === null) {
        missing.push(name);
        continue;
      }
      const h = hashing();
      const size = await target.put(t.id, id, from.open(t.id, id).stream().pipeThrough(h.stream));
      const back = await sha256Blob(target.open(t.id, id));
      if (back.bytes !== size || back.sha256 !== h.digest())
        throw new CommandError(`${name}: the copy in ${target.label} does not match (sha256)`);
      appendFileSync(journal, `${name} ${back.sha256}\n`, { mode: 0o600 });
      copied++;
      bytes += size;
    }
  }
  for (const m of missing) log(`warning: ${m} has a record but no bytes in ${from.label} (see learnspace doctor)`);
  log(
    `copied ${copied} file(s), ${bytes} bytes, to ${target.label}, each verified by sha256; ${skipped} already there from an earlier run`,
  );
  return { copied, skipped, bytes, missing, journal };
}

/** `learnspace storage migrate --to URL|local` */
export async function storageCommand(config: Config, args: string[]): Promise<number> {
  const to = flag(args, "to");
  if (args[0] !== "migrate" || !to) throw new CommandError(`usage: ${STORAGE_USAGE}`);
  if (to !== "local") {
    try {
      parseS3Url(to);
    } catch (e) {
      throw new CommandError(`--to ${(e as Error).message}`);
    }
  }
  await migrateStorage(config, to);
  console.log(
    `next: stop the server, run this again (it copies only what is new), then start it with ${to === "local" ? "LEARNSPACE_STORAGE_URL unset" : `LEARNSPACE_STORAGE_URL=${to}`}; the old copies stay until you remove them`,
  );
  return 0;
}
