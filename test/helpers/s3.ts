import { afterAll, beforeAll } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Swift's tempauth user that scripts/swift-s3.sh sets up; its S3 access key is "account:user". */
export const S3_ENV = { AWS_ACCESS_KEY_ID: "test:tester", AWS_SECRET_ACCESS_KEY: "testing", AWS_REGION: "us-east-1" };

/** Makes a bucket (a Swift container) through Swift's own API. */
async function makeBucket(endpoint: string, bucket: string) {
  const auth = await fetch(`${endpoint}/auth/v1.0`, { headers: { "x-auth-user": "test:tester", "x-auth-key": "testing" } });
  const token = auth.headers.get("x-auth-token");
  if (!token) throw new Error(`swift: no token (${auth.status})`);
  const res = await fetch(`${endpoint}/v1/AUTH_test/${bucket}`, { method: "PUT", headers: { "x-auth-token": token } });
  if (res.status >= 300) throw new Error(`swift: bucket ${bucket}: ${res.status}`);
}

/**
 * A real S3-compatible store for a test file: the Swift that CI started (LEARNSPACE_TEST_S3_ENDPOINT),
 * else one started here by scripts/swift-s3.sh (about a minute on a busy machine). Each call gets
 * fresh buckets; `url(bucket)` is an s3:// URL for LEARNSPACE_STORAGE_URL with S3_ENV credentials.
 */
export function useS3() {
  const ref = { endpoint: "", dir: null as string | null };
  beforeAll(async () => {
    const given = process.env.LEARNSPACE_TEST_S3_ENDPOINT;
    if (given) {
      ref.endpoint = given;
      return;
    }
    ref.dir = mkdtempSync(join(tmpdir(), "learnspace-swift-"));
    const port = 30000 + Math.floor(Math.random() * 20000);
    const run = Bun.spawnSync(["bash", join(import.meta.dir, "../../scripts/swift-s3.sh"), "start", ref.dir, String(port)], {
      stderr: "pipe",
    });
    if (run.exitCode !== 0) throw new Error(`could not start Swift: ${run.stderr.toString()}`);
    ref.endpoint = `http://127.0.0.1:${port}`;
  }, 180_000);
  afterAll(() => {
    if (!ref.dir) return;
    Bun.spawnSync(["bash", join(import.meta.dir, "../../scripts/swift-s3.sh"), "stop", ref.dir]);
    rmSync(ref.dir, { recursive: true, force: true });
  });
  return {
    get endpoint() {
      return ref.endpoint;
    },
    /** A new empty bucket and its s3:// URL. */
    async bucket(prefix = "ls") {
      const name = `${prefix}-${crypto.randomUUID().slice(0, 8)}`;
      await makeBucket(ref.endpoint, name);
      return `s3://${name}?endpoint=${encodeURIComponent(ref.endpoint)}&region=us-east-1`;
    },
  };
}
