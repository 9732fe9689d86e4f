// Auth benchmark (issue 3): p50/p99 of a password sign-in (argon2id verify + session + AuthResult)
// and of a refresh-token rotation, sequentially, against an in-process server on loopback.
// Bounded: --iterations (default 50 sign-ins, 200 refreshes) after a short warm-up.
// Usage: bun bench/auth.ts [--iterations 50]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config";
import { startServer } from "../src/server";
import { percentile, round } from "./lib";

const arg = (name: string, d: number) => Number(process.argv[process.argv.indexOf(`--${name}`) + 1] || d) || d;
const iterations = Math.min(arg("iterations", 50), 1000);
const dataDir = mkdtempSync(join(tmpdir(), "ls-bench-auth-"));
const config = loadConfig(
  [],
  { LEARNSPACE_IP_RATE_LIMIT: "0", LEARNSPACE_QUIET: "1", LEARNSPACE_TENANT_SIGNUP: "open" },
  { port: 0, dataDir, devCodes: true },
);
const server = startServer(config);
const base = `http://127.0.0.1:${server.port}/api/v1`;

async function post(path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}${path}`, {
    method: "POST",
    headers: { ...(body ? { "content-type": "application/json" } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = res.status === 204 ? null : await res.json();
  if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
  return { json, cookie: (res.headers.get("set-cookie") ?? "").split(";")[0] as string };
}

async function timed(n: number, fn: () => Promise<unknown>) {
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn();
    ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  return { n, p50: round(percentile(ms, 0.5)), p99: round(percentile(ms, 0.99)), min: round(ms[0] as number) };
}

try {
  const email = "bench-owner@example.com";
  const up = await post("/auth/sign-up", { email, password: "Passw0rd!", displayName: "Bench", tenantKey: "bench" });
  const verified = await post("/auth/sign-up/verify", { email, code: up.json.devCode });
  const signIn = () => post("/auth/sign-in/password", { identifier: email, password: "Passw0rd!", tenantKey: "bench" });
  await timed(5, signIn);
  const passwordSignIn = await timed(iterations, signIn);
  let cookie = verified.cookie;
  const refresh = async () => {
    cookie = (await post("/auth/session/refresh", undefined, { cookie })).cookie;
  };
  await timed(10, refresh);
  const tokenRefresh = await timed(iterations * 4, refresh);
  console.log(JSON.stringify({ unit: "ms", passwordSignIn, tokenRefresh }, null, 2));
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
