import { localFileStore } from "./local-store";
import { s3FileStore } from "./s3-store";
import type { FileStore } from "./store";

/** The store a data dir uses: `LEARNSPACE_STORAGE_URL` (s3://…) or, unset, `<dataDir>/files`. */
export function openFileStore(dataDir: string, url: string | null, env: Record<string, string | undefined> = process.env): FileStore {
  return url ? s3FileStore(url, env) : localFileStore(`${dataDir}/files`);
}
