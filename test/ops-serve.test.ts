// The running binary: graceful shutdown under load, /metrics, scheduled backups (docs/operating.md#monitoring, docs/operating.md#shutdown).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, statSync } from "node:fs";
import { networkInterfaces } from "node:os";
import { join } from "node:path";
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { signUpVerified } from "./helpers/auth";
import { ensureBinary, removeDir, serve, tempDir } from "./helpers/binary";

let root: string;

beforeAll(() => {
  ensureBinary();
  root = tempDir();
}, 60_000);

afterAll(() => removeDir(root));

/** Every *-wal file under dir with its size. */
function walFiles(dir: string): { path: string; size: number }[] {
  const out: { path: string; size: number }[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile() && e.name.endsWith("-wal")) {
      const path = join(e.parentPath, e.name);
      out.push({ path, size: statSync(path).size });
    }
  }
  return out;
}

describe("SIGTERM", () => {
  test("under write load: no accepted request is lost, late ones get 503 SHUTTING_DOWN, WALs are empty, exit 0", async () => {
    const dir = join(root, "term");
    const a = await serve(dir);
    const owner = await signUpVerified(a);
    const accepted: string[] = [];
    const refused: number[] = [];
    let stopped = false;
    const loops = Array.from({ length: 8 }, async (_, i) => {
      for (let n = 0; !stopped; n++) {
        try {
          const res = await a.call("POST", "/api/v1/spaces", { token: owner.token, json: { name: `L${i}-${n}` } });
          if (res.status === 201) accepted.push(res.body.id);
          else {
            expect(res.status).toBe(503);
            expect(res.body.code).toBe("SHUTTING_DOWN");
            expect(res.headers.get("content-type")).toStartWith("application/problem+json");
            refused.push(res.status);
          }
        } catch {
          // Connection refused: the listener is closed, the request was never accepted.
          return;
        }
      }
    });
    while (accepted.length < 100) await Bun.sleep(5);
    const before = accepted.length;
    a.proc.kill("SIGTERM");
    const code = await a.proc.exited;
    stopped = true;
    await Promise.all(loops);
    expect(code).toBe(0);
    // Requests kept arriving while it drained: each was either finished or told 503 (with group commit
    // the drain can end before any arrives; the upload test below always sees a 503).
    expect(refused.every((s) => s === 503)).toBe(true);
    expect(accepted.length).toBeGreaterThanOrEqual(before);
    const { stdout } = await a.output();
    expect(stdout).toContain("SIGTERM: finishing in-flight requests");
    for (const wal of walFiles(dir)) expect(wal).toEqual({ path: wal.path, size: 0 });

    const b = await serve(dir);
    try {
      for (const id of accepted) expect((await b.call("GET", `/api/v1/spaces/${id}`, { token: owner.token })).status).toBe(200);
    } finally {
      await b.stop();
    }
  }, 60_000);

  test("an upload in flight when the signal arrives finishes; a request arriving meanwhile gets 503 SHUTTING_DOWN", async () => {
    const dir = join(root, "late");
    const a = await serve(dir, { LEARNSPACE_QUIET: "0" });
    const owner = await signUpVerified(a);
    const ticket = await a.call("POST", "/api/v1/files", {
      token: owner.token,
      json: { fileName: "a.txt", contentType: "text/plain", size: 5 },
    });
    const url = new URL(ticket.body.uploadUrl);
    let received = "";
    const { promise: closed, resolve: onClose } = Promise.withResolvers<void>();
    const upload = await Bun.connect({
      hostname: "127.0.0.1",
      port: a.port,
      socket: {
        data(_s, chunk) {
          received += new TextDecoder().decode(chunk);
        },
        close: () => onClose(),
      },
    });
    // The upload's headers and its first bytes: accepted and in flight.
    upload.write(`PUT ${url.pathname}${url.search} HTTP/1.1\r\nhost: x\r\ncontent-type: text/plain\r\ncontent-length: 5\r\n\r\nhe`);
    await Bun.sleep(300);
    a.proc.kill("SIGTERM");
    const reader = a.proc.stdout.getReader();
    let log = "";
    // Draining has begun once the server says so.
    while (!log.includes("SIGTERM: finishing")) log += new TextDecoder().decode((await reader.read()).value);
    const late = await a.call("GET", "/api/v1/me", { token: owner.token });
    expect(late.status).toBe(503);
    expect(late.body.code).toBe("SHUTTING_DOWN");
    expect(late.headers.get("content-type")).toStartWith("application/problem+json");
    // The rest of the upload: it completes although the server is stopping.
    upload.write("llo");
    expect(await a.proc.exited).toBe(0);
    await closed;
    expect(received).toStartWith("HTTP/1.1 200");
    const b = await serve(dir);
    try {
      const file = await b.call("GET", `/api/v1/files/${ticket.body.fileId}`, { token: owner.token });
      expect(file.body.status).toBe("ready");
    } finally {
      await b.stop();
    }
  }, 60_000);
});

describe("GET /metrics", () => {
  const otherAddress = Object.values(networkInterfaces())
    .flat()
    .find((i) => i && i.family === "IPv4" && !i.internal)?.address;

  test("parses as Prometheus text with the series operating.md names and route patterns as labels", async () => {
    // An SMTP server that cannot be reached: the sign-up's message waits in the outbox.
    const a = await serve(join(root, "metrics"), { LEARNSPACE_SMTP_URL: "smtp://127.0.0.1:1" });
    try {
      const owner = await signUpVerified(a);
      const space = await a.call("POST", "/api/v1/spaces", { token: owner.token, json: { name: "Chemistry" } });
      for (let i = 0; i < 3; i++) await a.call("GET", `/api/v1/spaces/${space.body.id}`, { token: owner.token });
      await a.call("GET", "/no/such/path/123");
      const res = await fetch(`${a.url}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toStartWith("text/plain");
      const text = await res.text();
      const families = new Map(parsePrometheusTextFormat(text).map((f) => [f.name, f]));
      for (const [name, type] of [
        ["learnspace_http_requests_total", "COUNTER"],
        ["learnspace_http_request_duration_seconds", "HISTOGRAM"],
        ["learnspace_tenant_handles_open", "GAUGE"],
        ["learnspace_tenants", "GAUGE"],
        ["learnspace_outbox_pending", "GAUGE"],
        ["learnspace_sqlite_bytes", "GAUGE"],
        ["process_resident_memory_bytes", "GAUGE"],
        ["process_cpu_seconds_total", "COUNTER"],
        ["process_start_time_seconds", "GAUGE"],
      ] as const) {
        expect(families.get(name)?.type).toBe(type);
      }
      const requests = families.get("learnspace_http_requests_total")?.metrics ?? [];
      const reads = requests.find((m) => m.labels?.route === "/api/v1/spaces/:spaceId" && m.labels?.method === "GET");
      expect(reads).toMatchObject({ labels: { status: "200" }, value: "3" });
      expect(requests.some((m) => m.labels?.route === "unmatched" && m.labels?.status === "404")).toBe(true);
      expect(text).not.toContain(space.body.id);
      expect(text).not.toContain("/no/such/path");
      expect(families.get("learnspace_tenants")?.metrics[0]?.value).toBe("1");
      const bytes = families.get("learnspace_sqlite_bytes")?.metrics ?? [];
      expect(bytes.map((m) => m.labels?.file).sort()).toEqual(["platform", "tenants"]);
      // The sign-up's code is still waiting for SMTP.
      expect(Number(families.get("learnspace_outbox_pending")?.metrics[0]?.value)).toBeGreaterThan(0);
      // Without a token only loopback clients see it.
      expect(otherAddress).toBeDefined();
      const outside = await fetch(`http://${otherAddress}:${a.port}/metrics`);
      expect(outside.status).toBe(404);
    } finally {
      await a.stop();
    }
  }, 60_000);

  test("with LEARNSPACE_METRICS_TOKEN set it needs that bearer token, from any address", async () => {
    const a = await serve(join(root, "metrics-token"), { LEARNSPACE_METRICS_TOKEN: "s3cret-token" });
    try {
      expect((await fetch(`${a.url}/metrics`)).status).toBe(401);
      expect((await fetch(`${a.url}/metrics`, { headers: { authorization: "Bearer wrong-token!" } })).status).toBe(401);
      const ok = await fetch(`http://${otherAddress}:${a.port}/metrics`, { headers: { authorization: "Bearer s3cret-token" } });
      expect(ok.status).toBe(200);
      expect(parsePrometheusTextFormat(await ok.text()).length).toBeGreaterThan(5);
    } finally {
      await a.stop();
    }
  }, 60_000);
});

describe("scheduled backups", () => {
  test("serve with LEARNSPACE_BACKUP_DIR backs up every interval, logs each, and keeps the newest LEARNSPACE_BACKUP_KEEP", async () => {
    const backups = join(root, "scheduled");
    const a = await serve(join(root, "sched"), {
      LEARNSPACE_BACKUP_DIR: backups,
      LEARNSPACE_BACKUP_EVERY: "1s",
      LEARNSPACE_BACKUP_KEEP: "2",
      LEARNSPACE_QUIET: "0",
    });
    const reader = a.proc.stdout.getReader();
    let log = a.startLog;
    const done = () => log.split("\n").filter((l) => l.includes('"event":"backup.done"')).length;
    while (done() < 3) {
      const chunk = await reader.read();
      if (chunk.done) break;
      log += new TextDecoder().decode(chunk.value);
    }
    reader.releaseLock();
    expect(await a.stop()).toBe(0);
    expect(log).toContain('"event":"backup.scheduled"');
    expect(done()).toBeGreaterThanOrEqual(3);
    const folders = readdirSync(backups).filter((n) => n.startsWith("learnspace-"));
    expect(folders).toHaveLength(2);
    for (const f of folders) expect(existsSync(join(backups, f, "manifest.json"))).toBe(true);
  }, 60_000);
});
