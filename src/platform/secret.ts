import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** LEARNSPACE_SECRET, or one generated on first start and kept in the data dir (mode 0600). */
export function loadSecret(dataDir: string, fromEnv: string | null): string {
  if (fromEnv) return fromEnv;
  const path = join(dataDir, "secret");
  if (existsSync(path)) return readFileSync(path, "utf8").trim();
  // Web Crypto, not node:crypto: a new data dir's first start does not load it (src/platform/crypto.ts nodeCrypto).
  const secret = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
  writeFileSync(path, `${secret}\n`, { mode: 0o600, flag: "wx" });
  chmodSync(path, 0o600);
  return secret;
}
