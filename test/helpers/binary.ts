import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type CallOptions, callAt } from "./server";

const root = join(import.meta.dir, "..", "..");
export const BINARY = join(root, "dist", "learnspace");

/** Newest modification time of the files a build reads. */
function newestSource(): number {
  let newest = statSync(join(root, "package.json")).mtimeMs;
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (!p.endsWith(".gen.ts")) newest = Math.max(newest, statSync(p).mtimeMs);
    }
  };
  walk(join(root, "src"));
  walk(join(root, "drizzle"));
  return newest;
}

/**
 * Builds dist/learnspace when it is missing or older than a source file, so the operating tests
 * always run the binary an operator would get (`npm run build`). Call in beforeAll.
 */
export function ensureBinary() {
  const fresh = () => existsSync(BINARY) && statSync(BINARY).mtimeMs >= newestSource();
  if (fresh()) return;
  // `bun test --parallel` runs the operating tests in several workers: one builds, the others wait
  // for its lock file and then find the binary fresh (docs/rules/ci.md#parallel-tests).
  const lock = join(root, "dist", ".build.lock");
  mkdirSync(join(root, "dist"), { recursive: true });
  for (let waited = 0; ; waited += 200) {
    try {
      closeSync(openSync(lock, "wx"));
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      if (waited > 300_000) throw new Error(`${lock} held for 5 minutes: remove it if no build runs`);
      else Bun.sleepSync(200);
    }
  }
  try {
    if (fresh()) return;
    const r = Bun.spawnSync([process.execPath, join(root, "scripts", "build.ts")], { cwd: root, stdout: "pipe", stderr: "pipe" });
    if (r.exitCode !== 0) throw new Error(`npm run build failed:\n${r.stderr.toString()}`);
  } finally {
    rmSync(lock, { force: true });
  }
}

/** A fresh temporary folder, removed by the returned cleanup. */
export function tempDir(prefix = "learnspace-ops-") {
  return mkdtempSync(join(tmpdir(), prefix));
}
export const removeDir = (dir: string) => rmSync(dir, { recursive: true, force: true });

// Tests sign up as many tenants as they need (docs/rules/trust.md#who-may-create-a-tenant).
const quietEnv = { LEARNSPACE_IP_RATE_LIMIT: "0", LEARNSPACE_QUIET: "1", LEARNSPACE_TENANT_SIGNUP: "open" };

/** learnspace from its sources (`bun src/main.ts`), for tests that need no build. */
export const FROM_SOURCE = [process.execPath, join(root, "src", "main.ts")];

/** Runs one CLI command of the compiled binary (or `command`, e.g. FROM_SOURCE) to completion. */
export function cli(args: string[], env: Record<string, string> = {}, command = [BINARY]) {
  const r = Bun.spawnSync([...command, ...args], { env: { ...process.env, ...quietEnv, ...env }, stdout: "pipe", stderr: "pipe" });
  return { code: r.exitCode, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
}

export type Appliance = Awaited<ReturnType<typeof serve>>;

/**
 * Starts `learnspace serve --dev-codes` on `dataDir` on a free port (port 0: the server prints the
 * one it got); resolves once it answers /readyz. `command`: the binary, or FROM_SOURCE. `startLog` is the stdout read until then.
 */
export async function serve(dataDir: string, env: Record<string, string> = {}, command = [BINARY]) {
  const proc = Bun.spawn([...command, "serve", "--port", "0", "--data-dir", dataDir, "--dev-codes"], {
    env: { ...process.env, ...quietEnv, ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const reader = proc.stdout.getReader();
  let startLog = "";
  let port = 0;
  while (!port) {
    const chunk = await reader.read();
    if (chunk.done) throw new Error(`serve exited ${await proc.exited}: ${await new Response(proc.stderr).text()}`);
    startLog += new TextDecoder().decode(chunk.value);
    port = Number(/listening on http:\/\/localhost:(\d+)/.exec(startLog)?.[1] ?? 0);
  }
  reader.releaseLock();
  const url = `http://127.0.0.1:${port}`;
  for (
    let i = 0;
    !(await fetch(`${url}/readyz`).then(
      (r) => r.ok,
      () => false,
    ));
    i++
  ) {
    if (i > 500) throw new Error("serve did not become ready");
    await Bun.sleep(20);
  }
  return {
    proc,
    url,
    port,
    startLog,
    call: (method: string, path: string, opts: CallOptions = {}) => callAt(url, method, path, opts),
    /** Sends a signal and waits for the exit code. */
    async stop(signal: NodeJS.Signals = "SIGTERM") {
      proc.kill(signal);
      return await proc.exited;
    },
    /** What the process printed after startLog, once it has exited. */
    async output() {
      let stdout = "";
      const rest = proc.stdout.getReader();
      for (let c = await rest.read(); !c.done; c = await rest.read()) stdout += new TextDecoder().decode(c.value);
      return { stdout, stderr: await new Response(proc.stderr).text() };
    },
  };
}
