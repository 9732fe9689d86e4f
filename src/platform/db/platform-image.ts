// A Bun macro (docs/rules/performance.md#start): imported `with { type: "macro" }`, it runs when the binary
// is bundled, or when a run from source loads its importer, never in the binary.
import { applyMigrations } from "./migrate";
import { platformMigrations } from "./migrations.gen";
import { newFileImage, optimizeOnOpen } from "./sqlite";

/**
 * A new data dir's platform file, migrated and analysed (gzip, base64): made once when the binary is
 * built, where each start used to migrate an in-memory database (~5 % of a cold start's main thread).
 */
export function newPlatformImage(): string {
  const image = newFileImage((memory) => {
    applyMigrations(memory, platformMigrations, "platform.sqlite");
    optimizeOnOpen(memory);
  });
  return Buffer.from(Bun.gzipSync(new Uint8Array(image), { level: 9 })).toString("base64");
}
