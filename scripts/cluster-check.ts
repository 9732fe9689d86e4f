#!/usr/bin/env bun
/**
 * The cluster check (issue 24, docs/operating.md#scale-out-when-one-machine-is-outgrown): etcd ×3, HAProxy and 3 appliances on
 * loopback, with the stored files (and the replica, when replication is built) on S3 (Swift). Proves
 * routing by host, path and token; a live move under a writer loop (no acknowledged write lost, old
 * tokens work); HAProxy restarted gets its map back; kill -9 of a node brings its schools back
 * elsewhere; a restarted old node serves none of them; uploads byte-equal after move and failover.
 * Run by scripts/cluster-check.sh (bounded); prints one line per check and the measured numbers.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Subprocess } from "bun";
import { AGENT_ELECTION, connectEtcd, type PlacementAt, readPlacements, swapPlacement } from "../src/cluster/etcd";
import { stopOrphan } from "../src/platform/replica/supervisor";

const root = join(import.meta.dir, "..");
/**
 * `LEARNSPACE_CLUSTER_BINARY=dist/learnspace`: the appliances and the move command run that compiled
 * binary, as an operator runs them; else the source (CI starts this before the binary is built).
 */
const BINARY = process.env.LEARNSPACE_CLUSTER_BINARY;
const LEARNSPACE = BINARY ? [resolve(root, BINARY)] : ["node_modules/.bin/bun", "src/main.ts"];
const dir = mkdtempSync(join(tmpdir(), "learnspace-cluster-"));
/** Twenty loopback ports from `base` nobody listens on now. */
function freeBlock(base: number) {
  try {
    for (let p = base; p < base + 20; p++) Bun.listen({ hostname: "127.0.0.1", port: p, socket: { data() {} } }).stop(true);
    return true;
  } catch {
    return false;
  }
}
// 11000–18999: below the kernel's ephemeral ports (32768–60999, which etcd's and HAProxy's own
// connections and every `--port 0` server use) and below the 20000–49999 the tests, the binary checks
// and the test Swift pick from, so CI can run this beside `npm test` (.ci/run).
let base = 0;
for (let i = 0; i < 50 && !base; i++) {
  const b = 11000 + Math.floor(Math.random() * 400) * 20;
  if (freeBlock(b)) base = b;
}
if (!base) throw new Error("no free block of 20 loopback ports in 11000–18999");
const PROXY = base;
const DOMAIN = "learn.test";
const NODES = ["n1", "n2", "n3"] as const;
const nodePort = (i: number) => base + 1 + i;
const etcdPort = (i: number) => base + 5 + i * 2;
const ETCD = [0, 1, 2].map((i) => `http://127.0.0.1:${etcdPort(i)}`);
const SECRET = "cluster-check-secret-0123456789";
/** The replicas' sync interval (LEARNSPACE_REPLICA_SYNC): a failover's RPO. */
const SYNC_MS = 1_000;
const S3_ENV = { AWS_ACCESS_KEY_ID: "test:tester", AWS_SECRET_ACCESS_KEY: "testing", AWS_REGION: "us-east-1" };
const procs = new Map<string, Subprocess>();
const results: string[] = [];
let failed = 0;
const t00 = performance.now();

const log = (s: string) => console.log(`[${((performance.now() - t00) / 1000).toFixed(1)}s] ${s}`);
function check(ok: boolean, what: string) {
  results.push(`${ok ? "ok  " : "FAIL"} ${what}`);
  log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failed++;
}

function spawn(name: string, cmd: string[], env: Record<string, string> = {}) {
  const out = Bun.file(join(dir, `${name}.log`));
  const p = Bun.spawn(cmd, { cwd: root, env: { ...process.env, ...env }, stdout: out, stderr: out });
  procs.set(name, p);
  return p;
}

async function until<T>(what: string, fn: () => Promise<T | null | undefined | false>, ms = 30_000): Promise<T> {
  const end = performance.now() + ms;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch {}
    if (performance.now() > end) throw new Error(`timed out: ${what}`);
    await Bun.sleep(100);
  }
}

// ---- S3 (Swift): the one CI started, else our own.
async function makeBucket(endpoint: string, bucket: string) {
  const auth = await fetch(`${endpoint}/auth/v1.0`, { headers: { "x-auth-user": "test:tester", "x-auth-key": "testing" } });
  const token = auth.headers.get("x-auth-token") ?? "";
  const res = await fetch(`${endpoint}/v1/AUTH_test/${bucket}`, { method: "PUT", headers: { "x-auth-token": token } });
  if (res.status >= 300) throw new Error(`bucket ${bucket}: ${res.status}`);
}
let s3 = process.env.LEARNSPACE_TEST_S3_ENDPOINT ?? "";
let ownSwift = false;
const swiftReady = (async () => {
  if (!s3) {
    ownSwift = true;
    const port = base + 11;
    const run = Bun.spawn(["bash", "scripts/swift-s3.sh", "start", join(dir, "swift"), String(port)], {
      cwd: root,
      stdout: "ignore",
      stderr: "ignore",
    });
    if ((await run.exited) !== 0) throw new Error("Swift did not start");
    s3 = `http://127.0.0.1:${port}`;
  }
  const tag = Math.random().toString(36).slice(2, 8);
  await until("S3 answers", () => makeBucket(s3, `files-${tag}`).then(() => true), 180_000);
  await makeBucket(s3, `replica-${tag}`);
  return { files: `s3://files-${tag}?endpoint=${encodeURIComponent(s3)}&region=us-east-1`, replica: `replica-${tag}` };
})();

// ---- etcd ×3
function startEtcd() {
  const cluster = [0, 1, 2].map((i) => `e${i}=http://127.0.0.1:${etcdPort(i) + 1}`).join(",");
  for (const i of [0, 1, 2]) {
    spawn(`etcd${i}`, [
      "etcd",
      `--name=e${i}`,
      `--data-dir=${join(dir, `etcd${i}`)}`,
      `--listen-client-urls=${ETCD[i]}`,
      `--advertise-client-urls=${ETCD[i]}`,
      `--listen-peer-urls=http://127.0.0.1:${etcdPort(i) + 1}`,
      `--initial-advertise-peer-urls=http://127.0.0.1:${etcdPort(i) + 1}`,
      `--initial-cluster=${cluster}`,
      "--initial-cluster-state=new",
      "--log-level=error",
    ]);
  }
}

// ---- HAProxy
const MAP = join(dir, "tenants.map");
const SOCK = join(dir, "haproxy.sock");
function haproxyConfig() {
  const servers = NODES.map((n, i) => `  server ${n} 127.0.0.1:${nodePort(i)} check inter 500ms fall 2 rise 1`).join("\n");
  return `global
  stats socket ${SOCK} mode 600 level admin
defaults
  mode http
  timeout connect 2s
  timeout client 30s
  timeout server 60s
frontend fe
  bind 127.0.0.1:${PROXY}
  http-request set-var(txn.tkey) req.hdr(host),host_only,lower,regsub(\\.${DOMAIN.replace(".", "\\.")}$,) if { req.hdr(host),host_only,lower -m end .${DOMAIN} }
  http-request set-var(txn.tkey) path,field(3,/) if !{ var(txn.tkey) -m found } { path_beg /t/ }
  http-request set-var(txn.tkey) path,field(6,/) if !{ var(txn.tkey) -m found } { path_beg /api/v1/public/tenants/ }
  http-request set-var(txn.tkey) http_auth_bearer,jwt_payload_query('$.tkey') if !{ var(txn.tkey) -m found } { http_auth_bearer -m found }
  use_backend %[var(txn.tkey),map(${MAP})] if { var(txn.tkey),map(${MAP}) -m found }
  default_backend any
${NODES.map((n, i) => `backend ${n}\n  server ${n} 127.0.0.1:${nodePort(i)}`).join("\n")}
backend any
  balance first
  option httpchk
  http-check send meth GET uri /readyz ver HTTP/1.1 hdr host localhost
${servers}
`;
}
function startHaproxy() {
  writeFileSync(MAP, "");
  writeFileSync(join(dir, "haproxy.cfg"), haproxyConfig());
  spawn("haproxy", ["haproxy", "-db", "-f", join(dir, "haproxy.cfg")]);
}

// ---- appliances
let storage = { files: "", replica: "" };
function startNode(i: number) {
  const name = NODES[i] as string;
  return spawn(name, [...LEARNSPACE, "serve", "--port", String(nodePort(i)), "--data-dir", join(dir, name)], {
    ...S3_ENV,
    LEARNSPACE_CLUSTER_ETCD: ETCD.join(","),
    LEARNSPACE_CLUSTER_NODE: name,
    LEARNSPACE_CLUSTER_DOMAIN: DOMAIN,
    LEARNSPACE_CLUSTER_HAPROXY: `unix:${SOCK}`,
    LEARNSPACE_CLUSTER_HAPROXY_MAP: MAP,
    LEARNSPACE_CLUSTER_LEASE_TTL: "3",
    LEARNSPACE_PUBLIC_URL: `http://${DOMAIN}:${PROXY}`,
    LEARNSPACE_SECRET: SECRET,
    LEARNSPACE_DEV_CODES: "1",
    LEARNSPACE_TENANT_SIGNUP: "open",
    LEARNSPACE_IP_RATE_LIMIT: "0",
    LEARNSPACE_COMMUNITY_RATE_LIMIT: "0",
    LEARNSPACE_MEMORY_MB: "96",
    LEARNSPACE_STORAGE_URL: storage.files,
    LEARNSPACE_REPLICA_SYNC: `${SYNC_MS / 1000}s`,
    LEARNSPACE_REPLICA_URL: `s3://${storage.replica}/${name}?endpoint=${encodeURIComponent(s3)}&region=us-east-1`,
  });
}

// ---- HTTP through HAProxy
type Res = { status: number; node: string | null; body: unknown; headers: Headers };
async function call(
  method: string,
  path: string,
  opts: { host?: string; token?: string; body?: unknown; raw?: Uint8Array<ArrayBuffer>; type?: string; cookie?: string } = {},
): Promise<Res> {
  const headers: Record<string, string> = {};
  if (opts.host) headers.host = opts.host;
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.cookie) headers.cookie = opts.cookie;
  if (opts.body !== undefined) headers["content-type"] = "application/json";
  if (opts.raw) headers["content-type"] = opts.type ?? "application/octet-stream";
  const res = await fetch(`http://127.0.0.1:${PROXY}${path}`, {
    method,
    headers,
    body: opts.raw ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body)),
    signal: AbortSignal.timeout(20_000),
  });
  const type = res.headers.get("content-type") ?? "";
  const body = type.includes("json") ? await res.json() : new Uint8Array(await res.arrayBuffer());
  return { status: res.status, node: res.headers.get("x-learnspace-node"), body, headers: res.headers };
}
const hostOf = (key: string) => `${key}.${DOMAIN}`;
/** An answer's body for an error message: JSON as JSON, anything else (HAProxy's own pages) as text. */
const shown = (body: unknown) => (body instanceof Uint8Array ? new TextDecoder().decode(body).slice(0, 300) : JSON.stringify(body));

type School = { key: string; token: string; cookie: string };
async function school(key: string): Promise<School> {
  const email = `owner@${key}.test`;
  const up = await call("POST", "/api/v1/auth/sign-up", {
    host: hostOf(key),
    body: { email, password: "Passw0rd!cluster", displayName: key, tenantKey: key },
  });
  if (up.status !== 201) throw new Error(`sign-up ${key}: ${up.status} ${shown(up.body)}`);
  // The school now exists on the node that answered, which places it within 2 s; the placement
  // then reaches HAProxy's map (until then the default backend may answer from the same node).
  await until(
    `${key} placed and in the map`,
    async () => (await placementOf(key))?.node === up.node && (await call("GET", `/t/${key}/login`)).node === up.node,
  );
  const v = await call("POST", "/api/v1/auth/sign-up/verify", {
    host: hostOf(key),
    body: { email, code: (up.body as { devCode: string }).devCode },
  });
  if (v.status !== 200) throw new Error(`verify ${key}: ${v.status} ${shown(v.body)}`);
  const cookie = (v.headers.get("set-cookie") ?? "").split(";")[0] as string;
  return { key, token: (v.body as { accessToken: string }).accessToken, cookie };
}

/** Creates spaces as fast as answers come; every 201 is an acknowledged write. */
function writer(s: School) {
  const acked: { id: string; at: number }[] = [];
  let refused = 0;
  let stop = false;
  let n = 0;
  const done = (async () => {
    while (!stop) {
      try {
        const r = await call("POST", "/api/v1/spaces", { token: s.token, body: { name: `w${n++}` } });
        if (r.status === 201) acked.push({ id: (r.body as { id: string }).id, at: performance.now() });
        else {
          refused++;
          await Bun.sleep(50);
        }
      } catch {
        refused++;
        await Bun.sleep(50);
      }
    }
  })();
  return {
    acked,
    get refused() {
      return refused;
    },
    async stop() {
      stop = true;
      await done;
    },
    /** The longest time between two acknowledged writes (the pause writers saw). */
    maxGap: () => acked.slice(1).reduce((m, a, i) => Math.max(m, a.at - (acked[i] as { at: number }).at), 0),
  };
}

async function spaceIds(s: School): Promise<Set<string>> {
  const ids = new Set<string>();
  let cursor: string | null = null;
  do {
    const r = await call("GET", `/api/v1/spaces?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, { token: s.token });
    if (r.status !== 200) throw new Error(`list spaces: ${r.status}`);
    const b = r.body as { spaces: { id: string }[]; nextCursor: string | null };
    for (const sp of b.spaces) ids.add(sp.id);
    cursor = b.nextCursor;
  } while (cursor);
  return ids;
}

/** Uploads the bytes and attaches them to a post (which gives each reader a signed download URL); returns the post's id. */
async function upload(s: School, bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const req = await call("POST", "/api/v1/files", {
    token: s.token,
    body: { fileName: "a.bin", contentType: "application/octet-stream", size: bytes.length },
  });
  const ticket = req.body as { fileId: string; uploadUrl: string };
  const u = new URL(ticket.uploadUrl);
  // The upload URL is the school's own host (its public URL): HAProxy routes it by host.
  const put = await call("PUT", u.pathname + u.search, { host: u.hostname, raw: bytes });
  if (put.status >= 300) throw new Error(`upload: ${put.status} ${shown(put.body)}`);
  const space = await call("POST", "/api/v1/spaces", { token: s.token, body: { name: "files" } });
  const spaceId = (space.body as { id: string }).id;
  const post = await call("POST", "/api/v1/posts", { token: s.token, body: { spaceId, title: "file", fileIds: [ticket.fileId] } });
  if (post.status !== 201) throw new Error(`post: ${post.status} ${shown(post.body)}`);
  return (post.body as { id: string }).id;
}
async function downloadEquals(s: School, postId: string, bytes: Uint8Array): Promise<boolean> {
  const post = await call("GET", `/api/v1/posts/${postId}`, { token: s.token });
  if (post.status !== 200) {
    console.log(`  the post holding the upload: ${post.status} ${shown(post.body)}`);
    return false;
  }
  const url = new URL((post.body as { attachments: { url: string }[] }).attachments[0]?.url as string);
  const got = await call("GET", url.pathname + url.search, { host: url.hostname });
  return (
    url.hostname === hostOf(s.key) && got.status === 200 && Buffer.compare(Buffer.from(got.body as Uint8Array), Buffer.from(bytes)) === 0
  );
}

async function placementOf(key: string) {
  const etcd = await connectEtcd(ETCD);
  try {
    return (await readPlacements(etcd)).placements.get(key);
  } finally {
    etcd.close();
  }
}

/**
 * The agent's writes name its election key (docs/rules/cluster.md#placement-agent): a candidate's
 * key, while it exists, lets a placement write through; once gone (the agent deposed), the same
 * write is refused.
 */
async function deposedAgent(key: string) {
  const etcd = await connectEtcd(ETCD);
  try {
    const ghost = etcd.election(AGENT_ELECTION, 5).campaign("deposed-check");
    ghost.on("error", () => {});
    const ghostKey = await ghost.getCampaignKey();
    const kv = await until("candidate key", async () => (await etcd.get(ghostKey).exec()).kvs[0]);
    const guard = { key: ghostKey, createRevision: kv.create_revision };
    const same = ({ key: _k, modRevision: _m, ...p }: PlacementAt) => ({ ...p, since: Date.now() });
    const p1 = (await placementOf(key)) as PlacementAt;
    const live = await swapPlacement(etcd, key, p1.modRevision, same(p1), guard);
    await ghost.resign();
    const p2 = (await placementOf(key)) as PlacementAt;
    const gone = await swapPlacement(etcd, key, p2.modRevision, same(p2), guard);
    const p3 = (await placementOf(key)) as PlacementAt;
    check(
      live && !gone && p3.modRevision === p2.modRevision,
      `a placement write naming a live election key passes (${live}); once the key is gone it is refused (${!gone})`,
    );
  } finally {
    etcd.close();
  }
}

/** `learnspace tenant move KEY --to NODE`, as an operator runs it. */
function moveCommand(key: string, to: string) {
  return Bun.spawn([...LEARNSPACE, "tenant", "move", key, "--to", to], {
    cwd: root,
    env: { ...process.env, LEARNSPACE_CLUSTER_ETCD: ETCD.join(","), LEARNSPACE_SECRET: SECRET },
    stdout: "pipe",
    stderr: "pipe",
  });
}

/** A call straight to one appliance, bypassing HAProxy. */
async function direct(i: number, method: string, path: string, body: unknown): Promise<Res> {
  const res = await fetch(`http://127.0.0.1:${nodePort(i)}${path}`, {
    method,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(20_000),
  });
  return { status: res.status, node: res.headers.get("x-learnspace-node"), body: await res.json(), headers: res.headers };
}

const keysOf = (body: unknown) =>
  ((body as { tenants?: { key: string }[] }).tenants ?? [])
    .map((t) => t.key)
    .sort()
    .join(",");

/**
 * Sign-in without a tenant key across nodes (docs/rules/cluster.md#sign-in-without-a-tenant-key):
 * alpha's owner becomes a member of beta (another node) and proves the e-mail there with beta's
 * code; then password and code sign-in without a key list both schools whichever node answers, and
 * each school's token reads its profiles on its own node; again after alpha moves.
 */
async function keylessSignIn(alpha: School, beta: School) {
  const email = `owner@${alpha.key}.test`;
  const password = "Passw0rd!cluster";
  const add = await call("POST", "/api/v1/members", { token: beta.token, body: { displayName: "Alpha owner", email } });
  if (add.status !== 201) throw new Error(`add member: ${add.status} ${shown(add.body)}`);
  const tcode = await call("POST", `/api/v1/public/tenants/${beta.key}/auth/request-code`, { body: { email } });
  // No host: HAProxy sends it to any node; the one that gets it passes it to beta's.
  const intoBeta = await call("POST", "/api/v1/auth/sign-in/code", {
    body: { email, code: (tcode.body as { devCode: string }).devCode, tenantKey: beta.key },
  });
  const betaNode = (await placementOf(beta.key))?.node;
  check(
    intoBeta.status === 200 && (intoBeta.body as { user: { tenantKey: string } }).user.tenantKey === beta.key,
    `beta's code signs alpha's owner into beta (${intoBeta.status}, answered by ${intoBeta.node}, beta on ${betaNode})`,
  );
  const both = `${alpha.key},${beta.key}`;
  const t0 = performance.now();
  // The directory is published within a tick (2 s) of the proving write.
  const pw = await until(
    "keyless sign-in lists both schools",
    async () => {
      const r = await call("POST", "/api/v1/auth/sign-in/password", { body: { identifier: email, password } });
      return r.status === 200 && keysOf(r.body) === both ? r : null;
    },
    15_000,
  ).catch(() => null);
  const alphaNode = (await placementOf(alpha.key))?.node;
  check(
    !!pw && alphaNode !== betaNode,
    `password sign-in without a tenant key lists ${pw ? keysOf(pw.body) : "?"} (alpha on ${alphaNode}, beta on ${betaNode}; directory after ${Math.round(performance.now() - t0)} ms)`,
  );
  const req = await call("POST", "/api/v1/auth/sign-in/request-code", { body: { email } });
  const code = (req.body as { devCode?: string }).devCode ?? "";
  const checked = await Promise.all(NODES.map((_, i) => direct(i, "POST", "/api/v1/auth/sign-in/check-code", { email, code })));
  check(
    checked.every((r) => r.status === 200 && keysOf(r.body) === both),
    `a code asked for through ${req.node} checks on every node with both schools (${checked.map((r) => `${r.node} ${r.status} ${keysOf(r.body)}`).join("; ")})`,
  );
  const intoAlpha = await call("POST", "/api/v1/auth/sign-in/code", { body: { email, code, tenantKey: alpha.key } });
  const profiles = async (token: string) => call("GET", "/api/v1/me/profiles", { token });
  const [pa, pb] = [
    await profiles((intoAlpha.body as { accessToken: string }).accessToken),
    await profiles((intoBeta.body as { accessToken: string }).accessToken),
  ];
  const count = (r: Res) => (r.body as { profiles?: unknown[] }).profiles?.length ?? 0;
  check(
    intoAlpha.status === 200 && keysOf(intoAlpha.body) === both && pa.status === 200 && pb.status === 200 && count(pa) > 0 && count(pb) > 0,
    `the code signs into alpha (${intoAlpha.status}); listMyProfiles on alpha (${pa.node}: ${count(pa)}) and beta (${pb.node}: ${count(pb)})`,
  );
  // Latency: keyless password sign-in answered by alpha's node vs by another node (passed over).
  const timed = async (i: number) => {
    const t = performance.now();
    const r = await direct(i, "POST", "/api/v1/auth/sign-in/password", { identifier: email, password });
    return { ms: performance.now() - t, ok: r.status === 200 };
  };
  const ai = NODES.indexOf(alphaNode as (typeof NODES)[number]);
  const here = [await timed(ai), await timed(ai), await timed(ai)];
  const away = [await timed((ai + 1) % 3), await timed((ai + 1) % 3), await timed((ai + 1) % 3)];
  const median = (xs: { ms: number }[]) => Math.round(xs.map((x) => x.ms).sort((a, b) => a - b)[1] as number);
  check(
    [...here, ...away].every((x) => x.ok),
    `keyless password sign-in: ${median(here)} ms on alpha's node, ${median(away)} ms through another node (median of 3)`,
  );

  // After a move of alpha, still both.
  const to = NODES.find((n) => n !== alphaNode && n !== betaNode) as string;
  const moved = moveCommand(alpha.key, to);
  const moveOk = (await moved.exited) === 0;
  const after = await until(
    "keyless sign-in after alpha's move",
    async () => {
      const r = await call("POST", "/api/v1/auth/sign-in/password", { body: { identifier: email, password } });
      return r.status === 200 && keysOf(r.body) === both && r ? r : null;
    },
    15_000,
  ).catch(() => null);
  check(
    moveOk && (await placementOf(alpha.key))?.node === to && !!after,
    `after alpha moved ${alphaNode} → ${to}: keyless sign-in lists ${after ? keysOf(after.body) : "?"}`,
  );
}

async function main() {
  startEtcd();
  startHaproxy();
  storage = await swiftReady;
  log(
    `etcd, HAProxy and S3 (${ownSwift ? "own Swift" : "CI's Swift"}) up; appliances from ${BINARY ? `the binary ${BINARY}` : "the source"}`,
  );
  for (const i of [0, 1, 2]) startNode(i);
  await until(
    "3 nodes answer",
    async () => {
      const r = await Promise.all(NODES.map((_, i) => fetch(`http://127.0.0.1:${nodePort(i)}/readyz`).then((x) => x.ok)));
      return r.every(Boolean);
    },
    60_000,
  );
  log("3 appliances up");
  // HAProxy marked them down while they started; its next health check (every 500 ms) brings them back.
  await until("HAProxy routes to an appliance", async () => (await call("GET", "/readyz")).status === 200);

  // Routing by host, path and token, each answer naming its node.
  const schools = [await school("alpha"), await school("beta"), await school("gamma")];
  for (const s of schools) {
    const p = await placementOf(s.key);
    const byHost = await call("GET", "/api/v1/tenant", { host: hostOf(s.key), token: s.token });
    const byPath = await call("GET", `/t/${s.key}/login`);
    const byToken = await call("GET", "/api/v1/tenant", { token: s.token });
    check(
      !!p && byHost.node === p.node && byPath.node === p.node && byToken.node === p.node && byToken.status === 200,
      `${s.key} reaches its node ${p?.node} by host, path and token`,
    );
  }
  const [alpha, beta, gamma] = schools as [School, School, School];
  await deposedAgent(alpha.key);
  const bytes = crypto.getRandomValues(new Uint8Array(new ArrayBuffer(300_000)));
  const fileId = await upload(beta, bytes);

  // Live move under a writer loop.
  const from = (await placementOf(beta.key))?.node as string;
  // Not alpha's node either: the keyless sign-in below needs alpha and beta on two nodes.
  const alphaAt = (await placementOf(alpha.key))?.node;
  const to = (NODES.find((n) => n !== from && n !== alphaAt) ?? NODES.find((n) => n !== from)) as string;
  const w = writer(beta);
  await Bun.sleep(1_000);
  // Asynchronous: the writer loop goes on while the command runs.
  const moving = moveCommand(beta.key, to);
  const [moveOut, moveErr] = await Promise.all([new Response(moving.stdout).text(), new Response(moving.stderr).text()]);
  const move = { exitCode: await moving.exited };
  log(`move: ${moveOut.trim()} ${moveErr.trim()}`);
  await until("writes land on the new node", async () => {
    const n = w.acked.length;
    await Bun.sleep(300);
    return w.acked.length > n;
  });
  await Bun.sleep(500);
  await w.stop();
  const present = await spaceIds(beta);
  const lost = w.acked.filter((a) => !present.has(a.id)).length;
  check(move.exitCode === 0 && (await placementOf(beta.key))?.node === to, `beta moved ${from} → ${to}`);
  check(
    lost === 0,
    `move under a writer loop: ${w.acked.length} acknowledged writes, ${lost} lost, ${w.refused} refused (retried), longest pause ${Math.round(w.maxGap())} ms`,
  );
  const old = await call("GET", "/api/v1/tenant", { token: beta.token });
  const refreshed = await call("POST", "/api/v1/auth/session/refresh", { host: hostOf(beta.key), cookie: beta.cookie });
  check(
    old.status === 200 && old.node === to && refreshed.status === 200,
    `old access token (${old.status}) and refresh token (${refreshed.status}) work after the move`,
  );
  check(await downloadEquals(beta, fileId, bytes), "an upload downloads byte-equal after the move");
  await keylessSignIn(alpha, beta);

  // HAProxy restarted: its map comes back from etcd.
  const hp = procs.get("haproxy") as Subprocess;
  hp.kill(9);
  await hp.exited;
  const tRestart = performance.now();
  startHaproxy();
  await until(
    "map rebuilt",
    async () =>
      (await call("GET", "/api/v1/tenant", { token: alpha.token })).node === (await placementOf(alpha.key))?.node &&
      (await call("GET", `/t/${beta.key}/login`)).node === to,
  );
  check(true, `HAProxy restarted with an empty map: routing back after ${Math.round(performance.now() - tRestart)} ms`);

  // Failover: kill -9 the node holding gamma under a writer loop.
  const victim = (await placementOf(gamma.key))?.node as string;
  const gfile = await upload(gamma, bytes);
  // The post holding the upload must be older than the loss bound at the kill (sync + 1 s): a write
  // acknowledged within it may be lost by the contract, and the download check after the failover reads it.
  await Bun.sleep(SYNC_MS + 1_000);
  const g = writer(gamma);
  await Bun.sleep(1_500);
  const vi = NODES.indexOf(victim as (typeof NODES)[number]);
  const killedAt = performance.now();
  procs.get(victim)?.kill(9);
  const ackedBefore = () => g.acked.filter((a) => a.at < killedAt);
  const back = await until(
    "gamma writable again",
    async () => {
      const p = await placementOf(gamma.key);
      return p && p.node !== victim && p.state === "active" && g.acked.some((a) => a.at > killedAt) ? p : null;
    },
    30_000,
  ).catch(() => null);
  const failoverMs = performance.now() - killedAt;
  await g.stop();
  if (back) {
    const present2 = await spaceIds(gamma);
    const before = ackedBefore();
    const lostWrites = before.filter((a) => !present2.has(a.id));
    // Litestream looks for new frames every 250 ms and ships them every SYNC_MS: older writes are in the replica.
    const bound = SYNC_MS + 1_000;
    const oldest = lostWrites.length ? Math.round(killedAt - (lostWrites[0] as { at: number }).at) : 0;
    check(failoverMs <= 15_000, `kill -9 of ${victim}: gamma back on ${back.node} after ${Math.round(failoverMs)} ms`);
    check(
      oldest <= bound,
      `failover lost ${lostWrites.length} of ${before.length} acknowledged writes, the oldest acknowledged ${oldest} ms before the kill (bound: sync ${SYNC_MS} ms + 1 s)`,
    );
    const session = await call("POST", "/api/v1/auth/session/refresh", { host: hostOf(gamma.key), cookie: gamma.cookie });
    check(session.status === 200 && session.node === back.node, `gamma's refresh token works after the failover (${session.status})`);
    check(await downloadEquals(gamma, gfile, bytes), "an upload downloads byte-equal after the failover");
    const keyless = await until(
      "gamma's owner signs in without a key",
      async () => {
        const r = await call("POST", "/api/v1/auth/sign-in/password", {
          body: { identifier: `owner@${gamma.key}.test`, password: "Passw0rd!cluster" },
        });
        return r.status === 200 ? r : null;
      },
      10_000,
    ).catch(() => null);
    check(
      keyless !== null && keysOf(keyless.body) === gamma.key,
      `after the failover gamma's owner signs in without a tenant key (${keyless ? keysOf(keyless.body) : "refused"})`,
    );
  } else check(false, `kill -9 of ${victim}: gamma not back within 30 s (${JSON.stringify(await placementOf(gamma.key))})`);

  // The old node comes back: it serves none of the schools moved away from it.
  startNode(vi);
  await until(`${victim} answers`, async () => (await fetch(`http://127.0.0.1:${nodePort(vi)}/readyz`)).ok, 60_000);
  await until(`${victim} registered`, async () => {
    const r = await fetch(`http://127.0.0.1:${nodePort(vi)}/api/v1/tenant`, { headers: { authorization: `Bearer ${gamma.token}` } });
    return r.status !== 503;
  });
  const direct = await fetch(`http://127.0.0.1:${nodePort(vi)}/api/v1/tenant`, { headers: { authorization: `Bearer ${gamma.token}` } });
  const write = await fetch(`http://127.0.0.1:${nodePort(vi)}/api/v1/spaces`, {
    method: "POST",
    headers: { authorization: `Bearer ${gamma.token}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "stale" }),
  });
  check(
    direct.status === 421 && write.status === 421,
    `restarted ${victim} answers gamma with 421 (read ${direct.status}, write ${write.status})`,
  );
}

// The 6-minute timeout (cluster-check.sh) stops this with SIGTERM: nothing it started outlives it.
process.on("SIGTERM", () => {
  log("ERROR timed out (SIGTERM)");
  stopAll();
  process.exit(124);
});

/**
 * Everything this started, stopped: the processes, each node's Litestream (a node killed with
 * SIGKILL leaves its Litestream running, reparented; a busy one dies of SIGPIPE on its next log
 * line, an idle one would outlive the check) and the Swift it started.
 */
function stopAll() {
  for (const p of procs.values()) p.kill(9);
  for (const name of NODES) stopOrphan(join(dir, name, "litestream.pid"));
  if (ownSwift) Bun.spawnSync(["bash", "scripts/swift-s3.sh", "stop", join(dir, "swift")], { cwd: root });
}

let code = 1;
try {
  await main();
  code = failed ? 1 : 0;
} catch (e) {
  log(`ERROR ${(e as Error).stack ?? e}`);
  code = 1;
} finally {
  stopAll();
  console.log(results.join("\n"));
  console.log(
    `cluster check: ${results.length - failed} passed, ${failed} failed, ${Math.round((performance.now() - t00) / 1000)} s (logs in ${dir})`,
  );
  if (code === 0 && !process.env.KEEP) rmSync(dir, { recursive: true, force: true });
  process.exit(code);
}
