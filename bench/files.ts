// The file-transfer benchmark: upload (requestUpload + a chunked PUT streamed from a generator)
// and download of one file over loopback, with the server in its own process; MiB/s of each round
// and the server's peak RSS, which stays flat when the bytes are streamed rather than buffered.
// Usage: bun bench/files.ts [--mib 200] [--rounds 3]   (loopback only; bounded by size and rounds)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config";
import { resolveMember } from "../src/modules/members/actor";
import { fileDownloadUrl } from "../src/platform/files/tokens";
import { createRuntime } from "../src/platform/runtime";
import { benchTenant, round, rssMiB, waitReady } from "./lib";

const arg = (name: string, d: number) => Number(process.argv[process.argv.indexOf(`--${name}`) + 1] || d) || d;
const mib = Math.min(arg("mib", 200), 1024);
const rounds = Math.min(arg("rounds", 3), 10);
const size = mib * 1024 * 1024;
const port = 31300;
const base = `http://127.0.0.1:${port}`;
const dataDir = mkdtempSync(join(tmpdir(), "ls-bench-files-"));
const secret = "bench-secret-bench-secret-bench-secret";

// 1. A tenant and a session through the same code as sign-up, in this process.
const rt = createRuntime(loadConfig([], { LEARNSPACE_SECRET: secret }, { dataDir, quiet: true, publicUrl: base }), resolveMember);
const { tenant, session } = await benchTenant(rt);

/** `total` bytes in 256 KiB chunks, made as they are read: the client holds one chunk at a time. */
function body(total: number) {
  const chunk = new Uint8Array(256 * 1024).map((_, i) => (i * 31) % 251);
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= total) return controller.close();
      const n = Math.min(chunk.byteLength, total - sent);
      sent += n;
      controller.enqueue(n === chunk.byteLength ? chunk : chunk.subarray(0, n));
    },
  });
}

// 2. The server in its own process.
const server = Bun.spawn(
  [process.execPath, join(import.meta.dir, "..", "src", "main.ts"), "serve", "--port", String(port), "--data-dir", dataDir],
  {
    env: { ...process.env, LEARNSPACE_QUIET: "1", LEARNSPACE_SECRET: secret, LEARNSPACE_PUBLIC_URL: base },
    stdout: "ignore",
    stderr: "inherit",
  },
);
let peakRss = 0;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, rssMiB(server.pid));
}, 20);
try {
  await waitReady(`${base}/readyz`);
  const idleRss = rssMiB(server.pid);
  const uploads: number[] = [];
  const downloads: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const ticket = await fetch(`${base}/api/v1/files`, {
      method: "POST",
      headers: { authorization: `Bearer ${session.accessToken}`, "content-type": "application/json" },
      body: JSON.stringify({ fileName: `bench-${i}.bin`, contentType: "application/octet-stream", size }),
    });
    const { fileId, uploadUrl } = (await ticket.json()) as { fileId: string; uploadUrl: string };
    if (!uploadUrl.startsWith(`${base}/`)) throw new Error("benchmarks target loopback only");
    let t0 = performance.now();
    const put = await fetch(uploadUrl, { method: "PUT", headers: { "content-type": "application/octet-stream" }, body: body(size) });
    if (!put.ok) throw new Error(`upload: ${put.status} ${await put.text()}`);
    await put.arrayBuffer();
    uploads.push(mib / ((performance.now() - t0) / 1000));

    t0 = performance.now();
    const got = await fetch(fileDownloadUrl(rt, { tenantId: tenant.tenantId, fileId, readerId: tenant.memberId, attachedTo: "file" }));
    let received = 0;
    for await (const chunk of got.body as unknown as AsyncIterable<Uint8Array>) received += chunk.byteLength;
    if (!got.ok || received !== size) throw new Error(`download: ${got.status}, ${received} bytes`);
    downloads.push(mib / ((performance.now() - t0) / 1000));
  }
  const median = (xs: number[]) => round([...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number);
  console.log(
    JSON.stringify(
      {
        fileMiB: mib,
        rounds,
        uploadMiBps: { median: median(uploads), all: uploads.map(round) },
        downloadMiBps: { median: median(downloads), all: downloads.map(round) },
        serverRssMiB: { idle: idleRss, peak: round(peakRss) },
      },
      null,
      2,
    ),
  );
} finally {
  clearInterval(sampler);
  server.kill();
  await server.exited;
  rt.close();
  rmSync(dataDir, { recursive: true, force: true });
}
